import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import type { Browser, Page } from 'playwright-core';
import type { RunningServer } from '../../api/test/support/server-process.js';
import {
  openTab,
  PHONE,
  RED,
  SETUP_TIMEOUT,
  signIn,
  TEST_TIMEOUT,
  colorOf,
  waitForPath,
  type Tab,
} from './support/browser.js';
import { axeViolations } from './support/axe.js';
import { closeSuite, openSuite } from './support/suite.js';
import { MqttMachine } from './support/mqtt-machine.js';
import { coinSale, daysBefore, timesToday } from './support/sales.js';
import { Seeder, type Account, type Machine } from './support/seed.js';

/** The charts are drawn when the reader gets near them (docs/web-app.md, "Fleet dashboard"): scroll there. */
const toCharts = (page: Page) => page.getByRole('region', { name: 'Charts', exact: true }).scrollIntoViewIfNeeded();

describe("dashboards: live charts, and each machine's daily and monthly summaries in its own view", () => {
  let server: RunningServer;
  let browser: Browser;
  let seed: Seeder;
  let manager: Account;
  let machine: Machine;
  let otherMachine: Machine;
  const tabs: Tab[] = [];
  const mqtt: MqttMachine[] = [];

  beforeAll(async () => {
    const suite = await openSuite();
    ({ server, browser, seed } = suite);
    const { adminToken } = suite;
    machine = await seed.createDevice(adminToken);
    otherMachine = await seed.createDevice(adminToken);
    manager = await seed.createManager(adminToken, machine.espId, 'Ferry Terminal');
    // Another company's machine: the admin sees it, the manager never does.
    await seed.createManager(adminToken, otherMachine.espId);
  }, SETUP_TIMEOUT);

  afterAll(async () => {
    await Promise.all(mqtt.map((m) => m.close()));
    await closeSuite({ server, browser, tabs });
  }, SETUP_TIMEOUT);

  const open = async (viewport?: { width: number; height: number }) => {
    const opened = await openTab(browser, server.baseUrl, viewport);
    tabs.push(opened);
    return opened;
  };

  /** The machine on MQTT, connected once for the file: a second connect with its client id would take over the first. */
  const connected = async (m: Machine) => {
    const known = mqtt.find((device) => device.espId === m.espId);
    if (known) return known;
    const device = await MqttMachine.connect(server.mqttPort, m);
    mqtt.push(device);
    return device;
  };
  const machineCard = (page: Page, espId: string) => page.getByRole('article', { name: espId, exact: true });
  /** A machine's own view (docs/web-app.md, "Fleet dashboard"), reached from its row of the dashboard's table. */
  const openMachine = async (page: Page, espId: string) => {
    await page.getByRole('table', { name: 'Machines' }).getByRole('link', { name: espId, exact: true }).click();
    await waitForPath(page, `/machine/${espId}`);
  };

  it(
    'an open dashboard and machine view show a sale published over MQTT without a reload: the summary and the charts move',
    async () => {
      const { page, pageErrors } = await open();
      await signIn(page, manager.email, manager.password, '/manager/dashboard');
      const view = await open();
      await signIn(view.page, manager.email, manager.password, '/manager/dashboard');
      await openMachine(view.page, machine.espId);
      const card = machineCard(view.page, machine.espId);
      await card.waitFor();
      // Nothing sold yet today: no daily block, the month at zero.
      await card.getByText('No sales on this day.').waitFor();
      const coin = card.getByRole('link', { name: /Coin-based sales/ });
      expect(await coin.innerText()).not.toContain('Daily');
      expect(await coin.innerText()).toContain('TZS 0');
      await toCharts(page);
      const split = page.getByRole('figure', { name: 'Coin against card' });
      await split.getByText('Coin TZS 0 · Card TZS 0').waitFor();
      await page.locator('.live-indicator[data-status="live"]').waitFor();
      await view.page.locator('.live-indicator[data-status="live"]').waitFor();
      await page.evaluate(() => ((window as any).__noReload = true));
      await view.page.evaluate(() => ((window as any).__noReload = true));

      const device = await connected(machine);
      await device.publishSale(coinSale(1500, 3, 'pure'));

      await coin.getByText('Daily').waitFor({ timeout: 15_000 });
      await coin.getByText('TZS 1,500').first().waitFor();
      await split.getByText('Coin TZS 1,500 · Card TZS 0').waitFor({ timeout: 15_000 });
      await page
        .getByRole('figure', { name: 'Sales by hour' })
        .getByText('TZS 1,500 in 1 sale', { exact: true })
        .waitFor();
      await page
        .getByRole('figure', { name: 'Litres by water type' })
        .getByText(/Pure 3 L/)
        .waitFor();
      expect(await card.getByText('No sales on this day.').count()).toBe(0);
      expect(await page.evaluate(() => (window as any).__noReload)).toBe(true);
      expect(await view.page.evaluate(() => (window as any).__noReload)).toBe(true);
      expect(pageErrors).toEqual([]);
      expect(view.pageErrors).toEqual([]);
    },
    TEST_TIMEOUT,
  );

  it(
    "the manager sees only their machines; the admin sees every machine; the summaries open the machine's transactions",
    async () => {
      const { page } = await open();
      await signIn(page, manager.email, manager.password, '/manager/dashboard');
      const rows = page.getByRole('table', { name: 'Machines' });
      await rows.locator(`[data-esp-id="${machine.espId}"]`).waitFor();
      expect(await rows.locator(`[data-esp-id="${otherMachine.espId}"]`).count()).toBe(0);
      await openMachine(page, machine.espId);
      await machineCard(page, machine.espId).waitFor();
      await machineCard(page, machine.espId).getByText('Ferry Terminal').waitFor();

      await machineCard(page, machine.espId)
        .getByRole('link', { name: /Coin-based sales/ })
        .click();
      await waitForPath(page, `/machine/${machine.espId}/coin`);
      await page.getByRole('heading', { name: 'Coin-Based Transactions' }).waitFor();
      await page.goBack();
      await machineCard(page, machine.espId)
        .getByRole('link', { name: /Card-based sales/ })
        .click();
      await waitForPath(page, `/machine/${machine.espId}/card`);
      await page.getByRole('heading', { name: 'Card-Based Transactions' }).waitFor();

      const admin = await open();
      await signIn(admin.page, server.admin.email, server.admin.password, '/maindashboard');
      const adminRows = admin.page.getByRole('table', { name: 'Machines' });
      await adminRows.locator(`[data-esp-id="${machine.espId}"]`).waitFor();
      await openMachine(admin.page, otherMachine.espId);
      await machineCard(admin.page, otherMachine.espId).waitFor();
      // The admin may open a machine's transactions too.
      await machineCard(admin.page, otherMachine.espId)
        .getByRole('link', { name: /Card-based sales/ })
        .click();
      await waitForPath(admin.page, `/machine/${otherMachine.espId}/card`);
      await admin.page.getByRole('heading', { name: 'Card-Based Transactions' }).waitFor();
    },
    TEST_TIMEOUT,
  );

  it(
    'the date picker starts at today and another date shows that day: no daily block without sales',
    async () => {
      // Its own sale today: the test holds alone.
      const device = await connected(machine);
      const today = daysBefore(0);
      await device.publishSale(coinSale(500, 1, 'pure', timesToday(1)[0]));
      const { page } = await open();
      await signIn(page, server.admin.email, server.admin.password, '/maindashboard');
      expect(await page.getByLabel('Date', { exact: true }).inputValue()).toBe(today);
      await openMachine(page, machine.espId);
      const date = page.getByLabel('Date', { exact: true });
      expect(await date.inputValue()).toBe(today);
      const card = machineCard(page, machine.espId);
      await card
        .getByRole('link', { name: /Coin-based sales/ })
        .getByText('Daily')
        .waitFor({ timeout: 15_000 });

      // A day a year ago, in another month: nothing that day or that month.
      await date.fill(daysBefore(400));
      await page.getByRole('heading', { name: 'Today' }).waitFor({ state: 'detached' });
      await card.getByText('No sales on this day.').waitFor();
      const coin = card.getByRole('link', { name: /Coin-based sales/ });
      expect(await coin.innerText()).not.toContain('Daily');
      expect(await coin.innerText()).toContain('TZS 0');
    },
    TEST_TIMEOUT,
  );

  it(
    "shows 'Loading...' while loading, 'Error: Machine data is not available.' in red, 'No machines available for the selected date.'",
    async () => {
      const { page } = await open();
      await signIn(page, server.admin.email, server.admin.password, '/maindashboard');
      await openMachine(page, machine.espId);
      await machineCard(page, machine.espId).waitFor();

      // The summary call fails: the error text.
      await page.route('**/api/user/machines/daily-summary*', (route) =>
        route.fulfill({
          status: 500,
          contentType: 'application/json',
          body: '{"statusCode":500,"code":"X","message":"boom"}',
        }),
      );
      await page.getByLabel('Date', { exact: true }).fill(daysBefore(1));
      const error = page.getByText('Error: Machine data is not available.', { exact: true });
      await error.waitFor({ timeout: 15_000 });
      expect(await colorOf(error)).toBe(RED);

      // No machine in the answer: the empty text. A held answer shows 'Loading...' meanwhile.
      await page.unroute('**/api/user/machines/daily-summary*');
      let release: () => void = () => undefined;
      const held = new Promise<void>((resolve) => (release = resolve));
      await page.route('**/api/user/machines/*-summary*', async (route) => {
        await held;
        const monthly = route.request().url().includes('monthly');
        await route.fulfill({
          status: 200,
          contentType: 'application/json',
          body: JSON.stringify(monthly ? { monthlyData: [] } : { dailyData: [] }),
        });
      });
      await page.getByLabel('Date', { exact: true }).fill(daysBefore(2));
      await page.getByRole('region', { name: 'Machines' }).getByText('Loading...').waitFor();
      release();
      await page.getByText('No machines available for the selected date.', { exact: true }).waitFor();
    },
    TEST_TIMEOUT,
  );

  it(
    'on a phone the dashboard and the machine view fit the screen: one column, no sideways scrolling',
    async () => {
      const { page, pageErrors } = await open(PHONE);
      await signIn(page, manager.email, manager.password, '/manager/dashboard');
      await toCharts(page);
      await page.getByRole('figure', { name: 'Machines online' }).waitFor();
      await page.waitForLoadState('networkidle');
      expect(await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth)).toBe(0);
      await openMachine(page, machine.espId);
      await machineCard(page, machine.espId).waitFor();
      await page.waitForLoadState('networkidle');
      expect(await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth)).toBe(0);
      expect(pageErrors).toEqual([]);
    },
    TEST_TIMEOUT,
  );

  it(
    'the dashboard passes axe: no focusable element inside aria-hidden, no serious or critical violation; the charts are named and their axes labelled',
    async () => {
      const { page, pageErrors } = await open();
      await signIn(page, manager.email, manager.password, '/manager/dashboard');
      await toCharts(page);
      await page.locator('.chart-card .recharts-surface').first().waitFor();
      expect(await page.locator('.chart-card').count()).toBe(4);

      // The charts' drawings are hidden from assistive technology, so none of their parts may take the focus.
      expect(
        await axeViolations(page, {
          rules: ['aria-hidden-focus'],
          impacts: ['minor', 'moderate', 'serious', 'critical'],
        }),
      ).toEqual([]);
      const tabbableHidden = await page.evaluate(
        () =>
          [...document.querySelectorAll('[aria-hidden="true"] *')].filter(
            (el) =>
              el.matches('a[href], button, input, select, textarea, [tabindex]') &&
              (el as HTMLElement | SVGElement).tabIndex >= 0,
          ).length,
      );
      expect(tabbableHidden).toBe(0);
      expect(await axeViolations(page)).toEqual([]);

      // Each chart is a figure named by its caption, its figures in words beside it.
      for (const name of ['Sales by hour', 'Coin against card', 'Litres by water type', 'Machines online']) {
        await page.getByRole('figure', { name }).waitFor();
      }
      // Axis titles with their units.
      const hourly = page.getByRole('figure', { name: 'Sales by hour' });
      expect(await hourly.locator('svg text', { hasText: 'Sales (TZS)' }).isVisible()).toBe(true);
      expect(await hourly.locator('svg text', { hasText: 'Hour of the day' }).isVisible()).toBe(true);
      const litres = page.getByRole('figure', { name: 'Litres by water type' });
      expect(await litres.locator('svg text', { hasText: /^Litres$/ }).isVisible()).toBe(true);
      expect(await litres.locator('svg text', { hasText: 'Water type' }).isVisible()).toBe(true);
      expect(pageErrors).toEqual([]);
    },
    TEST_TIMEOUT,
  );
});
