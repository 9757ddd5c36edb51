import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import type { Browser, Page } from 'playwright-core';
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
import { chooseLanguage } from './support/language.js';
import type { Account } from './support/seed.js';

describe('navigation bar and phone-sized screens', () => {
  let server: RunningServer;
  let browser: Browser;
  let manager: Account;
  const tabs: (Tab & { pageErrors: string[] })[] = [];

  beforeAll(async () => {
    const suite = await openSuite();
    ({ server, browser } = suite);
    const { seed, adminToken } = suite;
    manager = await seed.createManager(adminToken, (await seed.createDevice(adminToken)).espId);
  }, SETUP_TIMEOUT);

  afterAll(async () => {
    await closeSuite({ server, browser, tabs });
  }, SETUP_TIMEOUT);

  const open = async (viewport: { width: number; height: number }) => {
    const opened = await openTab(browser, server.baseUrl, viewport);
    tabs.push(opened);
    return opened;
  };

  /** Inside the viewport, not just present in the DOM. */
  const onScreen = async (page: Page, name: string) => {
    const link = page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name, exact: true });
    if (!(await link.isVisible())) return false;
    const box = await link.boundingBox();
    const { width, height } = page.viewportSize()!;
    return !!box && box.x >= 0 && box.x + box.width <= width && box.y >= 0 && box.y + box.height <= height;
  };

  it(
    "on a phone the menu slides in, and the manager's Management drop-down leads to Add Attendant",
    async () => {
      const { page } = await open(PHONE);
      await signIn(page, manager.email, manager.password, '/manager/dashboard');
      expect(await onScreen(page, 'My Account')).toBe(false);

      await page.getByRole('button', { name: 'Open menu' }).click();
      await page.waitForFunction(() => {
        const menu = document.getElementById('main-menu')!.getBoundingClientRect();
        return menu.right <= window.innerWidth + 0.5 && menu.left >= 0;
      });
      expect(await onScreen(page, 'My Account')).toBe(true);
      expect(await onScreen(page, 'Logout')).toBe(true);

      await page.getByRole('button', { name: 'Management' }).click();
      expect(await onScreen(page, 'Remove Attendant')).toBe(true);
      await page.getByRole('link', { name: 'Add Attendant' }).click();
      await waitForPath(page, '/manager/attendant/register');
      // Navigating closes the menu again.
      await page.getByRole('button', { name: 'Open menu' }).waitFor();
      await page.waitForFunction(() => getComputedStyle(document.getElementById('main-menu')!).visibility === 'hidden');
      expect(await onScreen(page, 'My Account')).toBe(false);
    },
    TEST_TIMEOUT,
  );

  it(
    'on a desktop the menu is inline, without the menu button',
    async () => {
      const { page } = await open(DESKTOP);
      await signIn(page, manager.email, manager.password, '/manager/dashboard');
      expect(await page.getByRole('button', { name: 'Open menu' }).isVisible()).toBe(false);
      expect(await onScreen(page, 'My Account')).toBe(true);
      expect(await onScreen(page, 'Logout')).toBe(true);
      expect(await onScreen(page, 'Add Attendant')).toBe(false);
      await page.getByRole('button', { name: 'Management' }).click();
      expect(await onScreen(page, 'Add Attendant')).toBe(true);
    },
    TEST_TIMEOUT,
  );

  it(
    'the menu, its drop-down and the footer speak Kiswahili once it is chosen',
    async () => {
      const { page } = await open(PHONE);
      await signIn(page, manager.email, manager.password, '/manager/dashboard');
      await page.goto('/manager/machine/usage');
      await chooseLanguage(page, 'sw');
      await page.getByRole('button', { name: 'Fungua menyu' }).click();
      const menu = page.getByRole('navigation', { name: 'Kuu' });
      await menu.getByRole('link', { name: 'Akaunti Yangu', exact: true }).waitFor();
      await menu.getByRole('link', { name: 'Toka', exact: true }).waitFor();
      await menu.getByRole('button', { name: 'Usimamizi' }).click();
      await menu.getByRole('link', { name: 'Ongeza Mhudumu' }).click();
      await waitForPath(page, '/manager/attendant/register');
      await page.getByRole('heading', { name: 'Sajili Mhudumu Mpya' }).waitFor();
      expect(await page.getByRole('button', { name: 'Fungua menyu' }).isVisible()).toBe(true);
      expect(await page.getByRole('link', { name: 'Ruka hadi maudhui' }).count()).toBe(1);
      await chooseLanguage(page, 'en');
    },
    TEST_TIMEOUT,
  );

  it(
    'the footer carries the current year and Water Vending Solutions',
    async () => {
      const { page } = await open(PHONE);
      await page.goto('/');
      const footer = page.getByRole('contentinfo');
      expect(await footer.innerText()).toBe(`© ${new Date().getFullYear()} Water Vending Solutions`);
    },
    TEST_TIMEOUT,
  );

  it(
    "the manager's pages fit a 390-pixel-wide screen without sideways scrolling",
    async () => {
      const { page, pageErrors } = await open(PHONE);
      await signIn(page, manager.email, manager.password, '/manager/dashboard');
      for (const path of ['/manager/dashboard', '/manager/attendant/register', '/manager/profile/acc', '/logout']) {
        await page.goto(path);
        await page.getByRole('heading', { level: 1 }).waitFor();
        await page.waitForLoadState('networkidle');
        const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
        expect({ path, overflow }).toEqual({ path, overflow: 0 });
      }
      expect(pageErrors).toEqual([]);
    },
    TEST_TIMEOUT,
  );
});
