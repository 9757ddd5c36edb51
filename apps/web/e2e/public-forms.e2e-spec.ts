import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import type { Browser } from 'playwright-core';
import type { RunningServer } from '../../api/test/support/server-process.js';
import { openTab, SETUP_TIMEOUT, signIn, storedSession, TEST_TIMEOUT, type Tab } from './support/browser.js';
import { closeSuite, openSuite } from './support/suite.js';
import { randomPhone, Seeder, type Account } from './support/seed.js';

describe('Account Management (/a) and the older registration forms (/b, /ca)', () => {
  let server: RunningServer;
  let browser: Browser;
  let seed: Seeder;
  let adminToken: string;
  let manager: Account;
  let managerDevice: string;
  const tabs: Tab[] = [];

  const tab = async () => {
    const opened = await openTab(browser, server.baseUrl);
    tabs.push(opened);
    return opened.page;
  };

  beforeAll(async () => {
    ({ server, browser, seed, adminToken } = await openSuite());
    managerDevice = (await seed.createDevice(adminToken)).espId;
    manager = await seed.createManager(adminToken, managerDevice);
  }, SETUP_TIMEOUT);

  afterAll(async () => {
    await closeSuite({ server, browser, tabs });
  }, SETUP_TIMEOUT);

  it(
    "/a has its own login whose failure text is just 'Login failed'",
    async () => {
      const page = await tab();
      await page.goto('/a');
      await page.getByLabel('Email or Phone Number').fill(manager.email);
      await page.getByLabel('Password').fill('wrong-password');
      await page.getByRole('button', { name: 'Log In' }).click();
      expect(await page.getByRole('alert').innerText()).toBe('Login failed');
    },
    TEST_TIMEOUT,
  );

  it(
    '/a shows User Information, adds a device in the Add Devices tab, and Logout removes token and role',
    async () => {
      const { espId: spare } = await seed.createDevice(adminToken);
      const page = await tab();
      await page.goto('/a');
      await page.getByLabel('Email or Phone Number').fill(manager.email);
      await page.getByLabel('Password').fill(manager.password);
      await page.getByRole('button', { name: 'Log In' }).click();

      await page.getByRole('tab', { name: 'User Information' }).waitFor();
      await page.getByText(manager.email).waitFor();
      await page.getByText(managerDevice).waitFor();

      await page.getByRole('tab', { name: 'Add Devices' }).click();
      // A manager cannot list unowned devices, so the id is typed.
      await page.getByLabel('Device ID').fill(spare);
      await page.getByLabel('Machine Location').fill('Bus Stand');
      await page.getByRole('button', { name: 'Add Device' }).click();
      await page.locator('.status-success').waitFor();
      expect(await page.getByRole('alert').count()).toBe(0);

      await page.getByLabel('Device ID').fill(spare);
      await page.getByLabel('Machine Location').fill('Bus Stand');
      await page.getByRole('button', { name: 'Add Device' }).click();
      expect(await page.getByRole('alert').locator('.status-text').innerText()).toBe('Error Adding Device');

      await page.getByRole('tab', { name: 'User Information' }).click();
      await page.getByText(spare).waitFor();
      await page.getByText('Bus Stand').waitFor();

      await page.getByRole('button', { name: 'Logout' }).click();
      await page.getByRole('button', { name: 'Log In' }).waitFor();
      const session = await storedSession(page);
      expect([session.token, session.role]).toEqual([null, null]);
    },
    TEST_TIMEOUT,
  );

  it(
    "/ca without an admin session shows 'Error registering user' below the form",
    async () => {
      const page = await tab();
      await page.goto('/ca');
      await page.getByLabel('First Name').fill('Neema');
      await page.getByLabel('Last Name').fill('Guest');
      await page.getByLabel('Username').fill('neema-guest');
      await page.getByLabel('Email').fill('neema-guest@e2e.test');
      await page.getByLabel('Phone Number').fill(randomPhone());
      await page.getByLabel('Password', { exact: true }).fill('guest-pass-123');
      await page.getByLabel('Confirm Password').fill('guest-pass-123');
      await page.getByRole('button', { name: 'Register User' }).click();
      expect(await page.getByRole('alert').locator('.status-text').innerText()).toBe('Error registering user');
    },
    TEST_TIMEOUT,
  );

  it(
    '/b, the older ESP32 registration, registers a user with a device when the admin is signed in',
    async () => {
      const { espId } = await seed.createDevice(adminToken);
      const phone = randomPhone();
      const page = await tab();
      await signIn(page, server.admin.email, server.admin.password, '/maindashboard');
      await page.goto('/b');
      await page.getByLabel('First Name').fill('Old');
      await page.getByLabel('Last Name').fill('Form');
      await page.getByLabel('Username').fill('old-form');
      await page.getByLabel('Email').fill('old-form@e2e.test');
      await page.getByLabel('Phone Number').fill(phone);
      await page.getByLabel('Current Location').fill('Dodoma');
      const select = page.getByLabel('ESP32 ID');
      await select.locator(`option[value="${espId}"]`).waitFor({ state: 'attached' });
      await select.selectOption(espId);
      await page.getByLabel('Machine Location').fill('Market');
      await page.getByLabel('Password', { exact: true }).fill('old-form-pass');
      await page.getByLabel('Confirm Password').fill('old-form-pass');
      await page.getByRole('button', { name: 'Register', exact: true }).click();
      await page
        .getByRole('status')
        .filter({ hasText: /registered/i })
        .waitFor();
      expect(await seed.loginStatus(phone, 'old-form-pass')).toBe(200);
    },
    TEST_TIMEOUT,
  );
});
