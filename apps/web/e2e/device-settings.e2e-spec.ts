import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import type { Browser, Page } from 'playwright-core';
import type { ConfigState } from '@wv/contracts';
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
import { closeSuite, openSuite } from './support/suite.js';
import { chooseLanguage } from './support/language.js';
import { MqttMachine } from './support/mqtt-machine.js';
import { eventually, Seeder, type Account, type Machine } from './support/seed.js';

describe('Manage Devices and Device Settings: Wi-Fi, tariffs, and whether the machine applied them', () => {
  let server: RunningServer;
  let browser: Browser;
  let seed: Seeder;
  let adminToken: string;
  let manager: Account;
  let managerToken: string;
  const tabs: Tab[] = [];
  const devices: MqttMachine[] = [];

  beforeAll(async () => {
    ({ server, browser, seed, adminToken } = await openSuite());
    const first = await seed.createDevice(adminToken);
    manager = await seed.createManager(adminToken, first.espId, 'Kariakoo Market');
    managerToken = await seed.login(manager.email, manager.password);
  }, SETUP_TIMEOUT);

  afterAll(async () => {
    await Promise.all(devices.map((d) => d.close()));
    await closeSuite({ server, browser, tabs });
  }, SETUP_TIMEOUT);

  /** Each test gets its own machine, so the settings start empty. */
  const newMachine = async (): Promise<Machine> => {
    const machine = await seed.createDevice(adminToken);
    await seed.addDevice(adminToken, manager.userId, machine.espId, 'Ferry Terminal');
    return machine;
  };

  const openSettings = async (espId: string, viewport?: { width: number; height: number }) => {
    const opened = await openTab(browser, server.baseUrl, viewport);
    tabs.push(opened);
    await signIn(opened.page, manager.email, manager.password, '/manager/dashboard');
    await opened.page.goto(`/device/${espId}`);
    await opened.page.getByRole('heading', { name: 'Device Settings' }).waitFor();
    return opened;
  };

  const wifi = (page: Page) => page.getByRole('form', { name: 'Wi-Fi Credentials' });
  const tariffs = (page: Page) => page.getByRole('form', { name: 'Insert New Tariffs' });

  it(
    'Manage Devices lists each machine with ID, Location and Attendant, and a machine block opens its settings',
    async () => {
      const machine = await newMachine();
      const attended = await newMachine();
      const attendant = await seed.createAttendant(managerToken, attended.espId);
      const opened = await openTab(browser, server.baseUrl);
      tabs.push(opened);
      const { page } = opened;
      await signIn(page, manager.email, manager.password, '/manager/dashboard');
      await page.goto('/manager/machine/usage');
      await page.getByRole('heading', { name: 'Manage Devices' }).waitFor();
      await page.getByText('Select a machine block to edit its setting.').waitFor();

      const block = page.getByRole('link', { name: new RegExp(machine.espId) });
      await block.getByText('Ferry Terminal').waitFor();
      await block.getByText('Attendant: Not Assigned').waitFor();
      await page
        .getByRole('link', { name: new RegExp(attended.espId) })
        .getByText(`Attendant: ${attendant.firstName} ${attendant.lastName}`)
        .waitFor();

      await block.click();
      await waitForPath(page, `/device/${machine.espId}`);
      await page.getByRole('heading', { name: 'Wi-Fi Credentials' }).waitFor();
      await page.getByRole('heading', { name: 'Tariffs Management' }).waitFor();
    },
    TEST_TIMEOUT,
  );

  it(
    "Wi-Fi: 'Wi-Fi credentials updated successfully!', the new values come back, Clear asks first and 'Wi-Fi credentials cleared successfully!', and a refused SSID named beside the field",
    async () => {
      const machine = await newMachine();
      const { page } = await openSettings(machine.espId);
      await page.getByText('No Wi-Fi credentials set').waitFor();

      await wifi(page).getByLabel('SSID').fill('Kiosk-Net');
      await wifi(page).getByLabel('Password', { exact: true }).fill('maji-safi-2025');
      await wifi(page).getByRole('button', { name: 'Update Wi-Fi' }).click();
      const updated = wifi(page).getByText('Wi-Fi credentials updated successfully!', { exact: true });
      await updated.waitFor();
      expect(await colorOf(updated)).toBe(GREEN);

      // The previous values are shown and fill the form on the next visit.
      await page.reload();
      await page.getByText('Current network: Kiosk-Net').waitFor();
      await page.waitForFunction(() => document.querySelector<HTMLInputElement>('form input')?.value === 'Kiosk-Net');
      await page.waitForFunction(
        () => (document.querySelector('input[name], form input') as HTMLInputElement)?.value !== '',
      );
      expect(await wifi(page).getByLabel('SSID').inputValue()).toBe('Kiosk-Net');
      expect(await wifi(page).getByLabel('Password', { exact: true }).inputValue()).toBe('maji-safi-2025');

      // Clearing can take the machine offline: a danger button that asks first, naming the machine. Cancel keeps it.
      const clear = wifi(page).getByRole('button', { name: 'Clear Wi-Fi…' });
      expect(await clear.getAttribute('class')).toContain('btn-danger');
      await clear.click();
      const dialog = page.getByRole('dialog', { name: `Clear the Wi-Fi of machine ${machine.espId}?` });
      await dialog.waitFor();
      expect(await dialog.innerText()).toContain(`Machine ${machine.espId} forgets the network “Kiosk-Net”.`);
      expect(await dialog.innerText()).toContain('If it has no other network, it goes offline');
      await dialog.getByRole('button', { name: 'Cancel' }).click();
      await dialog.waitFor({ state: 'detached' });
      expect(await wifi(page).getByLabel('SSID').inputValue()).toBe('Kiosk-Net');
      expect((await seed.get<{ ssid?: string }>(`/get_wifi_credentials/${machine.espId}`, managerToken)).ssid).toBe(
        'Kiosk-Net',
      );

      await clear.click();
      await dialog.getByRole('button', { name: 'Yes, clear Wi-Fi' }).click();
      const cleared = wifi(page).getByText('Wi-Fi credentials cleared successfully!', { exact: true });
      await cleared.waitFor();
      expect(await colorOf(cleared)).toBe(GREEN);
      expect(await wifi(page).getByLabel('SSID').inputValue()).toBe('');
      // The machine has no credentials any more, and the panel says so.
      await page.getByLabel('Current Wi-Fi').getByText('No Wi-Fi credentials set').waitFor();
      const stored = await seed.get<{ ssid?: string }>(`/get_wifi_credentials/${machine.espId}`, managerToken);
      expect(stored.ssid ?? '').toBe('');

      // Both fields are required: the browser stops an empty update before any call.
      await wifi(page).getByRole('button', { name: 'Update Wi-Fi' }).click();
      expect(
        await wifi(page)
          .getByLabel('SSID')
          .evaluate((input: HTMLInputElement) => input.validity.valueMissing),
      ).toBe(true);

      // An SSID longer than Wi-Fi allows: plain words beside the field, never the server's field name.
      const ssid = wifi(page).getByLabel('SSID');
      await ssid.fill('x'.repeat(40));
      await wifi(page).getByLabel('Password', { exact: true }).fill('secret-pass');
      await wifi(page).getByRole('button', { name: 'Update Wi-Fi' }).click();
      await wifi(page).locator('input[aria-invalid="true"]').waitFor();
      expect(await ssid.getAttribute('aria-invalid')).toBe('true');
      const note = page.locator(`[id="${await ssid.getAttribute('aria-describedby')}"]`);
      expect(await note.innerText()).toBe('Enter the network name (SSID), at most 32 characters.');
      const refused = wifi(page).locator('.status-text');
      expect(await refused.innerText()).toBe('Check the marked fields.');
      expect(await colorOf(refused)).toBe(RED);
      expect(await wifi(page).innerText()).not.toContain('ssid:');
      await ssid.fill('Kiosk');
      expect(await ssid.getAttribute('aria-invalid')).toBeNull();
    },
    TEST_TIMEOUT,
  );

  it(
    "tariffs: the previous values, 'Tariffs inserted successfully!' with the fields cleared and 'Newly Inserted Tariffs', Clear form, and a refused value named beside its field",
    async () => {
      const machine = await newMachine();
      const { page } = await openSettings(machine.espId);
      await page.getByRole('heading', { name: 'Insert New Tariffs' }).waitFor();
      await page.getByText('No settings found').waitFor();

      const form = tariffs(page);
      await form.getByLabel('Cold Tariffs').fill('50');
      await form.getByLabel('Fresh Tariffs').fill('40');
      await form.getByLabel('Fresh Calb').fill('1.5');
      await form.getByLabel('Cold Calb').fill('1.25');
      await form.getByRole('button', { name: 'Insert Tariffs' }).click();
      const inserted = form.getByText('Tariffs inserted successfully!', { exact: true });
      await inserted.waitFor();
      expect(await colorOf(inserted)).toBe(GREEN);
      for (const label of ['Cold Tariffs', 'Fresh Tariffs', 'Fresh Calb', 'Cold Calb']) {
        expect(await form.getByLabel(label).inputValue()).toBe('');
      }
      const box = page.getByRole('region', { name: 'Newly Inserted Tariffs' });
      await box.locator('dd').nth(3).waitFor();
      expect(await box.locator('dd').allInnerTexts()).toEqual(['50', '40', '1.5', '1.25']);
      // The previous values are now the inserted ones.
      const previous = page.getByLabel('Previous tariffs');
      await previous.getByText('Previous Cold Tariffs').waitFor();
      expect(await previous.locator('dd').allInnerTexts()).toEqual(['50', '40', '1.5', '1.25']);

      // Clear form empties the fields without sending anything.
      await form.getByLabel('Cold Tariffs').fill('99');
      const clear = form.getByRole('button', { name: 'Clear form' });
      expect(await clear.getAttribute('class')).toContain('btn-secondary');
      await clear.click();
      expect(await form.getByLabel('Cold Tariffs').inputValue()).toBe('');

      await form.getByLabel('Cold Tariffs').fill('cheap');
      await form.getByLabel('Fresh Tariffs').fill('40');
      await form.getByLabel('Fresh Calb').fill('1.5');
      await form.getByLabel('Cold Calb').fill('1.25');
      await form.getByRole('button', { name: 'Insert Tariffs' }).click();
      const cold = form.getByLabel('Cold Tariffs');
      await form.locator('input[aria-invalid="true"]').waitFor();
      expect(await cold.getAttribute('aria-invalid')).toBe('true');
      const note = page.locator(`[id="${await cold.getAttribute('aria-describedby')}"]`);
      expect(await note.innerText()).toMatch(/^Enter the cold water price as a number/);
      expect(await form.getByLabel('Fresh Tariffs').getAttribute('aria-invalid')).toBeNull();
      const refused = form.locator('.status-text');
      expect(await refused.innerText()).toBe('Check the marked fields.');
      expect(await colorOf(refused)).toBe(RED);
      expect(await form.innerText()).not.toContain('coldTariffs');
      const settings = await seed.get<{ cold_tariffs: number }>(`/machine_settings/${machine.espId}`, managerToken);
      expect(settings.cold_tariffs).toBe(50);
    },
    TEST_TIMEOUT,
  );

  it(
    'new settings show as pending until the machine acknowledges them, then as applied, without a reload',
    async () => {
      const machine = await newMachine();
      const { page } = await openSettings(machine.espId);
      await page.getByText('No Wi-Fi credentials set').waitFor();
      await wifi(page).getByLabel('SSID').fill('Shop-WiFi');
      await wifi(page).getByLabel('Password', { exact: true }).fill('shop-pass-1');
      await wifi(page).getByRole('button', { name: 'Update Wi-Fi' }).click();
      await page.getByText('Wi-Fi credentials updated successfully!').waitFor();

      const status = page.locator('.config-status');
      await page.locator('.config-status[data-state="pending"]').waitFor();
      expect(await status.innerText()).toContain('Pending');
      const { version } = await eventually(
        () => seed.get<ConfigState>(`/machines/${machine.espId}/config-state`, managerToken),
        (state) => state.version > 0,
      );

      const device = await MqttMachine.connect(server.mqttPort, machine);
      devices.push(device);
      await device.ackConfig(version);
      await page.locator('.config-status[data-state="applied"]').waitFor({ timeout: 15_000 });
      expect(await status.innerText()).toContain('Applied');
    },
    TEST_TIMEOUT,
  );

  it(
    'Device Settings and Manage Devices speak Kiswahili once it is chosen',
    async () => {
      const machine = await newMachine();
      const { page } = await openSettings(machine.espId);
      await chooseLanguage(page, 'sw');
      await page.getByRole('heading', { name: 'Mipangilio ya Mashine' }).waitFor();
      await page.getByRole('heading', { name: 'Taarifa za Wi-Fi' }).waitFor();
      await page.getByRole('heading', { name: 'Usimamizi wa Bei' }).waitFor();
      await page.getByRole('form', { name: 'Taarifa za Wi-Fi' }).getByRole('button', { name: 'Futa Wi-Fi…' }).waitFor();
      await page.getByRole('form', { name: 'Weka Bei Mpya' }).getByLabel('Bei ya Maji Baridi').waitFor();
      await page.getByRole('navigation', { name: 'Kuu' }).getByRole('link', { name: 'Mashine', exact: true }).click();
      await page.getByRole('heading', { name: 'Simamia Mashine' }).waitFor();
      await page.getByText('Mhudumu: Hajapangiwa').first().waitFor();
      await chooseLanguage(page, 'en');
    },
    TEST_TIMEOUT,
  );

  it(
    'the Wi-Fi and Tariffs panels sit side by side on a desktop and stack on a phone, within its width',
    async () => {
      const machine = await newMachine();
      const desktop = await openSettings(machine.espId);
      const wifiBox = await desktop.page.getByRole('heading', { name: 'Wi-Fi Credentials' }).boundingBox();
      const tariffBox = await desktop.page.getByRole('heading', { name: 'Tariffs Management' }).boundingBox();
      expect(Math.abs(wifiBox!.y - tariffBox!.y)).toBeLessThan(2);
      expect(tariffBox!.x).toBeGreaterThan(wifiBox!.x + 200);

      const phone = await openSettings(machine.espId, PHONE);
      const wifiPhone = await phone.page.getByRole('heading', { name: 'Wi-Fi Credentials' }).boundingBox();
      const tariffPhone = await phone.page.getByRole('heading', { name: 'Tariffs Management' }).boundingBox();
      expect(tariffPhone!.y).toBeGreaterThan(wifiPhone!.y + 100);
      expect(Math.abs(tariffPhone!.x - wifiPhone!.x)).toBeLessThan(2);
      await phone.page.waitForLoadState('networkidle');
      expect(await phone.page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth)).toBe(0);
      expect(phone.pageErrors).toEqual([]);
    },
    TEST_TIMEOUT,
  );
});
