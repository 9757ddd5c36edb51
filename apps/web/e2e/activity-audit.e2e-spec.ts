import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import type { Browser } from 'playwright-core';
import type { RunningServer } from '../../api/test/support/server-process.js';
import { openTab, PHONE, SETUP_TIMEOUT, signIn, tableSettled, TEST_TIMEOUT, type Tab } from './support/browser.js';
import { closeSuite, openSuite } from './support/suite.js';
import { chooseLanguage } from './support/language.js';
import { MqttMachine } from './support/mqtt-machine.js';
import { coinSale, daysBefore } from './support/sales.js';
import { eventually, Seeder, type Account, type Machine } from './support/seed.js';

describe('machine activity, the audit trail, and the new screens on a phone', () => {
  let server: RunningServer;
  let browser: Browser;
  let seed: Seeder;
  let adminToken: string;
  let manager: Account;
  let managerToken: string;
  let machine: Machine;
  const tabs: Tab[] = [];
  const devices: MqttMachine[] = [];

  beforeAll(async () => {
    ({ server, browser, seed, adminToken } = await openSuite());
    machine = await seed.createDevice(adminToken);
    manager = await seed.createManager(adminToken, machine.espId);
    managerToken = await seed.login(manager.email, manager.password);
  }, SETUP_TIMEOUT);

  afterAll(async () => {
    await Promise.all(devices.map((d) => d.close()));
    await closeSuite({ server, browser, tabs });
  }, SETUP_TIMEOUT);

  const open = async (
    account: { email: string; password: string },
    landing: string,
    viewport = undefined as { width: number; height: number } | undefined,
  ) => {
    const opened = await openTab(browser, server.baseUrl, viewport);
    tabs.push(opened);
    await signIn(opened.page, account.email, account.password, landing);
    return opened;
  };

  it(
    'Machine Activity lists the recent sales, then adds new sales and online changes as they happen',
    async () => {
      await seed.postSales(machine, [coinSale(450, 1.5, 'fresh')]);
      await eventually(
        () => seed.get<unknown[]>('/user/machines/recent-sales', managerToken),
        (rows) => rows.length === 1,
      );
      const { page, pageErrors } = await open(manager, '/manager/dashboard');
      await page.goto('/manager/machine/activity');
      await page.getByRole('heading', { name: 'Machine Activity' }).waitFor();
      const feed = page.getByRole('list', { name: 'Activity' });
      await feed.getByText('TZS 450').waitFor();
      const status = page.getByRole('list', { name: 'Machine status' }).getByRole('listitem');
      await status.getByText('Offline').waitFor();
      await page.locator('.live-indicator[data-status="live"]').waitFor();
      await page.evaluate(() => ((window as any).__noReload = true));

      await seed.postSales(machine, [coinSale(700, 2, 'cold')]);
      const newest = feed.getByRole('listitem').first();
      await newest.getByText('TZS 700').waitFor({ timeout: 15_000 });
      expect(await newest.innerText()).toContain(`${machine.espId} sold 2 L of cold water for TZS 700`);

      const device = await MqttMachine.connect(server.mqttPort, machine);
      devices.push(device);
      await device.publishStatus(true);
      await feed.getByText(`${machine.espId} went online`).waitFor({ timeout: 15_000 });
      await status.getByText('Online').waitFor();
      expect(await page.evaluate(() => (window as any).__noReload)).toBe(true);
      expect(pageErrors).toEqual([]);
    },
    TEST_TIMEOUT,
  );

  it(
    'Machine Activity speaks Kiswahili once it is chosen',
    async () => {
      await seed.postSales(machine, [coinSale(300, 1, 'pure')]);
      const { page } = await open(manager, '/manager/dashboard');
      await page.goto('/manager/machine/activity');
      await page.getByRole('list', { name: 'Activity' }).getByText('TZS 300').first().waitFor();
      await chooseLanguage(page, 'sw');
      await page.getByRole('heading', { name: 'Shughuli za Mashine' }).waitFor();
      await page.getByRole('heading', { name: 'Shughuli za karibuni' }).waitFor();
      const feed = page.getByRole('list', { name: 'Shughuli' });
      await feed.getByText('Sarafu').first().waitFor();
      expect(await feed.innerText()).toContain(`${machine.espId} iliuza 1 L za maji safi kwa`);
      await chooseLanguage(page, 'en');
    },
    TEST_TIMEOUT,
  );

  it(
    'the admin reads the audit trail, filtered by entity, actor and dates, with paging',
    async () => {
      await seed.addDevice(adminToken, manager.userId, (await seed.createDevice(adminToken)).espId);
      const res = await fetch(`${server.baseUrl}/api/update_wifi_credentials`, {
        method: 'PUT',
        headers: { 'content-type': 'application/json', authorization: `Bearer ${managerToken}` },
        body: JSON.stringify({ espId: machine.espId, ssid: 'Audit-Net', password: 'audit-pass-1' }),
      });
      expect(res.status).toBe(200);

      const { page, pageErrors } = await open(server.admin, '/maindashboard');
      await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Audit' }).click();
      await page.getByRole('heading', { name: 'Audit' }).waitFor();
      const table = page.getByRole('table');
      await table.waitFor();
      expect(await table.locator('thead th').allInnerTexts()).toEqual([
        'Time',
        'Actor',
        'Action',
        'Entity',
        'Entity ID',
        'Changes',
      ]);
      await page
        .locator('.pagination-position')
        .getByText(/^Page 1 of \d+$/)
        .waitFor();

      const filtered = (param: string) =>
        page.waitForResponse((r) => r.url().includes('/api/admin/audit') && r.url().includes(param));
      await page.getByLabel('Entity').selectOption('wifi');
      const byEntity = filtered('entity=wifi');
      await page.getByRole('button', { name: 'Filter' }).click();
      await byEntity;
      await tableSettled(page);
      const rows = table.locator('tbody tr');
      await rows.filter({ hasText: 'Audit-Net' }).first().waitFor();
      expect(new Set(await table.locator('tbody td[data-label="Entity"]').allInnerTexts())).toEqual(new Set(['Wi-Fi']));
      // The actor is named, not just an id.
      expect(await rows.first().locator('td[data-label="Actor"]').innerText()).toContain(manager.lastName);

      const actor = page.getByLabel('Actor');
      const managerOption = actor.locator('option', { hasText: manager.lastName });
      await managerOption.waitFor({ state: 'attached' });
      await actor.selectOption({ label: await managerOption.innerText() });
      await page.getByLabel('Entity').selectOption('');
      const byActor = filtered('actorId=');
      await page.getByRole('button', { name: 'Filter' }).click();
      await byActor;
      await tableSettled(page);
      const actors = new Set(await table.locator('tbody td[data-label="Actor"]').allInnerTexts());
      expect([...actors].every((name) => name.includes(manager.lastName))).toBe(true);

      await page.getByLabel('From', { exact: true }).fill(daysBefore(30));
      await page.getByLabel('To', { exact: true }).fill(daysBefore(20));
      await page.getByRole('button', { name: 'Filter' }).click();
      await page.getByText('No audit entries found.').waitFor();
      expect(pageErrors).toEqual([]);
    },
    TEST_TIMEOUT,
  );

  it(
    'every new manager and attendant screen fits a 390-pixel-wide phone without sideways scrolling',
    async () => {
      const { page, pageErrors } = await open(manager, '/manager/dashboard', PHONE);
      for (const path of [
        '/manager/dashboard',
        '/manager/machine/usage',
        '/manager/machine/activity',
        '/manager/approv/float',
        '/manager/card/info/summary',
        `/manager/card/info?machineId=${machine.espId}`,
        `/machine/${machine.espId}/coin`,
        `/machine/${machine.espId}/card`,
        `/device/${machine.espId}`,
      ]) {
        await page.goto(path);
        await page.getByRole('heading', { level: 1 }).waitFor();
        await page.waitForLoadState('networkidle');
        const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
        expect({ path, overflow }).toEqual({ path, overflow: 0 });
      }
      const attendant = await seed.createAttendant(managerToken, machine.espId);
      const other = await open(attendant, '/att/manager/dashboard', PHONE);
      for (const path of ['/att/manager/dashboard', '/att/manager/float']) {
        await other.page.goto(path);
        await other.page.getByRole('heading', { level: 1 }).waitFor();
        await other.page.waitForLoadState('networkidle');
        const overflow = await other.page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
        expect({ path, overflow }).toEqual({ path, overflow: 0 });
      }
      const admin = await open(server.admin, '/maindashboard', PHONE);
      await admin.page.goto('/admin/audit');
      await admin.page.getByRole('heading', { level: 1 }).waitFor();
      await admin.page.waitForLoadState('networkidle');
      expect(await admin.page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth)).toBe(0);
      expect([...pageErrors, ...other.pageErrors, ...admin.pageErrors]).toEqual([]);
    },
    TEST_TIMEOUT,
  );
});
