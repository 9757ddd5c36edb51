import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import type { Browser } from 'playwright-core';
import { SESSION_EXPIRY_MS } from '@wv/contracts';
import type { RunningServer } from '../../api/test/support/server-process.js';
import {
  openTab,
  pathOf,
  SETUP_TIMEOUT,
  signIn,
  storedSession,
  TEST_TIMEOUT,
  waitForPath,
  type Tab,
} from './support/browser.js';
import { closeSuite, openSuite } from './support/suite.js';
import type { Account } from './support/seed.js';

describe('signing in, the route guards and signing out', () => {
  let server: RunningServer;
  let browser: Browser;
  let manager: Account;
  let attendant: Account;
  let managerDevice: string;
  const tabs: Tab[] = [];

  const tab = async () => {
    const opened = await openTab(browser, server.baseUrl);
    tabs.push(opened);
    return opened;
  };

  beforeAll(async () => {
    const suite = await openSuite();
    ({ server, browser } = suite);
    const { seed, adminToken } = suite;
    managerDevice = (await seed.createDevice(adminToken)).espId;
    manager = await seed.createManager(adminToken, managerDevice);
    attendant = await seed.createAttendant(await seed.login(manager.email, manager.password), managerDevice);
  }, SETUP_TIMEOUT);

  afterAll(async () => {
    await closeSuite({ server, browser, tabs });
  }, SETUP_TIMEOUT);

  it(
    'an admin lands on /maindashboard with token, role and a 20-minute expiry stored',
    async () => {
      const { page } = await tab();
      const before = Date.now();
      await signIn(page, server.admin.email, server.admin.password, '/maindashboard');
      const session = await storedSession(page);
      expect(session.role).toBe('admin');
      expect(session.token).toMatch(/^[\w-]+\.[\w-]+\.[\w-]+$/);
      const expiry = Number(session.tokenExpiry);
      expect(expiry).toBeGreaterThanOrEqual(before + SESSION_EXPIRY_MS);
      expect(expiry).toBeLessThanOrEqual(Date.now() + SESSION_EXPIRY_MS);
      await page.getByRole('heading', { name: 'Dashboard' }).waitFor();
      await page.getByText(managerDevice).waitFor();
    },
    TEST_TIMEOUT,
  );

  it(
    'a manager signs in by phone number and lands on /manager/dashboard with their machine',
    async () => {
      const { page } = await tab();
      await signIn(page, manager.phoneNumber, manager.password, '/manager/dashboard');
      expect((await storedSession(page)).role).toBe('manager');
      await page.getByRole('link', { name: new RegExp(managerDevice) }).waitFor();
    },
    TEST_TIMEOUT,
  );

  it(
    'an attendant lands on /att/manager/dashboard (Add Card)',
    async () => {
      const { page } = await tab();
      await signIn(page, attendant.email, attendant.password, '/att/manager/dashboard');
      expect((await storedSession(page)).role).toBe('attendant');
      await page.getByRole('heading', { name: 'Add Card' }).waitFor();
      await page.getByText(managerDevice).waitFor();
    },
    TEST_TIMEOUT,
  );

  it(
    "a wrong password shows 'Login failed: ' with the server's sentence and stores nothing",
    async () => {
      const { page } = await tab();
      await page.goto('/login');
      await page.getByLabel('Email or Phone Number').fill(manager.email);
      await page.getByLabel('Password').fill('not-the-password');
      await page.getByRole('button', { name: 'Log In' }).click();
      const alert = page.getByRole('alert');
      await alert.waitFor();
      expect(await alert.innerText()).toBe('Login failed: Invalid email/phone or password');
      expect(pathOf(page)).toBe('/login');
      expect(await storedSession(page)).toEqual({ token: null, role: null, tokenExpiry: null });
    },
    TEST_TIMEOUT,
  );

  it(
    'a manager opening the admin-only /maindashboard is sent to /',
    async () => {
      const { page } = await tab();
      await signIn(page, manager.email, manager.password, '/manager/dashboard');
      await page.goto('/maindashboard');
      await waitForPath(page, '/');
      await page.getByRole('button', { name: 'Continue' }).waitFor();
      // The session itself is untouched: only the route was refused.
      expect((await storedSession(page)).role).toBe('manager');
    },
    TEST_TIMEOUT,
  );

  it(
    'a guarded route without a session goes to /login',
    async () => {
      const { page } = await tab();
      await page.goto('/manager/profile/acc');
      await waitForPath(page, '/login');
      await page.getByRole('heading', { name: 'Log In' }).waitFor();
    },
    TEST_TIMEOUT,
  );

  it(
    'the 60-second check sends an expired session to /login and clears it',
    async () => {
      const { page } = await tab();
      await page.clock.install();
      await signIn(page, server.admin.email, server.admin.password, '/maindashboard');
      // The guard has passed once (the page is shown) before the session is made to expire.
      await page.getByRole('heading', { name: 'Dashboard' }).waitFor();
      await page.evaluate(() => localStorage.setItem('tokenExpiry', String(Date.now() - 1000)));
      // Nothing happens before the next check…
      await page.clock.runFor(1_000);
      expect(pathOf(page)).toBe('/maindashboard');
      // …and the check that follows within 60 seconds signs the user out.
      await page.clock.fastForward(60_000);
      await waitForPath(page, '/login');
      expect(await storedSession(page)).toEqual({ token: null, role: null, tokenExpiry: null });
    },
    TEST_TIMEOUT,
  );

  it(
    'a call answered 401 (a token the server rejects) clears the session and goes to /login',
    async () => {
      const { page } = await tab();
      await page.goto('/');
      await page.evaluate((expiry) => {
        localStorage.setItem('token', 'aaa.bbb.ccc');
        localStorage.setItem('role', 'admin');
        localStorage.setItem('tokenExpiry', String(expiry));
      }, Date.now() + 60_000);
      await page.goto('/admin/users');
      await waitForPath(page, '/login');
      expect((await storedSession(page)).token).toBeNull();
    },
    TEST_TIMEOUT,
  );

  it(
    'logout asks first: Cancel goes back one page, Logout clears the session and goes to /login',
    async () => {
      const { page } = await tab();
      await signIn(page, manager.email, manager.password, '/manager/dashboard');
      await page.getByRole('link', { name: 'Logout' }).click();
      await waitForPath(page, '/logout');
      await page.getByText('Are you sure you want to log out?').waitFor();
      await page.getByRole('button', { name: 'Cancel' }).click();
      await waitForPath(page, '/manager/dashboard');

      await page.getByRole('link', { name: 'Logout' }).click();
      await page.getByRole('button', { name: 'Logout' }).click();
      await waitForPath(page, '/login');
      expect(await storedSession(page)).toEqual({ token: null, role: null, tokenExpiry: null });
      await page.goto('/manager/dashboard');
      await waitForPath(page, '/login');
    },
    TEST_TIMEOUT,
  );
});
