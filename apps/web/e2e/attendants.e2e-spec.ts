import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import type { Browser, Page } from 'playwright-core';
import type { RunningServer } from '../../api/test/support/server-process.js';
import { openTab, SETUP_TIMEOUT, signIn, TEST_TIMEOUT, type Tab } from './support/browser.js';
import { closeSuite, openSuite } from './support/suite.js';
import { chooseLanguage } from './support/language.js';
import { randomPhone, Seeder, type Account } from './support/seed.js';

describe('attendants: Create New Attendant, Remove Attendant and My Account', () => {
  let server: RunningServer;
  let browser: Browser;
  let seed: Seeder;
  let adminToken: string;
  let manager: Account;
  let firstDevice: string;
  const tabs: Tab[] = [];

  beforeAll(async () => {
    ({ server, browser, seed, adminToken } = await openSuite());
    firstDevice = (await seed.createDevice(adminToken)).espId;
    manager = await seed.createManager(adminToken, firstDevice);
  }, SETUP_TIMEOUT);

  afterAll(async () => {
    await closeSuite({ server, browser, tabs });
  }, SETUP_TIMEOUT);

  const asManager = async (path: string): Promise<Page> => {
    const opened = await openTab(browser, server.baseUrl);
    tabs.push(opened);
    await signIn(opened.page, manager.email, manager.password, '/manager/dashboard');
    await opened.page.goto(path);
    return opened.page;
  };

  /** Gives the manager one more machine, so each test has a device without an attendant. */
  const newManagerDevice = async (): Promise<string> => {
    const { espId } = await seed.createDevice(adminToken);
    await seed.addDevice(adminToken, manager.userId, espId);
    return espId;
  };

  it(
    "Next needs first name, last name, username, company name and phone: 'Please fill in all required fields.'",
    async () => {
      const page = await asManager('/manager/attendant/register');
      await page.getByText('All fields are required except Email.').waitFor();
      await page.getByRole('button', { name: 'Next' }).click();
      expect(await page.getByRole('alert').innerText()).toBe('Please fill in all required fields.');

      await page.getByLabel('First Name').fill('Asha');
      await page.getByLabel('Last Name').fill('Juma');
      await page.getByLabel('Company Name').fill('Maji Safi');
      await page.getByLabel('Username').fill('asha-juma');
      await page.getByRole('button', { name: 'Next' }).click();
      expect(await page.getByRole('alert').innerText()).toBe('Please fill in all required fields.');
      expect(await page.getByRole('heading', { name: 'Personal Info' }).isVisible()).toBe(true);

      // Email stays empty: it is optional.
      expect(await page.getByLabel('Email').getAttribute('placeholder')).toBe('Optional');
      expect(await page.getByLabel('Phone Number').getAttribute('placeholder')).toBe('+255');
      await page.getByLabel('Phone Number').fill(randomPhone());
      await page.getByLabel('Current Location').fill('Mwanza');
      await page.getByRole('button', { name: 'Next' }).click();
      await page.getByRole('heading', { name: 'Account Info' }).waitFor();
    },
    TEST_TIMEOUT,
  );

  it(
    'registers an attendant for a chosen device after the password and device checks; My Account then names them',
    async () => {
      const device = await newManagerDevice();
      const phone = randomPhone();
      const page = await asManager('/manager/attendant/register');
      await page.getByLabel('First Name').fill('Baraka');
      await page.getByLabel('Last Name').fill('Mushi');
      await page.getByLabel('Company Name').fill('Maji Safi');
      await page.getByLabel('Username').fill(`baraka-${phone}`);
      await page.getByLabel('Phone Number').fill(phone);
      await page.getByLabel('Current Location').fill('Mwanza');
      await page.getByRole('button', { name: 'Next' }).click();

      const choose = page.getByLabel('Choose Device ID');
      await choose.locator(`option[value="${device}"]`).waitFor({ state: 'attached' });
      expect(await choose.locator('option').first().innerText()).toBe('Select ID of Device');
      await page.getByLabel('Machine Location').fill('Ferry Terminal');
      await page.getByLabel('Password', { exact: true }).fill('baraka-pass-1');
      await page.getByLabel('Confirm Password').fill('baraka-pass-2');
      await page.getByRole('button', { name: 'Register' }).click();
      expect(await page.getByRole('alert').innerText()).toBe('Passwords do not match');

      await page.getByLabel('Confirm Password').fill('baraka-pass-1');
      await page.getByRole('button', { name: 'Register' }).click();
      await page.getByRole('alert').filter({ hasText: 'Please select an ESP32 ID' }).waitFor();

      await choose.selectOption(device);
      await page.getByRole('button', { name: 'Register' }).click();
      await page
        .getByRole('status')
        .filter({ hasText: /registered/i })
        .waitFor();
      expect(await page.getByRole('alert').count()).toBe(0);
      expect(await seed.loginStatus(phone, 'baraka-pass-1')).toBe(200);

      await page.goto('/manager/profile/acc');
      await page.getByRole('heading', { name: 'Personal Information' }).waitFor();
      const tile = page.getByRole('link', { name: new RegExp(device) });
      await tile.getByText('Attendant: Baraka Mushi').waitFor();
      expect(await tile.getAttribute('href')).toBe(`/device/${device}`);
      // The device has the machine location given at registration (docs/rest-api.md, "Details").
      await tile.getByText('Ferry Terminal').waitFor();
      // The first device has nobody yet.
      await page
        .getByRole('link', { name: new RegExp(firstDevice) })
        .getByText('Attendant: Not Assigned')
        .waitFor();
    },
    TEST_TIMEOUT,
  );

  it(
    'only machines without an attendant are offered; the others are named with their attendant',
    async () => {
      const device = await newManagerDevice();
      const free = await newManagerDevice();
      const attendant = await seed.createAttendant(await seed.login(manager.email, manager.password), device);
      const page = await asManager('/manager/attendant/register');
      await page.getByLabel('First Name').fill('Second');
      await page.getByLabel('Last Name').fill('Person');
      await page.getByLabel('Company Name').fill('Maji Safi');
      await page.getByLabel('Username').fill(`second-${Date.now()}`);
      await page.getByLabel('Phone Number').fill(randomPhone());
      await page.getByLabel('Current Location').fill('Mwanza');
      await page.getByRole('button', { name: 'Next' }).click();
      const choose = page.getByLabel('Choose Device ID');
      await choose.locator(`option[value="${free}"]`).waitFor({ state: 'attached' });
      expect(await choose.locator(`option[value="${device}"]`).count()).toBe(0);
      const hint = page.locator(`[id="${(await choose.getAttribute('aria-describedby'))!.split(' ')[0]}"]`);
      expect(await hint.innerText()).toContain(
        `${device} (has an attendant: ${attendant.firstName} ${attendant.lastName})`,
      );
    },
    TEST_TIMEOUT,
  );

  it(
    'a phone number the server refuses is named beside the field in plain words, back on step 1',
    async () => {
      const device = await newManagerDevice();
      const page = await asManager('/manager/attendant/register');
      await page.getByLabel('First Name').fill('Neema');
      await page.getByLabel('Last Name').fill('Kweka');
      await page.getByLabel('Company Name').fill('Maji Safi');
      await page.getByLabel('Username').fill(`neema-${Date.now()}`);
      await page.getByLabel('Phone Number').fill('12');
      await page.getByLabel('Current Location').fill('Mwanza');
      await page.getByRole('button', { name: 'Next' }).click();
      const choose = page.getByLabel('Choose Device ID');
      await choose.locator(`option[value="${device}"]`).waitFor({ state: 'attached' });
      await choose.selectOption(device);
      await page.getByLabel('Machine Location').fill('Ferry Terminal');
      await page.getByLabel('Password', { exact: true }).fill('neema-pass-1');
      await page.getByLabel('Confirm Password').fill('neema-pass-1');
      await page.getByRole('button', { name: 'Register' }).click();

      await page.getByRole('heading', { name: 'Personal Info' }).waitFor();
      const phone = page.getByLabel('Phone Number');
      await page.locator('input[aria-invalid="true"]').waitFor();
      expect(await phone.getAttribute('aria-invalid')).toBe('true');
      const note = page.locator(`[id="${await phone.getAttribute('aria-describedby')}"]`);
      expect(await note.innerText()).toBe('Enter a valid phone number, such as +255 712 345 678.');
      expect(await page.locator('.status-text').innerText()).toBe('Error registering user');
      expect(await page.locator('main').innerText()).not.toContain('phoneNumber');
    },
    TEST_TIMEOUT,
  );

  it(
    'Create New Attendant and Remove Attendant speak Kiswahili once it is chosen',
    async () => {
      const page = await asManager('/manager/attendant/register');
      await chooseLanguage(page, 'sw');
      await page.getByRole('heading', { name: 'Sajili Mhudumu Mpya' }).waitFor();
      await page.getByRole('heading', { name: 'Taarifa Binafsi' }).waitFor();
      await page.getByLabel('Jina la Kwanza').waitFor();
      await page.getByRole('button', { name: 'Endelea' }).click();
      expect(await page.getByRole('alert').innerText()).toBe('Tafadhali jaza sehemu zote zinazohitajika.');
      await page.getByRole('button', { name: 'Usimamizi' }).click();
      await page.getByRole('link', { name: 'Ondoa Mhudumu' }).click();
      await page.getByRole('heading', { name: 'Ondoa Mhudumu' }).waitFor();
      await chooseLanguage(page, 'en');
    },
    TEST_TIMEOUT,
  );

  it(
    'Remove Attendant asks to confirm, removes the attendant, and they can no longer sign in',
    async () => {
      const device = await newManagerDevice();
      const attendant = await seed.createAttendant(await seed.login(manager.email, manager.password), device);
      const name = `${attendant.firstName} ${attendant.lastName}`;
      const page = await asManager('/manager/attendant/remove');
      await page.getByRole('heading', { name: 'Remove Attendant' }).waitFor();

      await page.getByRole('button', { name: `Remove ${name}` }).click();
      await page.getByRole('button', { name: 'Cancel' }).click();
      expect(await page.getByRole('cell', { name, exact: true }).count()).toBe(1);
      expect(await seed.loginStatus(attendant.email, attendant.password)).toBe(200);

      await page.getByRole('button', { name: `Remove ${name}` }).click();
      await page.getByRole('button', { name: 'Yes, remove' }).click();
      await page.locator('.status-success').waitFor();
      await page.getByRole('cell', { name, exact: true }).waitFor({ state: 'detached' });
      expect(await seed.loginStatus(attendant.email, attendant.password)).not.toBe(200);
    },
    TEST_TIMEOUT,
  );
});
