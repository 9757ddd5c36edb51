import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import type { Browser, Page } from 'playwright-core';
import type { RunningServer } from '../../api/test/support/server-process.js';
import {
  DESKTOP,
  openTab,
  PHONE,
  SETUP_TIMEOUT,
  signIn,
  storedSession,
  TEST_TIMEOUT,
  waitForPath,
  type Tab,
} from './support/browser.js';
import { inKiswahili } from './support/language.js';
import { closeSuite, openSuite } from './support/suite.js';
import type { Account, Seeder } from './support/seed.js';

/** The web app's lead time before the session ends (SESSION_WARNING_LEAD_MS in apps/web/src/lib/session.ts). */
const LEAD_MS = 2 * 60_000;
const SESSION_MS = 20 * 60_000;

/**
 * My Account's password change for every role, and the warning before the session ends with Stay signed in
 * (docs/web-app.md, "Behaviour"). The page's clock is Playwright's, so twenty minutes pass in a moment.
 */
describe('password change and session warning', () => {
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

  const tab = async (viewport: { width: number; height: number }) => {
    const opened = await openTab(browser, server.baseUrl, viewport);
    tabs.push(opened);
    return opened;
  };

  const newManager = async (): Promise<Account> => {
    const device = await seed.createDevice(adminToken);
    return seed.createManager(adminToken, device.espId);
  };

  const changePassword = async (page: Page, current: string, next: string, confirm = next) => {
    const card = page.getByRole('region', { name: 'Change password' });
    await card.getByLabel('Current password').fill(current);
    await card.getByLabel('New password', { exact: true }).fill(next);
    await card.getByLabel('Confirm new password').fill(confirm);
    await card.getByRole('button', { name: 'Change password' }).click();
    return card;
  };

  for (const [size, viewport] of [
    ['desktop', DESKTOP],
    ['phone', PHONE],
  ] as const) {
    it(
      `a manager changes their password on My Account at ${size} size: problems beside the fields, other sessions end, the old password is refused`,
      async () => {
        const manager = await newManager();
        const elsewhere = await seed.login(manager.email, manager.password);
        const { page, pageErrors } = await tab(viewport);
        await signIn(page, manager.email, manager.password, '/manager/dashboard');
        await page.goto('/manager/profile/acc');

        let card = await changePassword(page, manager.password, 'new-secret-1', 'new-secret-2');
        expect(await card.getByRole('alert').innerText()).toBe('The passwords do not match.');
        card = await changePassword(page, manager.password, 'short');
        expect(await card.getByRole('alert').innerText()).toBe('The new password needs at least 8 characters.');
        card = await changePassword(page, 'not-my-password', 'new-secret-1');
        await card.getByRole('alert').filter({ hasText: 'The current password is not correct.' }).waitFor();
        // The refusal sits under the current password's field.
        expect(await card.getByLabel('Current password').getAttribute('aria-invalid')).toBe('true');

        const before = (await storedSession(page)).token;
        card = await changePassword(page, manager.password, 'new-secret-1');
        await card
          .getByRole('status')
          .filter({ hasText: 'Your password is changed. You were signed out everywhere else.' })
          .waitFor();
        const after = (await storedSession(page)).token;
        expect(after).not.toBe(before);
        // This page stays signed in; the session elsewhere has ended.
        await page.reload();
        await page.getByText(manager.email).waitFor();
        await expect(seed.get('/user/info', elsewhere)).rejects.toThrow(/401/);
        expect(await seed.loginStatus(manager.email, manager.password)).toBe(401);
        expect(await seed.loginStatus(manager.email, 'new-secret-1')).toBe(200);

        // The old password at the sign-in form.
        const other = await tab(viewport);
        await other.page.goto('/login');
        await other.page.getByLabel('Email or Phone Number').fill(manager.email);
        await other.page.getByLabel('Password').fill(manager.password);
        await other.page.getByRole('button', { name: 'Log In' }).click();
        await other.page
          .getByRole('alert')
          .filter({ hasText: 'Login failed: Invalid email/phone or password' })
          .waitFor();
        expect(pageErrors).toEqual([]);
      },
      TEST_TIMEOUT,
    );
  }

  it(
    'an attendant has My Account with the password change; the admin’s Profile has it too',
    async () => {
      const device = await seed.createDevice(adminToken);
      const manager = await seed.createManager(adminToken, device.espId);
      const attendant = await seed.createAttendant(await seed.login(manager.email, manager.password), device.espId);
      const { page } = await tab(PHONE);
      await signIn(page, attendant.email, attendant.password, '/att/manager/dashboard');
      await page.goto('/att/account');
      await page.getByRole('heading', { name: 'My Account' }).waitFor();
      const card = await changePassword(page, attendant.password, 'attendant-new-1');
      await card.getByRole('status').filter({ hasText: 'Your password is changed.' }).waitFor();
      expect(await seed.loginStatus(attendant.email, 'attendant-new-1')).toBe(200);
      expect(await seed.loginStatus(attendant.email, attendant.password)).toBe(401);

      const admin = await tab(DESKTOP);
      await signIn(admin.page, server.admin.email, server.admin.password, '/maindashboard');
      await admin.page.goto('/admin/profile');
      await admin.page.getByRole('region', { name: 'Change password' }).getByLabel('Current password').waitFor();
    },
    TEST_TIMEOUT,
  );

  for (const [size, viewport] of [
    ['desktop', DESKTOP],
    ['phone', PHONE],
  ] as const) {
    it(
      `warns two minutes before the session ends and Stay signed in replaces the token, at ${size} size`,
      async () => {
        const manager = await newManager();
        const { page, pageErrors } = await tab(viewport);
        await page.clock.install();
        await signIn(page, manager.email, manager.password, '/manager/dashboard');
        await page.goto('/manager/profile/acc');
        await page.getByText(manager.email).waitFor();
        const first = await storedSession(page);

        await page.clock.fastForward(SESSION_MS - LEAD_MS - 15_000);
        await page.clock.runFor(1_000);
        const warning = page.getByRole('alertdialog', { name: 'Your session is ending' });
        expect(await warning.count()).toBe(0);
        await page.clock.runFor(16_000);
        await warning.waitFor();
        const countdown = async () => /ends in (\d+:\d\d)/.exec(await warning.innerText())?.[1];
        const shown = await countdown();
        await page.clock.runFor(1_000);
        // The countdown is live: a second later it shows a second less.
        const seconds = (text?: string) => Number(text!.split(':')[0]) * 60 + Number(text!.split(':')[1]);
        const later = seconds(await countdown());
        expect(later).toBeLessThan(seconds(shown));
        expect(later).toBeGreaterThanOrEqual(seconds(shown) - 3);
        expect(seconds(shown)).toBeLessThanOrEqual(120);
        // The focus is on the alert's first choice.
        expect(await page.evaluate(() => document.activeElement?.textContent)).toBe('Stay signed in');

        await warning.getByRole('button', { name: 'Stay signed in' }).click();
        await warning.waitFor({ state: 'detached' });
        const renewed = await storedSession(page);
        expect(renewed.token).not.toBe(first.token);
        expect(Number(renewed.tokenExpiry)).toBeGreaterThan(Number(first.tokenExpiry) + LEAD_MS);
        // The page keeps working with the new token, and the warning stays away until the new end nears.
        await page.reload();
        await page.getByText(manager.email).waitFor();
        expect(await seed.get('/user/info', renewed.token!)).toMatchObject({ email: manager.email });
        await page.clock.runFor(5_000);
        expect(await warning.count()).toBe(0);
        expect(pageErrors).toEqual([]);
      },
      TEST_TIMEOUT,
    );
  }

  it(
    'signs out at the end of the countdown and says so on /login',
    async () => {
      const manager = await newManager();
      const { page } = await tab(DESKTOP);
      await page.clock.install();
      await signIn(page, manager.email, manager.password, '/manager/dashboard');
      await page.clock.fastForward(SESSION_MS - LEAD_MS + 1_000);
      const warning = page.getByRole('alertdialog', { name: 'Your session is ending' });
      await warning.waitFor();
      await page.clock.fastForward(LEAD_MS);
      await page.clock.runFor(1_000);
      await waitForPath(page, '/login');
      await page.getByRole('status').filter({ hasText: 'Your session ended. Sign in again to continue.' }).waitFor();
      expect(await storedSession(page)).toEqual({ token: null, role: null, tokenExpiry: null });
    },
    TEST_TIMEOUT,
  );

  it(
    'Sign out in the warning ends the session at once, reached from the keyboard',
    async () => {
      const manager = await newManager();
      const { page } = await tab(PHONE);
      await page.clock.install();
      await signIn(page, manager.email, manager.password, '/manager/dashboard');
      await page.clock.fastForward(SESSION_MS - LEAD_MS + 1_000);
      await page.getByRole('alertdialog', { name: 'Your session is ending' }).waitFor();
      // The focus starts on Stay signed in; Tab moves to Sign out.
      await page.keyboard.press('Tab');
      expect(await page.evaluate(() => document.activeElement?.textContent)).toBe('Sign out');
      await page.keyboard.press('Enter');
      await waitForPath(page, '/login');
      expect((await storedSession(page)).token).toBeNull();
      expect(await page.getByText('Your session ended.').count()).toBe(0);
    },
    TEST_TIMEOUT,
  );

  it(
    'speaks Kiswahili on the sign-in form and in the session warning',
    async () => {
      const manager = await newManager();
      const { page, pageErrors } = await tab(DESKTOP);
      await page.clock.install();
      await page.goto('/login');
      await page.evaluate(() => localStorage.setItem('language', 'sw'));
      await page.reload();
      await page.getByRole('heading', { name: 'Ingia' }).waitFor();
      await page.getByLabel('Barua pepe au Namba ya Simu').fill(manager.email);
      await page.getByLabel('Nenosiri').fill('wrong-password');
      await page.getByRole('button', { name: 'Ingia' }).click();
      await page
        .getByRole('alert')
        .filter({ hasText: 'Kuingia kumeshindikana: Barua pepe/simu au nenosiri si sahihi' })
        .waitFor();
      await page.getByLabel('Nenosiri').fill(manager.password);
      await page.getByRole('button', { name: 'Ingia' }).click();
      await waitForPath(page, '/manager/dashboard');
      // After sign-in the app takes on the user's saved language (English); choose Kiswahili again.
      await inKiswahili(page);
      await page.getByRole('link', { name: 'Akaunti Yangu' }).first().waitFor({ state: 'attached' });
      await page.clock.fastForward(SESSION_MS - LEAD_MS + 1_000);
      expect(pageErrors).toEqual([]);
      const warning = page.getByRole('alertdialog', { name: 'Muda wako wa kuingia unaisha' });
      await warning.getByRole('button', { name: 'Endelea kuingia' }).waitFor();
      expect(await warning.innerText()).toMatch(/Muda wako wa kuingia unaisha baada ya 1:5\d\./);
    },
    TEST_TIMEOUT,
  );
});
