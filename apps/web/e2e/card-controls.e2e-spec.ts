import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import type { Browser, Page } from 'playwright-core';
import type { CardRow, MachineSync } from '@wv/contracts';
import { CardListMachine } from '../../api/test/support/card-list-machine.js';
import type { RunningServer } from '../../api/test/support/server-process.js';
import {
  DESKTOP,
  openTab,
  PHONE,
  SETUP_TIMEOUT,
  signIn,
  TEST_TIMEOUT,
  waitForPath,
  type Tab,
} from './support/browser.js';
import { closeSuite, openSuite } from './support/suite.js';
import { eventually, Seeder, type Account, type Machine } from './support/seed.js';

const cardId = (prefix: string) => `${prefix}-${randomBytes(3).toString('hex').toUpperCase()}`;

/**
 * Lost and stolen cards in the browser (docs/web-app.md, "My Cards" and "Registered Cards"): the attendant blocks a
 * lost card and replaces it on a phone, a simulated machine (an mqtt.js client holding its card list as the
 * firmware does) receives the change and acknowledges it, and the page says that the machine's list caught up;
 * the manager sets a daily limit and sees refusals in plain words.
 */
describe('card controls: block, replace and limit a card, and the machine’s card list catching up', () => {
  let server: RunningServer;
  let browser: Browser;
  let seed: Seeder;
  let adminToken: string;
  let machine: Machine;
  let manager: Account;
  let attendant: Account;
  let attendantToken: string;
  let device: CardListMachine;
  const lost = cardId('LOST');
  const fresh = cardId('NEW');
  const tabs: Tab[] = [];

  const sync = () => seed.get<MachineSync>(`/machines/${machine.espId}/sync`, attendantToken);
  /** The machine holds the newest list and the server knows it. */
  const settled = () =>
    eventually(
      sync,
      (s) =>
        s.cardListVersion > 0 &&
        s.cardListAckedVersion === s.cardListVersion &&
        s.cardListVersion === device.held.version,
      30_000,
    );

  beforeAll(async () => {
    ({ server, browser, seed, adminToken } = await openSuite());
    machine = await seed.createDevice(adminToken);
    manager = await seed.createManager(adminToken, machine.espId);
    const managerToken = await seed.login(manager.email, manager.password);
    attendant = await seed.createAttendant(managerToken, machine.espId);
    attendantToken = await seed.fundAttendant(managerToken, attendant, 10_000);
    await seed.addCard(attendantToken, {
      card_id: lost,
      card_holder_first_name: 'Neema',
      card_holder_last_name: 'Mollel',
      card_balance: 2500,
      card_type: 'Prepaid',
    });
    device = await CardListMachine.connect(server.mqttPort, machine.espId, machine.deviceKey);
    await device.until(() => device.balanceOf(lost) === 2500, 'the registered card');
    await settled();
  }, SETUP_TIMEOUT);

  afterAll(async () => {
    await device?.end();
    await closeSuite({ server, browser, tabs });
  }, SETUP_TIMEOUT);

  const open = async (account: Account, landing: string, viewport: { width: number; height: number }) => {
    const opened = await openTab(browser, server.baseUrl, viewport);
    tabs.push(opened);
    await signIn(opened.page, account.email, account.password, landing);
    return opened;
  };

  const upToDate = (page: Page) =>
    page.getByText(`Machine’s card list: up to date (version ${device.held.version})`, { exact: true });

  const fitsTheScreen = (page: Page) => page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);

  it(
    'on a phone the attendant blocks a lost card and replaces it; the machine’s list holds both changes and the page says it caught up',
    async () => {
      const { page, pageErrors } = await open(attendant, '/att/manager/dashboard', PHONE);
      await page.getByRole('button', { name: 'Open menu' }).click();
      await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'My Cards' }).click();
      await waitForPath(page, '/att/manager/cards');
      await page.getByRole('heading', { name: 'My Cards', level: 1 }).waitFor();
      await upToDate(page).waitFor();
      await page.evaluate(() => ((window as any).__noReload = true));

      const table = page.getByRole('table', { name: 'Cards' });
      const lostRow = table.getByRole('row').filter({ hasText: lost });
      expect(await lostRow.innerText()).toMatch(/TZS 2,500[\s\S]*Active[\s\S]*No limit/);
      await lostRow.getByRole('button', { name: lost }).click();
      const panel = page.getByRole('region', { name: `Card ${lost}` });
      await panel.waitFor();

      // Block: the reason, then the confirmation, which fits the phone's screen.
      const block = panel.getByRole('form', { name: 'Block a lost or stolen card' });
      await block.getByLabel('Reason').fill('Lost at Kariakoo market');
      await block.getByRole('button', { name: 'Block card' }).click();
      const blockDialog = page.getByRole('dialog', { name: `Block card ${lost}?` });
      await blockDialog.waitFor();
      const box = (await blockDialog.boundingBox())!;
      expect(box.x >= 0 && box.x + box.width <= PHONE.width).toBe(true);
      await blockDialog.getByRole('button', { name: 'Yes, block' }).click();
      await panel.getByText('Card blocked.').waitFor();
      await panel.getByRole('button', { name: 'Unblock card' }).waitFor();
      await lostRow.getByText('Blocked').waitFor();

      // Replace: the new card takes the holder and the balance.
      const replace = panel.getByRole('form', { name: 'Replace with a new card' });
      await replace.getByLabel('New card ID').fill(fresh);
      await replace.getByRole('button', { name: 'Replace card' }).click();
      const replaceDialog = page.getByRole('dialog', { name: `Replace card ${lost}?` });
      expect(await replaceDialog.innerText()).toContain(
        `Card ${fresh} gets the holder and the balance of TZS 2,500; card ${lost} is blocked for good.`,
      );
      await replaceDialog.getByRole('button', { name: 'Yes, replace' }).click();
      const freshPanel = page.getByRole('region', { name: `Card ${fresh}` });
      await freshPanel.getByText(`Card replaced. Card ${fresh} now holds TZS 2,500.`).waitFor();
      const freshRow = table.getByRole('row').filter({ hasText: fresh });
      expect(await freshRow.innerText()).toMatch(/Neema Mollel[\s\S]*TZS 2,500[\s\S]*Active/);
      expect(await lostRow.innerText()).toMatch(/TZS 0[\s\S]*Blocked/);

      // The machine receives both changes as a firmware would and acknowledges them.
      await device.until(
        () => device.held.cards.get(lost)?.status === 'blocked' && device.balanceOf(fresh) === 2500,
        'the old card blocked and the new card with the balance',
      );
      expect(device.held.cards.get(lost)).toEqual({
        cardId: lost,
        status: 'blocked',
        balance: 0,
        dailyLimitLitres: null,
      });
      expect(device.held.cards.get(fresh)).toEqual({
        cardId: fresh,
        status: 'active',
        balance: 2500,
        dailyLimitLitres: null,
      });
      const state = await settled();
      // The page, asking by itself, says the machine holds that version.
      await upToDate(page).waitFor({ timeout: 30_000 });
      expect(state.cardListVersion).toBe(device.held.version);

      expect(await fitsTheScreen(page)).toBe(0);
      expect(await page.evaluate(() => (window as any).__noReload)).toBe(true);
      expect(pageErrors).toEqual([]);
    },
    TEST_TIMEOUT * 3,
  );

  it(
    'the manager sees both cards’ status, sets a daily limit the machine receives, and gets refusals in plain words',
    async () => {
      const { page, pageErrors } = await open(manager, '/manager/dashboard', DESKTOP);
      await page.goto(`/manager/card/info?machineId=${encodeURIComponent(machine.espId)}`);
      await page.getByRole('heading', { name: `Registered Cards for Machine ${machine.espId}` }).waitFor();
      await upToDate(page).waitFor();
      const tiles = page.getByRole('list', { name: 'Registered cards' }).getByRole('button');
      const lostTile = tiles.filter({ hasText: lost });
      const freshTile = tiles.filter({ hasText: fresh });
      await lostTile.getByText('Blocked').waitFor();
      await freshTile.getByText('Active').waitFor();

      // The old card's history shows where its balance went.
      await lostTile.click();
      const lostPanel = page.getByRole('region', { name: `Card ${lost}` });
      await lostPanel.getByRole('table').getByText('-TZS 2,500').waitFor();
      await lostPanel.getByRole('table').getByText('Moved to replacement card').waitFor();
      // Unblocking a replaced card is refused, in plain words.
      await lostPanel.getByRole('button', { name: 'Unblock card' }).click();
      await lostPanel.getByText('This card was replaced; use its replacement.').waitFor();

      await freshTile.click();
      const panel = page.getByRole('region', { name: `Card ${fresh}` });
      await panel.waitFor();
      expect(await panel.getByRole('form', { name: 'Top up', exact: true }).count()).toBe(0);

      const limit = panel.getByRole('form', { name: 'Daily limit' });
      await limit.getByLabel('Daily limit (litres)').fill('20');
      await limit.getByRole('button', { name: 'Save limit' }).click();
      await panel.getByText('Daily limit saved.').waitFor();
      await panel.locator('dd').getByText('20 L a day').waitFor();
      await device.until(() => device.held.cards.get(fresh)?.dailyLimitLitres === 20, 'the daily limit');
      await settled();
      await upToDate(page).waitFor({ timeout: 30_000 });

      // A card ID already in use: said next to the field, in words, not the API's names.
      const replace = panel.getByRole('form', { name: 'Replace with a new card' });
      await replace.getByLabel('New card ID').fill(lost);
      await replace.getByRole('button', { name: 'Replace card' }).click();
      await page
        .getByRole('dialog', { name: `Replace card ${fresh}?` })
        .getByRole('button', { name: 'Yes, replace' })
        .click();
      const field = replace.getByLabel('New card ID');
      const error = replace.getByText('That card ID is already in use. Use a new, unregistered card.');
      await error.waitFor();
      expect(await field.getAttribute('aria-invalid')).toBe('true');
      expect(await field.getAttribute('aria-describedby')).toBe(await error.getAttribute('id'));

      // Cancel in the block confirmation changes nothing.
      const block = panel.getByRole('form', { name: 'Block a lost or stolen card' });
      await block.getByLabel('Reason').fill('Stolen');
      await block.getByRole('button', { name: 'Block card' }).click();
      await page.getByRole('dialog').getByRole('button', { name: 'Cancel' }).click();
      await page.getByRole('dialog').waitFor({ state: 'detached' });
      const cards = await seed.get<CardRow[]>(`/cards/${machine.espId}`, attendantToken);
      expect(cards.find((c) => c.card_id === fresh)).toMatchObject({ status: 'active', dailyLimitLitres: 20 });
      expect(pageErrors).toEqual([]);
    },
    TEST_TIMEOUT * 3,
  );
});
