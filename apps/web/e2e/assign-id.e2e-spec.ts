import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import type { Browser, Page } from 'playwright-core';
import type { RunningServer } from '../../api/test/support/server-process.js';
import { colorOf, GREEN, openTab, RED, SETUP_TIMEOUT, signIn, TEST_TIMEOUT, type Tab } from './support/browser.js';
import { closeSuite, openSuite } from './support/suite.js';
import { chooseLanguage } from './support/language.js';
import { randomEspId, Seeder } from './support/seed.js';

describe('Assign ESP ID to MAC Address (/add-esp32)', () => {
  let server: RunningServer;
  let browser: Browser;
  let seed: Seeder;
  let adminToken: string;
  const tabs: Tab[] = [];

  beforeAll(async () => {
    ({ server, browser, seed, adminToken } = await openSuite());
  }, SETUP_TIMEOUT);

  afterAll(async () => {
    await closeSuite({ server, browser, tabs });
  }, SETUP_TIMEOUT);

  const openAssign = async (): Promise<Page> => {
    const opened = await openTab(browser, server.baseUrl);
    tabs.push(opened);
    await signIn(opened.page, server.admin.email, server.admin.password, '/maindashboard');
    await opened.page.goto('/add-esp32');
    return opened.page;
  };

  const chooseMac = async (page: Page, mac: string) => {
    const select = page.getByLabel('Select MAC Address');
    await select.locator(`option[value="${mac}"]`).waitFor({ state: 'attached' });
    await select.selectOption(mac);
  };

  it(
    "Assign ID without a MAC address says 'Please select a MAC address.'",
    async () => {
      const page = await openAssign();
      expect(await page.getByLabel('ESP ID', { exact: true }).getAttribute('placeholder')).toBe('Enter ESP ID');
      await page.getByLabel('ESP ID', { exact: true }).fill(randomEspId());
      await page.getByRole('button', { name: 'Assign ID' }).click();
      expect(await page.getByRole('alert').innerText()).toBe('Please select a MAC address.');
    },
    TEST_TIMEOUT,
  );

  it(
    'assigns a free ESP ID: the message is green and the device key is shown once',
    async () => {
      const mac = await seed.announce();
      const espId = randomEspId();
      const page = await openAssign();
      await chooseMac(page, mac);
      await page.getByLabel('ESP ID', { exact: true }).fill(espId);
      await page.getByRole('button', { name: 'Assign ID' }).click();

      const result = page.locator('.status-text').filter({ hasText: espId });
      await result.waitFor();
      expect(await result.innerText()).not.toContain('Error');
      expect(await colorOf(result)).toBe(GREEN);

      const notice = page.getByRole('region', { name: /shown only once/ });
      await notice.waitFor();
      expect(await notice.getByRole('heading').innerText()).toContain(espId);
      expect((await notice.getByLabel('Device key').innerText()).length).toBeGreaterThanOrEqual(16);

      // The MAC now has an id, so it is no longer offered; the device is listed for the admin.
      await page.getByLabel('Select MAC Address').locator(`option[value="${mac}"]`).waitFor({ state: 'detached' });
      await page.goto('/maindashboard');
      await page.getByText(espId).waitFor();
    },
    TEST_TIMEOUT,
  );

  it(
    'a machine that announces itself while the page is open joins the MAC list without a reload',
    async () => {
      const page = await openAssign();
      const select = page.getByLabel('Select MAC Address');
      await select.locator('option').first().waitFor({ state: 'attached' });
      // Announce anonymously, as a new machine does; the notice below comes only from the live event.
      await page.waitForLoadState('networkidle');
      const mac = await seed.announce();
      await select.locator(`option[value="${mac}"]`).waitFor({ state: 'attached', timeout: 15_000 });
      await page.getByText(`New machine waiting: ${mac}`).waitFor();
      await chooseMac(page, mac);
      await page.getByLabel('ESP ID', { exact: true }).fill(randomEspId());
      await page.getByRole('button', { name: 'Assign ID' }).click();
      await page.getByRole('region', { name: /shown only once/ }).waitFor();
    },
    TEST_TIMEOUT,
  );

  it(
    'an ESP ID the server refuses is named beside the field in plain words',
    async () => {
      const mac = await seed.announce();
      const page = await openAssign();
      await chooseMac(page, mac);
      const espId = page.getByLabel('ESP ID', { exact: true });
      await espId.fill('bad id/1');
      await page.getByRole('button', { name: 'Assign ID' }).click();
      await page.locator('input[aria-invalid="true"]').waitFor();
      const note = page.locator(`[id="${await espId.getAttribute('aria-describedby')}"]`);
      expect(await note.innerText()).toMatch(/^Enter an ESP ID of letters, digits/);
      const result = page.locator('.status-text');
      expect(await result.innerText()).toBe('Error: Check the marked fields.');
      expect(await colorOf(result)).toBe(RED);
      expect(await page.locator('main').innerText()).not.toContain('espId:');
    },
    TEST_TIMEOUT,
  );

  it(
    'the page speaks Kiswahili once it is chosen',
    async () => {
      const page = await openAssign();
      await chooseLanguage(page, 'sw');
      await page.getByRole('heading', { name: 'Weka ESP ID kwa Anwani ya MAC' }).waitFor();
      await page.getByLabel('Chagua Anwani ya MAC').waitFor();
      expect(await page.getByLabel('ESP ID', { exact: true }).getAttribute('placeholder')).toBe('Weka ESP ID');
      await page.getByLabel('ESP ID', { exact: true }).fill(randomEspId());
      await page.getByRole('button', { name: 'Weka ID' }).click();
      expect(await page.getByRole('alert').innerText()).toBe('Tafadhali chagua anwani ya MAC.');
      await page.getByRole('navigation', { name: 'Kuu' }).getByRole('link', { name: 'Mipangilio' }).click();
      await page.getByRole('heading', { name: 'Mipangilio', level: 1 }).waitFor();
      await page.getByRole('heading', { name: 'Kivinjari hiki' }).waitFor();
      await chooseLanguage(page, 'en');
    },
    TEST_TIMEOUT,
  );

  it(
    "an ESP ID already in use is refused (409): the message starts 'Error: ' and is red",
    async () => {
      const { espId: taken } = await seed.createDevice(adminToken);
      const mac = await seed.announce();
      const page = await openAssign();
      await chooseMac(page, mac);
      await page.getByLabel('ESP ID', { exact: true }).fill(taken);
      await page.getByRole('button', { name: 'Assign ID' }).click();

      const result = page.getByRole('alert');
      await result.waitFor();
      const text = await result.innerText();
      expect(text).toMatch(/^Error: \S/);
      expect(text).not.toBe('Error: Something went wrong');
      expect(await colorOf(result.locator('.status-text'))).toBe(RED);
      expect(await page.getByRole('region', { name: /shown only once/ }).count()).toBe(0);
    },
    TEST_TIMEOUT,
  );
});
