import { randomBytes } from 'node:crypto';
import { createServer } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import type { Browser, Page } from 'playwright-core';
import type { CardRow, Payment } from '@wv/contracts';
import { startServer, type RunningServer } from '../../api/test/support/server-process.js';
// The Daraja stand-in lives with the demo, which serves it to people too; tests may use it.
import { DarajaSandbox, newReceipt, statementCsv, type SandboxPush } from '../../demo/src/daraja/index.js';
import {
  DESKTOP,
  launchBrowser,
  openTab,
  PHONE,
  SETUP_TIMEOUT,
  signIn,
  TEST_TIMEOUT,
  waitForPath,
  type Tab,
} from './support/browser.js';
import { closeSuite } from './support/suite.js';
import { eventually, Seeder, type Account, type Machine } from './support/seed.js';

const MPESA = { consumerKey: 'e2e-key', consumerSecret: 'e2e-secret', shortcode: '174379', passkey: 'e2e-passkey' };
const CUSTOMER_PHONE = '+254708374149';

/** A port free right now: the program must know its public address (PUBLIC_URL) before it starts. */
function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as { port: number };
      probe.close(() => resolve(port));
    });
  });
}

const cardId = (prefix: string) => `${prefix}-${randomBytes(3).toString('hex').toUpperCase()}`;

/**
 * M-Pesa top-ups in the browser (docs/web-app.md, "Top up by M-Pesa" and "Payments"), against the real program
 * configured for a Daraja sandbox: the attendant asks a customer's phone to pay on a phone-sized screen, the sandbox
 * customer accepts, and the page follows the payment to "Paid" and shows the card's new balance without a reload;
 * the admin uploads an M-Pesa statement holding a receipt for a card nobody has, and matches that payment to a card.
 */
describe('M-Pesa top-ups: STK push from the card panel, statement upload and matching', () => {
  let server: RunningServer;
  let browser: Browser;
  let sandbox: DarajaSandbox;
  let seed: Seeder;
  let adminToken: string;
  let attendantToken: string;
  let machine: Machine;
  let attendant: Account;
  let manager: Account;
  const card = cardId('MPESA');
  const tabs: Tab[] = [];
  /** The push the attendant's request made, once the customer paid. */
  let paid: SandboxPush;

  beforeAll(async () => {
    sandbox = new DarajaSandbox(MPESA);
    await sandbox.start();
    const port = await freePort();
    [server, browser] = await Promise.all([
      startServer({
        env: {
          PORT: String(port),
          PUBLIC_URL: `http://127.0.0.1:${port}`,
          MPESA_BASE_URL: sandbox.url,
          MPESA_CONSUMER_KEY: MPESA.consumerKey,
          MPESA_CONSUMER_SECRET: MPESA.consumerSecret,
          MPESA_SHORTCODE: MPESA.shortcode,
          MPESA_PASSKEY: MPESA.passkey,
          MPESA_CALLBACK_TOKEN: randomBytes(18).toString('base64url'),
        },
      }),
      launchBrowser(),
    ]);
    seed = new Seeder(server.baseUrl);
    adminToken = await seed.login(server.admin.email, server.admin.password);
    machine = await seed.createDevice(adminToken);
    manager = await seed.createManager(adminToken, machine.espId);
    const managerToken = await seed.login(manager.email, manager.password);
    attendant = await seed.createAttendant(managerToken, machine.espId);
    attendantToken = await seed.fundAttendant(managerToken, attendant, 10_000);
    await seed.addCard(attendantToken, {
      card_id: card,
      card_holder_first_name: 'Wanjiru',
      card_holder_last_name: 'Kamau',
      card_balance: 500,
      card_type: 'Prepaid',
    });
  }, SETUP_TIMEOUT);

  afterAll(async () => {
    await closeSuite({ server, browser, tabs });
    await sandbox?.stop();
  }, SETUP_TIMEOUT);

  const open = async (
    account: { email: string; password: string },
    landing: string,
    viewport: { width: number; height: number } = DESKTOP,
  ) => {
    const opened = await openTab(browser, server.baseUrl, viewport);
    tabs.push(opened);
    await signIn(opened.page, account.email, account.password, landing);
    return opened;
  };

  const balanceOf = async (id: string) => {
    const cards = await seed.get<CardRow[]>(`/cards/${machine.espId}`, attendantToken);
    return cards.find((row) => row.card_id === id)?.card_balance;
  };

  const fitsTheScreen = (page: Page) => page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);

  it(
    'on a phone the attendant asks the customer’s phone to pay; the page waits for the PIN, then shows the receipt and the new balance without a reload',
    async () => {
      const { page, pageErrors } = await open(attendant, '/att/manager/dashboard', PHONE);
      await page.getByRole('button', { name: 'Open menu' }).click();
      await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'My Cards' }).click();
      await waitForPath(page, '/att/manager/cards');
      await page.evaluate(() => ((window as any).__noReload = true));

      const row = page.getByRole('table', { name: 'Cards' }).getByRole('row').filter({ hasText: card });
      await row.getByText('TZS 500').waitFor();
      await row.getByRole('button', { name: card }).click();
      const panel = page.getByRole('region', { name: `Card ${card}` });
      const form = panel.getByRole('form', { name: 'Top up by M-Pesa' });

      // Mistakes are said next to their field, before anything is sent.
      await form.getByLabel('Amount in shillings').fill('12.50');
      await form.getByRole('button', { name: 'Send payment request' }).click();
      await form.getByText('Enter the phone number the customer pays from.').waitFor();
      await form.getByText('Enter a whole number of shillings from 1 to 250,000.').waitFor();
      expect(sandbox.pushes()).toHaveLength(0);

      await form.getByLabel('Customer’s phone number').fill(CUSTOMER_PHONE);
      await form.getByLabel('Amount in shillings').fill('300');
      await form.getByRole('button', { name: 'Send payment request' }).click();
      await form.getByText('Waiting for the customer to enter their M-Pesa PIN…').waitFor();

      // The customer's phone got the request; they enter their PIN.
      const [push] = await eventually(
        async () => sandbox.pushes(),
        (pushes) => pushes.length === 1,
        30_000,
      );
      expect({ amount: push!.amount, phone: push!.phoneNumber }).toEqual({ amount: 300, phone: '254708374149' });
      paid = sandbox.respond(push!.checkoutRequestId, 'success');

      await form.getByText(`Paid: receipt ${paid.receipt}. TZS 300 added to the card.`).waitFor({ timeout: 30_000 });
      await row.getByText('TZS 800').waitFor();
      await panel.locator('dd').getByText('TZS 800').waitFor();
      const history = panel.getByRole('table').getByRole('row').filter({ hasText: paid.receipt! });
      await history.getByText('M-Pesa top-up').waitFor();
      expect(await balanceOf(card)).toBe(800);

      expect(await fitsTheScreen(page)).toBe(0);
      expect(await page.evaluate(() => (window as any).__noReload)).toBe(true);
      expect(pageErrors).toEqual([]);
    },
    TEST_TIMEOUT * 2,
  );

  it(
    'the admin uploads a statement with a receipt for an unknown card, reads what it did, and matches that payment to a card',
    async () => {
      const stray = { receipt: newReceipt(), account: cardId('NOSUCH') };
      // The statement holds the STK payment (already credited) and a paybill payment to a card nobody has.
      const csv = statementCsv([
        ...sandbox.statement(),
        {
          receipt: stray.receipt,
          completedAt: new Date(),
          details: `Pay Bill from 254712345678 - Acc. ${stray.account}`,
          paidIn: 450,
          otherParty: '254712345678 - Amina Otieno',
          accountNumber: stray.account,
        },
      ]);

      const { page, pageErrors } = await open(server.admin, '/maindashboard');
      await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Payments' }).click();
      await waitForPath(page, '/payments');
      await page.getByRole('heading', { name: 'Payments', level: 1 }).waitFor();

      const upload = page.getByRole('form', { name: 'Upload an M-Pesa statement' });
      await upload.getByRole('button', { name: 'Upload statement' }).click();
      await upload.getByText('Choose the statement file first.').waitFor();
      // A file that is no statement is refused whole, in the server's words.
      await upload.getByLabel('Statement file').setInputFiles({
        name: 'notes.csv',
        mimeType: 'text/csv',
        buffer: Buffer.from('Name,Phone\r\nAmina,0712\r\n'),
      });
      await upload.getByRole('button', { name: 'Upload statement' }).click();
      await upload
        .getByText('The statement was not read: No "Receipt No." header row: is this an M-Pesa organisation statement?')
        .waitFor();
      await upload
        .getByLabel('Statement file')
        .setInputFiles({ name: 'statement.csv', mimeType: 'text/csv', buffer: Buffer.from(csv) });
      await upload.getByRole('button', { name: 'Upload statement' }).click();
      await upload
        .getByText('Statement read: 2 payments in it, 0 newly credited to cards, 1 unmatched.')
        .waitFor({ timeout: 30_000 });

      // The unmatched payment is listed; matching it asks first, then credits the card.
      const table = page.getByRole('table', { name: 'Payments' });
      const strayRow = table.getByRole('row').filter({ hasText: stray.receipt });
      await strayRow.getByText('Unmatched').waitFor();
      await table.getByRole('row').filter({ hasText: paid.receipt! }).getByText('Paid').waitFor();
      await strayRow.getByRole('button', { name: 'Match to a card' }).click();

      const match = page.getByRole('form', { name: `Match payment ${stray.receipt}` });
      await match.getByLabel('Card ID').fill(stray.account);
      await match.getByRole('button', { name: 'Credit to card' }).click();
      const wrongDialog = page.getByRole('dialog', { name: `Credit TZS 450 to card ${stray.account}?` });
      await wrongDialog.getByRole('button', { name: 'Yes, credit it' }).click();
      await match.getByText('No card has this ID.').waitFor();

      await match.getByLabel('Card ID').fill(card);
      await match.getByRole('button', { name: 'Credit to card' }).click();
      const dialog = page.getByRole('dialog', { name: `Credit TZS 450 to card ${card}?` });
      expect(await dialog.innerText()).toContain('The card’s balance goes up by TZS 450.');
      await dialog.getByRole('button', { name: 'Yes, credit it' }).click();
      await page.getByText(`Payment ${stray.receipt} credited to card ${card}.`).waitFor();
      await strayRow.getByText('Paid').waitFor();
      await strayRow.getByText(card).waitFor();
      expect(await strayRow.getByRole('button', { name: 'Match to a card' }).count()).toBe(0);

      const payments = await seed.get<{ data: Payment[]; total: number }>(`/payments?cardId=${card}`, adminToken);
      expect(
        payments.data
          .map((p) => ({ status: p.status, amount: p.amount, receipt: p.receipt }))
          .sort((a, b) => a.amount - b.amount),
      ).toEqual([
        { status: 'completed', amount: 300, receipt: paid.receipt },
        { status: 'completed', amount: 450, receipt: stray.receipt },
      ]);
      expect(await balanceOf(card)).toBe(1250);
      expect(pageErrors).toEqual([]);
    },
    TEST_TIMEOUT * 2,
  );

  it(
    'the manager sees both M-Pesa credits on the card and on the Payments page, and can top the card up from Registered Cards',
    async () => {
      const { page, pageErrors } = await open(manager, '/manager/dashboard');
      await page.goto(`/manager/card/info?machineId=${encodeURIComponent(machine.espId)}`);
      await page.getByRole('list', { name: 'Registered cards' }).getByRole('button').filter({ hasText: card }).click();
      const panel = page.getByRole('region', { name: `Card ${card}` });
      await panel.locator('dd').getByText('TZS 1,250').waitFor();
      await panel.getByRole('table').getByText('M-Pesa top-up').first().waitFor();
      expect(await panel.getByRole('table').getByText('M-Pesa top-up').count()).toBe(2);
      await panel
        .getByRole('form', { name: 'Top up by M-Pesa' })
        .getByRole('button', { name: 'Send payment request' })
        .waitFor();

      await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Payments' }).click();
      await waitForPath(page, '/payments');
      const table = page.getByRole('table', { name: 'Payments' });
      await table.getByRole('row').filter({ hasText: paid.receipt! }).getByText('Paid').waitFor();
      expect(await table.getByRole('row').count()).toBe(3);
      expect(await page.getByRole('form', { name: 'Upload an M-Pesa statement' }).count()).toBe(0);
      expect(await page.getByRole('button', { name: 'Match to a card' }).count()).toBe(0);
      expect(pageErrors).toEqual([]);
    },
    TEST_TIMEOUT,
  );
});
