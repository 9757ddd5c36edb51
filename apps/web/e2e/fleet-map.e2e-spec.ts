import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { createServer, type Server } from 'node:http';
import pg from 'pg';
import type { Browser, Page } from 'playwright-core';
import { startServer, type RunningServer } from '../../api/test/support/server-process.js';
import {
  launchBrowser,
  openTab,
  PHONE,
  SETUP_TIMEOUT,
  signIn,
  TEST_TIMEOUT,
  waitForPath,
  type Tab,
} from './support/browser.js';
import { recordConnected } from './support/record-connected.js';
import { MqttMachine } from './support/mqtt-machine.js';
import { Seeder, type Account, type Machine } from './support/seed.js';
import { closeSuite, openSuite } from './support/suite.js';

/** The dashboard, then the map's own code (loaded apart) and its markers: longer than one step on a busy machine. */
const FIRST_DRAW = 20_000;

/** The marker colours (base.css --color-success, --color-muted, --color-error). */
const COLOURS = { online: 'rgb(21, 128, 61)', offline: 'rgb(91, 107, 123)', alarm: 'rgb(185, 28, 28)' } as const;

interface SeededMachine {
  espId: string;
  location: string;
  online: boolean;
  alarm: boolean;
  at: [number, number] | null;
}

const marker = (page: Page, espId: string) => page.locator(`.fleet-map-marker[data-esp-id="${espId}"]`);
const fillOf = (page: Page, espId: string) =>
  marker(page, espId)
    .locator('.fleet-map-shape')
    .evaluate((el) => getComputedStyle(el).fill);
const popup = (page: Page) => page.locator('.leaflet-popup .fleet-map-popup');

/** Every request the page makes, to check where it goes. */
function recordRequests(page: Page): string[] {
  const urls: string[] = [];
  page.on('request', (request) => urls.push(request.url()));
  return urls;
}

/** The admin sets a machine's position through the API, as the device settings page does. */
async function putCoordinates(baseUrl: string, token: string, espId: string, latitude: number, longitude: number) {
  const res = await fetch(`${baseUrl}/api/machines/${espId}/coordinates`, {
    method: 'PUT',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
    body: JSON.stringify({ latitude, longitude }),
  });
  expect(res.status).toBe(200);
}

describe('fleet map: markers by status, popup, live colour, offline basemap', () => {
  let server: RunningServer;
  let browser: Browser;
  let seed: Seeder;
  let adminToken: string;
  let manager: Account;
  let live: Machine;
  const tabs: Tab[] = [];
  const mqtt: MqttMachine[] = [];
  const prefix = `MAP${Date.now().toString(36).toUpperCase()}`;
  let machines: SeededMachine[];

  beforeAll(async () => {
    const suite = await openSuite();
    ({ server, browser, seed, adminToken } = suite);
    live = await seed.createDevice(adminToken, `${prefix}-LIVE`);
    manager = await seed.createManager(adminToken, live.espId, 'Kinondoni');
    await putCoordinates(server.baseUrl, adminToken, live.espId, -6.777, 39.25);
    machines = [
      { espId: `${prefix}-ON`, location: 'Kariakoo', online: true, alarm: false, at: [-6.8185, 39.2755] },
      { espId: `${prefix}-OFF`, location: 'Ubungo', online: false, alarm: false, at: [-6.788, 39.207] },
      { espId: `${prefix}-ALARM`, location: 'Mwenge', online: true, alarm: true, at: [-6.7685, 39.2295] },
      { espId: `${prefix}-NOPOS1`, location: 'Temeke', online: true, alarm: false, at: null },
      { espId: `${prefix}-NOPOS2`, location: 'Tegeta', online: false, alarm: false, at: null },
    ];
    const db = new pg.Client({ connectionString: server.databaseUrl });
    await db.connect();
    try {
      await db.query(
        `INSERT INTO devices (esp_id, owner_id, location, online, last_seen_at, latitude, longitude)
         SELECT * FROM unnest($1::text[], $2::uuid[], $3::text[], $4::boolean[], $5::timestamptz[], $6::numeric[], $7::numeric[])`,
        [
          machines.map((m) => m.espId),
          machines.map(() => manager.userId),
          machines.map((m) => m.location),
          machines.map((m) => m.online),
          machines.map(() => new Date().toISOString()),
          machines.map((m) => m.at?.[0] ?? null),
          machines.map((m) => m.at?.[1] ?? null),
        ],
      );
      await recordConnected(
        db,
        server.redisPrefix,
        machines.filter((m) => m.online).map((m) => m.espId),
      );
      const alarmed = machines.filter((m) => m.alarm).map((m) => m.espId);
      await db.query(
        `INSERT INTO alarms (esp_id, kind, severity) SELECT id, 'device_error', 'critical' FROM unnest($1::text[]) AS t(id)`,
        [alarmed],
      );
    } finally {
      await db.end();
    }
  }, SETUP_TIMEOUT);

  afterAll(async () => {
    await Promise.all(mqtt.map((m) => m.close().catch(() => undefined)));
    await closeSuite({ server, browser, tabs });
  }, SETUP_TIMEOUT);

  const open = async (viewport?: { width: number; height: number }) => {
    const opened = await openTab(browser, server.baseUrl, viewport);
    tabs.push(opened);
    return opened;
  };

  it(
    'the admin sees a marker per positioned machine in its status colour and shape, a legend and the count of the rest',
    async () => {
      const { page, pageErrors } = await open();
      const requests = recordRequests(page);
      await signIn(page, server.admin.email, server.admin.password, '/maindashboard');
      const map = page.getByRole('region', { name: 'Map', exact: true });
      await marker(page, `${prefix}-ALARM`).waitFor({ timeout: FIRST_DRAW });
      expect(await page.locator('.fleet-map-marker').count()).toBe(4);
      for (const [espId, status] of [
        [`${prefix}-ON`, 'online'],
        [`${prefix}-OFF`, 'offline'],
        [`${prefix}-ALARM`, 'alarm'],
        [live.espId, 'offline'],
      ] as const) {
        expect(await marker(page, espId).getAttribute('data-status')).toBe(status);
        expect(await fillOf(page, espId)).toBe(COLOURS[status]);
      }
      // Shape and words beside the colour.
      expect(await marker(page, `${prefix}-ON`).locator('circle').count()).toBe(1);
      expect(await marker(page, `${prefix}-OFF`).locator('rect').count()).toBe(1);
      expect(await marker(page, `${prefix}-ALARM`).locator('text').textContent()).toBe('!');
      expect(await marker(page, `${prefix}-ALARM`).getAttribute('aria-label')).toBe(
        `${prefix}-ALARM, Online · 1 active alarm`,
      );
      const legend = map.getByRole('list', { name: 'What the markers mean' });
      expect(await legend.getByRole('listitem').locator('.fleet-map-legend-shape svg').count()).toBe(3);
      expect(await legend.getByRole('listitem').locator(':scope > span:last-child').allInnerTexts()).toEqual([
        'Online (green circle)',
        'Offline (grey square)',
        'Active alarm (red triangle with !)',
      ]);
      await map
        .getByText('2 machines have no position yet: set it on each machine’s device settings page.', { exact: true })
        .waitFor();

      // The basemap comes from the app itself: land, lakes, coast and city names, and no request leaves it.
      await page.locator('.leaflet-basemap-pane path').first().waitFor({ state: 'attached' });
      await map.getByText('Natural Earth (public domain)').waitFor();
      expect(requests.some((url) => url === `${server.baseUrl}/basemap/east-africa.geojson`)).toBe(true);
      const elsewhere = requests.filter((url) => !url.startsWith(`${server.baseUrl}/`) && !url.startsWith('data:'));
      expect(elsewhere).toEqual([]);
      expect(await page.locator('.leaflet-tile').count()).toBe(0);
      expect(pageErrors).toEqual([]);
    },
    TEST_TIMEOUT,
  );

  it(
    "a marker opens by click or by keyboard with the machine's ID, location, status and a link to its view",
    async () => {
      const { page, pageErrors } = await open();
      await signIn(page, server.admin.email, server.admin.password, '/maindashboard');
      await marker(page, `${prefix}-ON`).waitFor({ timeout: FIRST_DRAW });

      await marker(page, `${prefix}-ON`).focus();
      await page.keyboard.press('Enter');
      await popup(page)
        .and(page.locator(`[data-esp-id="${prefix}-ON"]`))
        .waitFor();
      expect(await popup(page).innerText()).toContain('Kariakoo');
      const link = popup(page).getByRole('link', { name: `Open ${prefix}-ON` });
      expect(await link.getAttribute('href')).toBe(`/machine/${prefix}-ON`);
      expect(await link.evaluate((el) => el === document.activeElement)).toBe(true);

      await marker(page, `${prefix}-ALARM`).click();
      await popup(page)
        .and(page.locator(`[data-esp-id="${prefix}-ALARM"]`))
        .waitFor();
      const text = await popup(page).innerText();
      expect(text).toContain(`${prefix}-ALARM`);
      expect(text).toContain('Mwenge');
      expect(text).toContain('Online · 1 active alarm');
      await popup(page)
        .getByRole('link', { name: `Open ${prefix}-ALARM` })
        .click();
      await waitForPath(page, `/machine/${prefix}-ALARM`);
      await page.getByRole('heading', { level: 1, name: `${prefix}-ALARM`, exact: true }).waitFor();
      expect(pageErrors).toEqual([]);
    },
    TEST_TIMEOUT,
  );

  it(
    "a machine's live change of status recolours its marker without a reload",
    async () => {
      const { page, pageErrors } = await open();
      await signIn(page, manager.email, manager.password, '/manager/dashboard');
      await marker(page, live.espId).waitFor({ timeout: FIRST_DRAW });
      expect(await marker(page, live.espId).getAttribute('data-status')).toBe('offline');
      await page.evaluate(() => ((window as unknown as { noReload: boolean }).noReload = true));

      const device = await MqttMachine.connect(server.mqttPort, live);
      mqtt.push(device);
      await device.publishStatus(true);
      await page.locator(`.fleet-map-marker[data-esp-id="${live.espId}"][data-status="online"]`).waitFor({
        timeout: 15_000,
      });
      expect(await fillOf(page, live.espId)).toBe(COLOURS.online);
      expect(await page.evaluate(() => (window as unknown as { noReload?: boolean }).noReload)).toBe(true);
      expect(pageErrors).toEqual([]);
    },
    TEST_TIMEOUT,
  );

  it(
    'on a phone the map fits the screen, shows the markers and opens a popup by touch',
    async () => {
      const { page, pageErrors } = await open(PHONE);
      await signIn(page, manager.email, manager.password, '/manager/dashboard');
      await marker(page, `${prefix}-OFF`).waitFor({ timeout: FIRST_DRAW });
      expect(await page.locator('.fleet-map-marker').count()).toBe(4);
      const box = await page.locator('.fleet-map').boundingBox();
      expect(box!.x).toBeGreaterThanOrEqual(0);
      expect(box!.x + box!.width).toBeLessThanOrEqual(PHONE.width);
      const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
      expect(overflow).toBeLessThanOrEqual(0);
      await marker(page, `${prefix}-OFF`).scrollIntoViewIfNeeded();
      await marker(page, `${prefix}-OFF`).click();
      await popup(page).getByText('Offline').waitFor();
      expect(await popup(page).getByRole('link').getAttribute('href')).toBe(`/machine/${prefix}-OFF`);
      expect(pageErrors).toEqual([]);
    },
    TEST_TIMEOUT,
  );
});

/** A 1×1 PNG, the tile the local tile server answers with. */
const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==',
  'base64',
);

describe('fleet map with MAP_TILE_URL: tiles from the configured server', () => {
  let tiles: Server;
  let server: RunningServer;
  let browser: Browser;
  const tileRequests: string[] = [];
  const tabs: Tab[] = [];

  beforeAll(async () => {
    tiles = createServer((req, res) => {
      tileRequests.push(req.url ?? '');
      res.writeHead(200, { 'content-type': 'image/png', 'cache-control': 'no-store' }).end(PNG);
    });
    await new Promise<void>((resolve) => tiles.listen(0, '127.0.0.1', resolve));
    const tilePort = (tiles.address() as { port: number }).port;
    [server, browser] = await Promise.all([
      startServer({
        env: {
          MAP_TILE_URL: `http://127.0.0.1:${tilePort}/tiles/{z}/{x}/{y}.png`,
          MAP_TILE_ATTRIBUTION: 'Test tiles <b>',
        },
      }),
      launchBrowser(),
    ]);
    const seed = new Seeder(server.baseUrl);
    const adminToken = await seed.login(server.admin.email, server.admin.password);
    const machine = await seed.createDevice(adminToken);
    await putCoordinates(server.baseUrl, adminToken, machine.espId, -6.8185, 39.2755);
  }, SETUP_TIMEOUT);

  afterAll(async () => {
    await closeSuite({ server, browser, tabs });
    await new Promise((resolve) => tiles?.close(resolve));
  }, SETUP_TIMEOUT);

  it(
    'loads tiles from the tile server, shows its credit as text, and keeps the basemap beneath',
    async () => {
      const tab = await openTab(browser, server.baseUrl);
      tabs.push(tab);
      const { page, pageErrors } = tab;
      const blocked: string[] = [];
      page.on('console', (message) => {
        if (/Content Security Policy/i.test(message.text())) blocked.push(message.text());
      });
      await signIn(page, server.admin.email, server.admin.password, '/maindashboard');
      await page.locator('.fleet-map-marker').first().waitFor();
      // Loaded, so the content security policy let the tile server's images in.
      await page.locator('.leaflet-tile-loaded').first().waitFor();
      expect(tileRequests.length).toBeGreaterThan(0);
      expect(tileRequests.every((url) => /^\/tiles\/\d+\/\d+\/\d+\.png$/.test(url))).toBe(true);
      // The operator's credit as written, not as markup.
      expect(await page.locator('.leaflet-control-attribution').innerText()).toContain('Test tiles <b>');
      await page.locator('.leaflet-basemap-pane path').first().waitFor({ state: 'attached' });
      expect(blocked).toEqual([]);
      expect(pageErrors).toEqual([]);
    },
    TEST_TIMEOUT,
  );
});
