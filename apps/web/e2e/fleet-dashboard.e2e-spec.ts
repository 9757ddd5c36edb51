import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import pg from 'pg';
import type { Browser, Page } from 'playwright-core';
import type { RunningServer } from '../../api/test/support/server-process.js';
import { openTab, PHONE, SETUP_TIMEOUT, signIn, TEST_TIMEOUT, waitForPath, type Tab } from './support/browser.js';
import { recordConnected } from './support/record-connected.js';
import { daysBefore } from './support/sales.js';
import { eventually, Seeder, type Account } from './support/seed.js';
import { closeSuite, openSuite } from './support/suite.js';

/** Machines written straight into PostgreSQL: a few hundred, as the dashboard must handle a fleet. */
const FLEET_A = 240;
const FLEET_B = 60;
const LOCATIONS = ['Kariakoo', 'Mwenge', 'Ubungo', 'Kinondoni', 'Posta'];

interface SeededMachine {
  espId: string;
  owner: 'A' | 'B';
  location: string;
  online: boolean;
  revenue: number;
  alarm: 'critical' | 'minor' | null;
}

/** Deterministic machines: revenue differs for every machine, so that a sort has one answer. */
function fleet(prefix: string): SeededMachine[] {
  return Array.from({ length: FLEET_A + FLEET_B }, (_, i) => ({
    espId: `${prefix}-${String(i).padStart(3, '0')}`,
    owner: i < FLEET_A ? 'A' : 'B',
    location: `${LOCATIONS[i % LOCATIONS.length]} ${i}`,
    online: i % 3 === 0,
    revenue: 1000 + ((i * 37) % 300) * 10 + i / 100,
    alarm: i % 40 === 7 ? 'critical' : i % 25 === 3 ? 'minor' : null,
  }));
}

describe('fleet dashboard: headline, machine table, needs attention, machine view', () => {
  let server: RunningServer;
  let browser: Browser;
  let seed: Seeder;
  let managerA: Account;
  let managerB: Account;
  let machines: SeededMachine[];
  const tabs: Tab[] = [];
  const prefix = `FLEET${Date.now().toString(36).toUpperCase()}`;

  beforeAll(async () => {
    const suite = await openSuite();
    ({ server, browser, seed } = suite);
    const { adminToken } = suite;
    const a0 = await seed.createDevice(adminToken, `${prefix}-A-API`);
    const b0 = await seed.createDevice(adminToken, `${prefix}-B-API`);
    managerA = await seed.createManager(adminToken, a0.espId, 'Ferry Terminal');
    managerB = await seed.createManager(adminToken, b0.espId, 'Mbezi');
    machines = fleet(prefix);
    const db = new pg.Client({ connectionString: server.databaseUrl });
    await db.connect();
    try {
      const owner = (m: SeededMachine) => (m.owner === 'A' ? managerA.userId : managerB.userId);
      await db.query(
        `INSERT INTO devices (esp_id, owner_id, location, online, last_seen_at)
         SELECT * FROM unnest($1::text[], $2::uuid[], $3::text[], $4::boolean[], $5::timestamptz[])`,
        [
          machines.map((m) => m.espId),
          machines.map(owner),
          machines.map((m) => m.location),
          machines.map((m) => m.online),
          machines.map(() => new Date().toISOString()),
        ],
      );
      await db.query(
        `INSERT INTO sales_daily (esp_id, day, kind, price_total, volume_total, sales_count)
         SELECT esp_id, $2::date, 'coin', price, price / 50, 3 FROM unnest($1::text[], $3::numeric[]) AS t(esp_id, price)`,
        [machines.map((m) => m.espId), daysBefore(0), machines.map((m) => m.revenue.toFixed(2))],
      );
      await recordConnected(
        db,
        server.redisPrefix,
        machines.filter((m) => m.online).map((m) => m.espId),
      );
      const alarmed = machines.filter((m) => m.alarm);
      await db.query(
        `INSERT INTO alarms (esp_id, kind, severity) SELECT * FROM unnest($1::text[], $2::text[], $3::text[])`,
        [
          alarmed.map((m) => m.espId),
          alarmed.map((m) => (m.alarm === 'critical' ? 'device_error' : 'coin_box_full')),
          alarmed.map((m) => m.alarm!),
        ],
      );
    } finally {
      await db.end();
    }
  }, SETUP_TIMEOUT);

  afterAll(() => closeSuite({ server, browser, tabs }), SETUP_TIMEOUT);

  const open = async (viewport?: { width: number; height: number }) => {
    const opened = await openTab(browser, server.baseUrl, viewport);
    tabs.push(opened);
    return opened;
  };
  const table = (page: Page) => page.getByRole('table', { name: 'Machines' });
  const rows = (page: Page) => table(page).locator('[role="row"][data-esp-id]');
  const firstRowId = (page: Page) => rows(page).first().getAttribute('data-esp-id');
  const count = (page: Page, shown: number, total: number) =>
    page.getByText(`${shown} of ${total} machines`, { exact: true }).waitFor();

  it(
    'the admin sees the whole fleet in a virtualised table, sorts by any column, searches and filters',
    async () => {
      const { page, pageErrors } = await open();
      await signIn(page, server.admin.email, server.admin.password, '/maindashboard');
      const total = machines.length + 2;
      await count(page, total, total);
      // Only the rows in view are in the page.
      expect(await rows(page).count()).toBeLessThan(60);

      // Revenue, largest first, by default.
      const byRevenue = [...machines].sort((x, y) => y.revenue - x.revenue);
      expect(await firstRowId(page)).toBe(byRevenue[0]!.espId);
      await page.getByRole('columnheader', { name: 'Revenue' }).getByRole('button').click();
      // Ascending: the two machines that sold nothing, by ESP ID.
      await rows(page)
        .first()
        .and(page.locator(`[data-esp-id="${prefix}-A-API"]`))
        .waitFor();
      await page.getByRole('columnheader', { name: 'Machine' }).getByRole('button').click();
      await rows(page)
        .first()
        .and(page.locator(`[data-esp-id="${prefix}-000"]`))
        .waitFor();
      await page.getByRole('columnheader', { name: 'Machine' }).getByRole('button').click();
      await rows(page)
        .first()
        .and(page.locator(`[data-esp-id="${prefix}-B-API"]`))
        .waitFor();

      // Scrolling reaches the far end of the list.
      await page.locator('.fleet-table-scroll').evaluate((el) => (el.scrollTop = el.scrollHeight));
      await table(page).locator(`[data-esp-id="${prefix}-000"]`).waitFor();

      // Search by ID and by location.
      const search = page.getByLabel('Search machines');
      await search.fill(`${prefix}-123`);
      await count(page, 1, total);
      await search.fill('kariakoo 12');
      const kariakoo12 = machines.filter((m) => m.location.toLowerCase().includes('kariakoo 12')).length;
      await count(page, kariakoo12, total);
      await search.fill('');

      // Filters: offline, with active alarms, one owner.
      await page.getByLabel('Connection').selectOption('offline');
      await count(page, machines.filter((m) => !m.online).length + 2, total);
      await page.getByLabel('Alarms', { exact: true }).selectOption('active');
      await count(page, machines.filter((m) => !m.online && m.alarm).length, total);
      await page.getByLabel('Connection').selectOption('all');
      await page.getByLabel('Alarms', { exact: true }).selectOption('all');
      await page.getByLabel('Owner').selectOption({ label: `${managerB.firstName} ${managerB.lastName}` });
      await count(page, FLEET_B + 1, total);
      expect(pageErrors).toEqual([]);
    },
    TEST_TIMEOUT * 2,
  );

  it(
    'the headline sums the day, and the needs-attention panel lists the alarmed machines, critical first',
    async () => {
      const { page } = await open();
      await signIn(page, managerA.email, managerA.password, '/manager/dashboard');
      const mine = machines.filter((m) => m.owner === 'A');
      const revenue = mine.reduce((s, m) => s + Math.round(m.revenue * 100), 0) / 100;
      const figure = page.getByRole('article', { name: 'Revenue today' });
      // Whole shillings unless the sum really has cents (docs/web-app.md, "Screens").
      const cents = Number.isInteger(revenue) ? 0 : 2;
      const money = revenue.toLocaleString('en-US', { minimumFractionDigits: cents, maximumFractionDigits: cents });
      await figure.getByText(`TZS ${money}`).waitFor();
      await page
        .getByRole('article', { name: 'Sales today' })
        .getByText(String(mine.length * 3))
        .waitFor();

      const panel = page.getByRole('region', { name: 'Needs attention' });
      const items = panel.locator('[data-esp-id]');
      const alarmed = mine.filter((m) => m.alarm);
      await panel.locator(`[data-esp-id="${alarmed[0]!.espId}"]`).waitFor();
      expect(await items.count()).toBe(alarmed.length);
      const critical = alarmed.filter((m) => m.alarm === 'critical').map((m) => m.espId);
      const listed = await items.evaluateAll((els) => els.map((el) => el.getAttribute('data-esp-id')));
      expect(listed.slice(0, critical.length).sort()).toEqual([...critical].sort());
      // Another manager's machines are never listed.
      expect(listed.every((id) => id!.startsWith(`${prefix}-`) && mine.some((m) => m.espId === id))).toBe(true);
      await count(page, mine.length + 1, mine.length + 1);
      expect(await page.getByLabel('Owner').count()).toBe(0);
    },
    TEST_TIMEOUT,
  );

  it(
    "a row leads to the machine's own view with its summary card and links to its pages",
    async () => {
      const { page } = await open();
      await signIn(page, managerA.email, managerA.password, '/manager/dashboard');
      const target = `${prefix}-042`;
      await page.getByLabel('Search machines').fill(target);
      await count(page, 1, FLEET_A + 1);
      await rows(page).first().getByRole('cell').nth(2).click();
      await waitForPath(page, `/machine/${target}`);
      await page.getByRole('heading', { level: 1, name: target, exact: true }).waitFor();
      const card = page.getByRole('article', { name: target, exact: true });
      await card.getByRole('link', { name: /Coin-based sales/ }).waitFor();
      await page.getByLabel('Date', { exact: true }).waitFor();
      await page.getByRole('link', { name: 'Health' }).click();
      await waitForPath(page, `/machine/${target}/health`);
    },
    TEST_TIMEOUT,
  );

  it(
    'on a phone the table is a list of cards that fits the screen and still searches and opens a machine',
    async () => {
      const { page, pageErrors } = await open(PHONE);
      await signIn(page, managerA.email, managerA.password, '/manager/dashboard');
      await count(page, FLEET_A + 1, FLEET_A + 1);
      expect(await page.getByRole('columnheader', { name: 'Revenue' }).isVisible()).toBe(false);
      await page.getByLabel('Sort by').selectOption({ label: 'Machine ↑' });
      await rows(page)
        .first()
        .and(page.locator(`[data-esp-id="${prefix}-000"]`))
        .waitFor();
      const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
      expect(overflow).toBeLessThanOrEqual(0);
      await page.getByLabel('Search machines').fill(`${prefix}-007`);
      await count(page, 1, FLEET_A + 1);
      await rows(page)
        .first()
        .getByRole('link', { name: `${prefix}-007` })
        .click();
      await waitForPath(page, `/machine/${prefix}-007`);
      expect(pageErrors).toEqual([]);
    },
    TEST_TIMEOUT,
  );
  it(
    "the device settings page sets a machine's location, refuses one out of range, and clears it",
    async () => {
      const { page, pageErrors } = await open();
      await signIn(page, managerA.email, managerA.password, '/manager/dashboard');
      const target = `${prefix}-010`;
      await page.goto(`/device/${target}`);
      const panel = page.getByRole('region', { name: 'Location on the map' });
      await panel.getByLabel('Latitude').fill('95');
      await panel.getByLabel('Longitude').fill('39.2804');
      await panel.getByRole('button', { name: 'Save location' }).click();
      await panel.getByText('The latitude is a number from -90 to 90.').waitFor();
      await panel.getByLabel('Latitude').fill('-6.8161');
      await panel.getByRole('button', { name: 'Save location' }).click();
      await panel.getByText('Location saved.').waitFor();
      const token = await seed.login(managerA.email, managerA.password);
      expect(await seed.get(`/machines/${target}/coordinates`, token)).toEqual({
        espId: target,
        latitude: -6.8161,
        longitude: 39.2804,
      });
      await page.reload();
      // The fields start from the stored location once it has loaded.
      await eventually(
        () => panel.getByLabel('Latitude').inputValue(),
        (value) => value === '-6.8161',
      );
      expect(await panel.getByLabel('Longitude').inputValue()).toBe('39.2804');
      await panel.getByRole('button', { name: 'Clear' }).click();
      await panel.getByText('Location cleared.').waitFor();
      expect(await seed.get(`/machines/${target}/coordinates`, token)).toEqual({
        espId: target,
        latitude: null,
        longitude: null,
      });
      expect(pageErrors).toEqual([]);
    },
    TEST_TIMEOUT,
  );
});
