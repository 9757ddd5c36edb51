import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import type { Browser, Page } from 'playwright-core';
import type { RunningServer } from '../../api/test/support/server-process.js';
import { colorOf, GREEN, openTab, RED, SETUP_TIMEOUT, signIn, TEST_TIMEOUT, type Tab } from './support/browser.js';
import { closeSuite, openSuite } from './support/suite.js';
import { randomPhone, Seeder } from './support/seed.js';

describe('Create Users wizard (/register)', () => {
  let server: RunningServer;
  let browser: Browser;
  let seed: Seeder;
  let adminToken: string;
  let ownedDevice: string;
  const tabs: Tab[] = [];

  beforeAll(async () => {
    ({ server, browser, seed, adminToken } = await openSuite());
    ownedDevice = (await seed.createDevice(adminToken)).espId;
    await seed.createManager(adminToken, ownedDevice);
  }, SETUP_TIMEOUT);

  afterAll(async () => {
    await closeSuite({ server, browser, tabs });
  }, SETUP_TIMEOUT);

  const openWizard = async (): Promise<Page> => {
    const opened = await openTab(browser, server.baseUrl);
    tabs.push(opened);
    await signIn(opened.page, server.admin.email, server.admin.password, '/maindashboard');
    await opened.page.goto('/register');
    return opened.page;
  };

  const fillPersonalInfo = async (page: Page, id: string, phone = randomPhone()) => {
    await page.getByLabel('First Name').fill('Neema');
    await page.getByLabel('Last Name').fill(`Owner${id}`);
    await page.getByLabel('Username').fill(`neema-${id}`);
    await page.getByLabel('Email').fill(`neema-${id}@e2e.test`);
    await page.getByLabel('Phone Number').fill(phone);
    await page.getByLabel('Current Location').fill('Arusha');
    await page.getByRole('button', { name: 'Next' }).click();
    await page.getByRole('heading', { name: 'Account Info' }).waitFor();
  };

  it(
    'step 2 refuses mismatched passwords, then a missing device, each with its message',
    async () => {
      const page = await openWizard();
      await fillPersonalInfo(page, 'v1');
      await page.getByLabel('Machine Location').fill('Clock Tower');
      await page.getByLabel('Password', { exact: true }).fill('secret-pass-1');
      await page.getByLabel('Confirm Password').fill('secret-pass-2');
      await page.getByRole('button', { name: 'Register' }).click();
      const alert = page.getByRole('alert');
      expect(await alert.innerText()).toBe('Passwords do not match');

      await page.getByLabel('Confirm Password').fill('secret-pass-1');
      await page.getByRole('button', { name: 'Register' }).click();
      await page.getByRole('alert').filter({ hasText: 'Please select an ESP32 ID' }).waitFor();
      expect(await page.getByRole('alert').innerText()).toBe('Please select an ESP32 ID');
    },
    TEST_TIMEOUT,
  );

  it(
    'offers only devices nobody owns, registers a manager who can then sign in, and shows the server message',
    async () => {
      const free = (await seed.createDevice(adminToken)).espId;
      const page = await openWizard();
      const phone = randomPhone();
      await fillPersonalInfo(page, 'ok', phone);

      const select = page.getByLabel('Select ESP32 ID');
      await select.locator(`option[value="${free}"]`).waitFor({ state: 'attached' });
      const offered = await select
        .locator('option')
        .evaluateAll((options) => options.map((option) => (option as HTMLOptionElement).value));
      expect(offered).toContain(free);
      expect(offered).not.toContain(ownedDevice);

      await select.selectOption(free);
      await page.getByLabel('Machine Location').fill('Clock Tower');
      await page.getByLabel('Password', { exact: true }).fill('neema-pass-123');
      await page.getByLabel('Confirm Password').fill('neema-pass-123');
      await page.getByRole('button', { name: 'Register' }).click();

      const status = page.getByRole('status').filter({ hasText: /registered/i });
      await status.waitFor();
      expect(await colorOf(status.locator('.status-text'))).toBe(GREEN);
      // Back on step 1, emptied for the next user.
      expect(await page.getByLabel('First Name').inputValue()).toBe('');
      expect(await seed.loginStatus(phone, 'neema-pass-123')).toBe(200);
    },
    TEST_TIMEOUT,
  );

  it(
    "shows 'Error registering user' with the server's reason when it refuses a short password",
    async () => {
      const free = (await seed.createDevice(adminToken)).espId;
      const page = await openWizard();
      await fillPersonalInfo(page, 'short');
      await page.getByLabel('Select ESP32 ID').locator(`option[value="${free}"]`).waitFor({ state: 'attached' });
      await page.getByLabel('Select ESP32 ID').selectOption(free);
      await page.getByLabel('Machine Location').fill('Clock Tower');
      await page.getByLabel('Password', { exact: true }).fill('short');
      await page.getByLabel('Confirm Password').fill('short');
      await page.getByRole('button', { name: 'Register' }).click();

      const alert = page.getByRole('alert');
      await alert.filter({ hasText: 'Error registering user' }).waitFor();
      expect(await alert.locator('.status-text').innerText()).toBe('Error registering user');
      expect(await alert.locator('.status-detail').innerText()).toMatch(/at least 8 characters/);
      expect(await colorOf(alert.locator('.status-text'))).toBe(RED);
    },
    TEST_TIMEOUT,
  );

  it(
    'Back keeps what was typed in step 1',
    async () => {
      const page = await openWizard();
      await fillPersonalInfo(page, 'back');
      await page.getByRole('button', { name: 'Back' }).click();
      expect(await page.getByLabel('Username').inputValue()).toBe('neema-back');
    },
    TEST_TIMEOUT,
  );
});
