import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import type { Browser, Page, Request } from 'playwright-core';
import type { RunningServer } from '../../api/test/support/server-process.js';
import {
  colorOf,
  GREEN,
  openTab,
  PHONE,
  RED,
  SETUP_TIMEOUT,
  signIn,
  TEST_TIMEOUT,
  waitForPath,
  type Tab,
} from './support/browser.js';
import { inKiswahili } from './support/language.js';
import { closeSuite, openSuite } from './support/suite.js';
import { cardSale } from './support/sales.js';
import { eventually, Seeder, type Account, type Machine } from './support/seed.js';

const cardId = (prefix: string) => `${prefix}-${randomBytes(3).toString('hex').toUpperCase()}`;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

describe('cards: Add Card from float, Card Information Summary and the Registered Cards panel', () => {
  let server: RunningServer;
  let browser: Browser;
  let seed: Seeder;
  let adminToken: string;
  let manager: Account;
  let managerToken: string;
  const tabs: Tab[] = [];

  beforeAll(async () => {
    ({ server, browser, seed, adminToken } = await openSuite());
    const first = await seed.createDevice(adminToken);
    manager = await seed.createManager(adminToken, first.espId);
    managerToken = await seed.login(manager.email, manager.password);
  }, SETUP_TIMEOUT);

  afterAll(async () => {
    await closeSuite({ server, browser, tabs });
  }, SETUP_TIMEOUT);

  /** A machine of the manager's with its own attendant holding `float` of approved float. */
  const attendedMachine = async (float: number) => {
    const machine = await seed.createDevice(adminToken);
    await seed.addDevice(adminToken, manager.userId, machine.espId);
    const attendant = await seed.createAttendant(managerToken, machine.espId);
    const token = await seed.fundAttendant(managerToken, attendant, float);
    return { machine, attendant, token };
  };

  const open = async (account: Account, landing: string, viewport?: { width: number; height: number }) => {
    const opened = await openTab(browser, server.baseUrl, viewport);
    tabs.push(opened);
    await signIn(opened.page, account.email, account.password, landing);
    return opened;
  };

  const fillCard = async (page: Page, id: string, balance: string) => {
    await page.getByLabel('Card ID').fill(id);
    await page.getByLabel('First Name').fill('Neema');
    await page.getByLabel('Last Name').fill('Mollel');
    await page.getByLabel('Balance').fill(balance);
    await page.getByLabel('Card Type').fill('Prepaid');
  };

  it(
    "Add Card registers a card from float: 'User added successfully. ID: {id}', the form resets and the float balance drops",
    async () => {
      const { attendant, machine } = await attendedMachine(10_000);
      const { page, pageErrors } = await open(attendant, '/att/manager/dashboard');
      await page.getByRole('heading', { name: 'Add Card' }).waitFor();
      await page.getByRole('heading', { name: 'Register New User' }).waitFor();
      await page.getByText('TZS 10,000').waitFor();
      await page.getByText(machine.espId).waitFor();

      // The form's fields: Mobile No optional, Balance a number with step 0.01.
      expect(await page.getByLabel('Mobile No').getAttribute('required')).toBeNull();
      expect(await page.getByLabel('Balance').getAttribute('type')).toBe('number');
      expect(await page.getByLabel('Balance').getAttribute('step')).toBe('0.01');

      const id = cardId('NEW');
      await fillCard(page, id, '2500.50');
      const posted = page.waitForRequest((r) => r.url().endsWith('/api/att/add/user/card'));
      await page.getByRole('button', { name: 'Register', exact: true }).click();
      const success = page.getByRole('status').filter({ hasText: 'User added successfully. ID: ' });
      await success.waitFor();
      expect(await success.innerText()).toMatch(/^User added successfully\. ID: \S+$/);
      expect(await colorOf(success.locator('.status-text'))).toBe(GREEN);
      expect((await posted).headers()['idempotency-key']).toMatch(UUID);
      expect(await page.getByLabel('Card ID').inputValue()).toBe('');
      expect(await page.getByLabel('Balance').inputValue()).toBe('');
      await page.getByText('TZS 7,499.50').waitFor();

      const cards = await seed.get<{ card_id: string; card_balance: number }[]>(
        `/cards/${machine.espId}`,
        managerToken,
      );
      expect(cards).toEqual([expect.objectContaining({ card_id: id, card_balance: 2500.5 })]);
      expect(pageErrors).toEqual([]);
    },
    TEST_TIMEOUT,
  );

  it(
    "a card already registered is refused with the alert 'Card is already registered.' and the form keeps its values",
    async () => {
      const { attendant, token } = await attendedMachine(5_000);
      const id = cardId('TAKEN');
      await seed.addCard(token, {
        card_id: id,
        card_holder_first_name: 'Asha',
        card_holder_last_name: 'Juma',
        card_balance: 100,
        card_type: 'Prepaid',
      });
      const { page } = await open(attendant, '/att/manager/dashboard');
      await page.getByText('TZS 4,900').waitFor();
      await fillCard(page, id, '50');
      // The alert is accepted by the handler itself: an open alert blocks the click's own
      // wait for navigations, so awaiting the dialog after the click could never resolve.
      const alert = new Promise<{ type: string; message: string }>((resolve) => {
        page.once('dialog', (dialog) => {
          resolve({ type: dialog.type(), message: dialog.message() });
          void dialog.accept();
        });
      });
      await page.getByRole('button', { name: 'Register', exact: true }).click();
      expect(await alert).toEqual({ type: 'alert', message: 'Card is already registered.' });
      expect(await page.getByLabel('Card ID').inputValue()).toBe(id);
      // Nothing was spent.
      await page.waitForLoadState('networkidle');
      await page.getByText('TZS 4,900').waitFor();
    },
    TEST_TIMEOUT,
  );

  it(
    "other refusals read 'Failed to add user: {error}'; no answer reads 'An error occurred while adding the user.' and a retry reuses the Idempotency-Key",
    async () => {
      const { attendant } = await attendedMachine(1_000);
      const { page } = await open(attendant, '/att/manager/dashboard');
      await page.getByText('TZS 1,000').waitFor();

      // More than the float: a business rule (422) with the server's sentence.
      await fillCard(page, cardId('BIG'), '5000');
      await page.getByRole('button', { name: 'Register', exact: true }).click();
      const refused = page.getByRole('alert');
      await refused.waitFor();
      expect(await refused.innerText()).toMatch(/^Failed to add user: .*[Ii]nsufficient float/);
      expect(await colorOf(refused.locator('.status-text'))).toBe(RED);

      // The network fails: the no-answer sentence; the same submission again reuses its key.
      const keys: string[] = [];
      const remember = (request: Request) => {
        if (request.url().endsWith('/api/att/add/user/card')) keys.push(request.headers()['idempotency-key']);
      };
      page.on('request', remember);
      const id = cardId('RETRY');
      await fillCard(page, id, '300');
      await page.route('**/api/att/add/user/card', (route) => route.abort('internetdisconnected'));
      await page.getByRole('button', { name: 'Register', exact: true }).click();
      await page.getByText('An error occurred while adding the user.', { exact: true }).waitFor();
      await page.unroute('**/api/att/add/user/card');
      await page.getByRole('button', { name: 'Register', exact: true }).click();
      await page.getByText(/^User added successfully\. ID: /).waitFor();
      expect(keys).toHaveLength(2);
      expect(keys[0]).toMatch(UUID);
      expect(keys[1]).toBe(keys[0]);
      await page.getByText('TZS 700').waitFor();

      // A new submission gets a new key.
      await fillCard(page, cardId('NEXT'), '1');
      await page.getByRole('button', { name: 'Register', exact: true }).click();
      await page.getByText('TZS 699').waitFor();
      expect(keys).toHaveLength(3);
      expect(keys[2]).not.toBe(keys[0]);
    },
    TEST_TIMEOUT,
  );

  it(
    'Card Information Summary shows Machine ID and Total Cards per machine; a tile opens the Registered Cards panel with select, deselect and the history',
    async () => {
      const { machine, token } = await attendedMachine(5_000);
      const empty = await seed.createDevice(adminToken);
      await seed.addDevice(adminToken, manager.userId, empty.espId);
      const first = cardId('C1');
      const second = cardId('C2');
      await seed.addCard(token, {
        card_id: first,
        card_holder_first_name: 'Neema',
        card_holder_last_name: 'Mollel',
        phoneNumber: '+255712345678',
        card_balance: 1000,
        card_type: 'Student',
      });
      await seed.addCard(token, {
        card_id: second,
        card_holder_first_name: 'Baraka',
        card_holder_last_name: 'Mushi',
        card_balance: 500,
        card_type: 'Staff',
      });
      // The machine sells 200 worth of water to the first card.
      await seed.postSales(machine as Machine, [cardSale(first, 200, 2)]);
      await eventually(
        () => seed.get<unknown[]>(`/transactions/${first}`, managerToken),
        (rows) => rows.length === 2,
      );

      const { page, pageErrors } = await open(manager, '/manager/dashboard');
      await page.goto('/manager/card/info/summary');
      await page.getByRole('heading', { name: 'Card Information Summary' }).waitFor();
      const tile = page.getByRole('link', { name: new RegExp(machine.espId) });
      expect(await tile.innerText()).toMatch(new RegExp(`Machine ID\\s+${machine.espId}\\s+Total Cards\\s+2`));
      expect(await page.getByRole('link', { name: new RegExp(empty.espId) }).innerText()).toMatch(/Total Cards\s+0/);

      await tile.click();
      await waitForPath(page, '/manager/card/info');
      await page.getByRole('heading', { name: `Registered Cards for Machine ${machine.espId}` }).waitFor();
      const cards = page.getByRole('list', { name: 'Registered cards' }).getByRole('button');
      await cards.first().waitFor();
      expect(await cards.count()).toBe(2);
      const firstCard = cards.filter({ hasText: first });
      const text = await firstCard.innerText();
      for (const part of ['Card ID', first, 'Name', 'Neema Mollel', 'Mobile No', '+255712345678', 'Date Registered']) {
        expect(text).toContain(part);
      }

      await firstCard.click();
      expect(await firstCard.getAttribute('aria-pressed')).toBe('true');
      const details = page.getByRole('region', { name: `Card ${first}` });
      await details.getByText('TZS 800').waitFor();
      await details.getByRole('heading', { name: 'Transaction History' }).waitFor();
      // The heading comes at once, the table with the card's history: wait for its rows before reading it.
      const history = details.getByRole('table');
      await history.locator('tbody tr').first().waitFor();
      expect(await history.locator('thead th').allInnerTexts()).toEqual([
        'Transaction ID',
        'Amount',
        'Date',
        'Card Type',
      ]);
      expect(await history.locator('tbody tr').count()).toBe(2);
      await history.getByText('TZS 1,000').waitFor();
      await history.getByText('-TZS 200').waitFor();

      // Clicking the selected card again deselects it.
      await firstCard.click();
      expect(await firstCard.getAttribute('aria-pressed')).toBe('false');
      await page.getByRole('heading', { name: 'Transaction History' }).waitFor({ state: 'detached' });

      // Another machine without cards.
      await page.getByLabel('Machine', { exact: true }).selectOption(empty.espId);
      await page.getByText('No registered cards found.', { exact: true }).waitFor();
      expect(pageErrors).toEqual([]);
    },
    TEST_TIMEOUT,
  );

  it(
    "the panels' empty and error texts: 'No machines found for this user.', 'No transactions found for this card.', 'Failed to fetch …' and 'An error occurred while fetching ….'",
    async () => {
      const { machine, token } = await attendedMachine(1_000);
      const id = cardId('E1');
      await seed.addCard(token, {
        card_id: id,
        card_holder_first_name: 'Zawadi',
        card_holder_last_name: 'Kimaro',
        card_balance: 10,
        card_type: 'Prepaid',
      });
      const { page } = await open(manager, '/manager/dashboard', PHONE);

      await page.route('**/api/cards/summary', (route) => route.fulfill({ json: {} }));
      await page.goto('/manager/card/info/summary');
      await page.getByText('No machines found for this user.', { exact: true }).waitFor();
      await page.unroute('**/api/cards/summary');
      await page.route('**/api/cards/summary', (route) =>
        route.fulfill({ status: 500, json: { statusCode: 500, code: 'Internal', message: 'database down' } }),
      );
      await page.reload();
      await page.getByText('Failed to fetch card summary: database down', { exact: true }).waitFor();
      await page.unroute('**/api/cards/summary');
      await page.route('**/api/cards/summary', (route) => route.abort());
      await page.reload();
      await page.getByText('An error occurred while fetching card summary.', { exact: true }).waitFor();
      await page.unroute('**/api/cards/summary');

      await page.route(`**/api/transactions/${id}`, (route) => route.fulfill({ json: [] }));
      await page.goto(`/manager/card/info?machineId=${machine.espId}`);
      await page.getByRole('button', { name: new RegExp(id) }).click();
      await page.getByText('No transactions found for this card.', { exact: true }).waitFor();
      await page.unroute(`**/api/transactions/${id}`);
      await page.route(`**/api/transactions/${id}`, (route) =>
        route.fulfill({ status: 404, json: { statusCode: 404, code: 'NotFound', message: 'Card not found' } }),
      );
      await page.reload();
      await page.getByRole('button', { name: new RegExp(id) }).click();
      await page.getByText('Failed to fetch transactions: Card not found', { exact: true }).waitFor();
      await page.unroute(`**/api/transactions/${id}`);
      await page.route(`**/api/transactions/${id}`, (route) => route.abort());
      await page.reload();
      await page.getByRole('button', { name: new RegExp(id) }).click();
      await page.getByText('An error occurred while fetching transactions.', { exact: true }).waitFor();

      await page.route(`**/api/cards/${machine.espId}`, (route) => route.abort());
      await page.reload();
      await page.getByText('An error occurred while fetching machine details.', { exact: true }).waitFor();
      await page.unroute(`**/api/cards/${machine.espId}`);
      await page.route(`**/api/cards/${machine.espId}`, (route) =>
        route.fulfill({ status: 404, json: { statusCode: 404, code: 'NotFound', message: 'Device not found' } }),
      );
      await page.reload();
      const failed = page.getByText('Failed to fetch machine details: Device not found', { exact: true });
      await failed.waitFor();
      expect(await colorOf(failed)).toBe(RED);
      expect(await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth)).toBe(0);
    },
    TEST_TIMEOUT,
  );

  /** A machine of the manager's with one card that bought water once: its history has a load and a sale. */
  const cardWithHistory = async () => {
    const { machine, token } = await attendedMachine(5_000);
    const id = cardId('H1');
    await seed.addCard(token, {
      card_id: id,
      card_holder_first_name: 'Neema',
      card_holder_last_name: 'Mollel',
      phoneNumber: '+255712345678',
      card_balance: 1000,
      card_type: 'Student',
    });
    await seed.postSales(machine as Machine, [cardSale(id, 200, 2)]);
    await eventually(
      () => seed.get<unknown[]>(`/transactions/${id}`, managerToken),
      (rows) => rows.length === 2,
    );
    return { machine, id };
  };

  it(
    'on a phone the Transaction History rows are cards whose labels and values line up, every field in view',
    async () => {
      const { machine, id } = await cardWithHistory();
      const { page, pageErrors } = await open(manager, '/manager/dashboard', PHONE);
      await page.goto(`/manager/card/info?machineId=${machine.espId}`);
      await page.getByRole('button', { name: new RegExp(id) }).click();
      const history = page.getByRole('region', { name: `Card ${id}` }).getByRole('table');
      await history.getByText('-TZS 200').waitFor();
      const rows = await history.locator('tbody tr').evaluateAll((trs) =>
        trs.map((tr) => ({
          display: getComputedStyle(tr).display,
          cells: [...tr.querySelectorAll('td')].map((td) => {
            const value = document.createRange();
            value.selectNodeContents(td);
            const box = value.getBoundingClientRect();
            return {
              label: getComputedStyle(td, '::before').content.replace(/^"|"$/g, ''),
              // Label and value side by side: the cell's grid has a single row.
              oneLine: getComputedStyle(td).gridTemplateRows.split(' ').length === 1,
              inView: box.left >= 0 && box.right <= window.innerWidth,
              valueLeft: Math.round(box.left),
            };
          }),
        })),
      );
      expect(rows).toHaveLength(2);
      for (const row of rows) {
        expect(row.display).toBe('block');
        expect(row.cells.map((cell) => cell.label)).toEqual(['Transaction ID', 'Amount', 'Date', 'Card Type']);
        for (const { label, oneLine, inView } of row.cells) {
          expect({ label, oneLine, inView }).toEqual({ label, oneLine: true, inView: true });
        }
      }
      // Every value starts in the same column, in both rows.
      expect(new Set(rows.flatMap((row) => row.cells.map((cell) => cell.valueLeft))).size).toBe(1);
      expect(await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth)).toBe(0);
      expect(pageErrors).toEqual([]);
    },
    TEST_TIMEOUT,
  );

  it(
    'in Kiswahili the Registered Cards panel and the Transaction History speak Kiswahili',
    async () => {
      const { machine, id } = await cardWithHistory();
      const { page, pageErrors } = await open(manager, '/manager/dashboard');
      // After the sign-in sync (the account's saved language is English), or it would switch the page back.
      await inKiswahili(page);
      await page.goto(`/manager/card/info?machineId=${machine.espId}`);
      await page.getByRole('heading', { name: `Kadi Zilizosajiliwa kwenye Mashine ${machine.espId}` }).waitFor();
      expect(await page.getByLabel('Mashine', { exact: true }).inputValue()).toBe(machine.espId);
      const card = page
        .getByRole('list', { name: 'Kadi zilizosajiliwa' })
        .getByRole('button', { name: new RegExp(id) });
      const text = await card.innerText();
      for (const part of ['Namba ya Kadi', 'Jina', 'Namba ya Simu', 'Tarehe ya Usajili', 'Inatumika']) {
        expect(text).toContain(part);
      }

      await card.click();
      const details = page.getByRole('region', { name: `Kadi ${id}` });
      await details.getByText('TZS 800').first().waitFor();
      await details.getByRole('heading', { name: 'Historia ya Miamala' }).waitFor();
      const history = details.getByRole('table');
      await history.locator('tbody tr').first().waitFor();
      expect(await history.locator('thead th').allInnerTexts()).toEqual([
        'Namba ya Muamala',
        'Kiasi',
        'Tarehe',
        'Aina ya Kadi',
      ]);
      await history.getByText('Mauzo').waitFor();
      await history.getByText('Salio la mwanzo').waitFor();
      await history.getByText('-TZS 200').waitFor();
      expect(pageErrors).toEqual([]);
    },
    TEST_TIMEOUT,
  );
});
