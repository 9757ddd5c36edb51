import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import type { Browser, Page } from 'playwright-core';
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
import { eventually, Seeder, type Account } from './support/seed.js';

describe('float: Request Float, Float Approval, and the live notice on the manager’s screens', () => {
  let server: RunningServer;
  let browser: Browser;
  let seed: Seeder;
  let adminToken: string;
  let manager: Account;
  let managerToken: string;
  const tabs: Tab[] = [];

  beforeAll(async () => {
    ({ server, browser, seed, adminToken } = await openSuite());
    const first = await seed.createDevice(adminToken);
    manager = await seed.createManager(adminToken, first.espId);
    managerToken = await seed.login(manager.email, manager.password);
  }, SETUP_TIMEOUT);

  afterAll(async () => {
    await closeSuite({ server, browser, tabs });
  }, SETUP_TIMEOUT);

  /** A new machine of the manager's with its attendant (one attendant per machine). */
  const newAttendant = async () => {
    const machine = await seed.createDevice(adminToken);
    await seed.addDevice(adminToken, manager.userId, machine.espId);
    const attendant = await seed.createAttendant(managerToken, machine.espId);
    return { attendant, token: await seed.login(attendant.email, attendant.password) };
  };

  const open = async (account: Account, landing: string, viewport?: { width: number; height: number }) => {
    const opened = await openTab(browser, server.baseUrl, viewport);
    tabs.push(opened);
    await signIn(opened.page, account.email, account.password, landing);
    return opened;
  };

  const historyRow = (page: Page, amount: string) =>
    page.getByRole('table').locator('tbody tr').filter({ hasText: amount });

  it(
    "Request Float: 'Float request submitted successfully', the field clears, the history shows it with 'N/A', and the manager's decision arrives live",
    async () => {
      const { attendant, token } = await newAttendant();
      const { page, pageErrors } = await open(attendant, '/att/manager/dashboard');
      await page.goto('/att/manager/float');
      await page.getByRole('heading', { name: 'Request Float', exact: true, level: 1 }).waitFor();
      await page.getByText('No float requests found.', { exact: true }).waitFor();

      await page.getByLabel('Request Float Amount').fill('3000');
      await page.getByRole('button', { name: 'Request Float' }).click();
      const success = page.getByText('Float request submitted successfully', { exact: true });
      await success.waitFor();
      expect(await colorOf(success)).toBe(GREEN);
      expect(await page.getByLabel('Request Float Amount').inputValue()).toBe('');

      // The history replaces 'No float requests found.' once it is fetched again, which may be after the message.
      const table = page.getByRole('table');
      await table.waitFor();
      expect(await table.locator('thead th').allInnerTexts()).toEqual([
        'Requested Amount',
        'Approved Amount',
        'Status',
        'Requested At',
        'Approved At',
      ]);
      const row = historyRow(page, 'TZS 3,000');
      await row.waitFor();
      const cells = await row.locator('td').allInnerTexts();
      expect(cells[0]).toBe('TZS 3,000');
      expect(cells[1]).toBe('N/A');
      expect(cells[2].toLowerCase()).toBe('pending');
      expect(cells[3]).not.toBe('');
      expect(cells[4]).toBe('N/A');

      // The manager approves 2,500 of it elsewhere: the row changes without a reload.
      await page.evaluate(() => ((window as any).__noReload = true));
      const [request] = await seed.attendantFloatRequests(token);
      await seed.assignFloat(managerToken, attendant.userId, 2500, request.requestId);
      await row.getByText('approved').waitFor({ timeout: 15_000 });
      const after = await row.locator('td').allInnerTexts();
      expect(after[1]).toBe('TZS 2,500');
      expect(after[4]).not.toBe('N/A');
      await page.getByText('TZS 2,500').first().waitFor();
      expect(await page.evaluate(() => (window as any).__noReload)).toBe(true);
      expect(pageErrors).toEqual([]);
    },
    TEST_TIMEOUT,
  );

  it(
    "Request Float refusals: a refused amount beside the field in plain words, 'Error: ' with the server's text in red, and 'Error submitting float request' when nothing answers",
    async () => {
      const { attendant } = await newAttendant();
      const { page } = await open(attendant, '/att/manager/dashboard', PHONE);
      await page.goto('/att/manager/float');
      await page.getByText('No float requests found.').waitFor();

      const amount = page.getByLabel('Request Float Amount');
      await amount.fill('0');
      await page.getByRole('button', { name: 'Request Float' }).click();
      await page.locator('input[aria-invalid="true"]').waitFor();
      const note = page.locator(`[id="${await amount.getAttribute('aria-describedby')}"]`);
      expect(await note.innerText()).toBe('Enter an amount above 0 with at most 2 decimals.');
      expect(await page.locator('main').innerText()).not.toContain('amount:');

      await page.route('**/api/attendant/request-float', (route) =>
        route.fulfill({
          status: 409,
          json: { statusCode: 409, code: 'Conflict', message: 'A request is already waiting' },
        }),
      );
      await amount.fill('100');
      expect(await amount.getAttribute('aria-invalid')).toBeNull();
      await page.getByRole('button', { name: 'Request Float' }).click();
      const refused = page.getByRole('alert');
      await refused.waitFor();
      expect(await refused.innerText()).toBe('Error: A request is already waiting');
      expect(await colorOf(refused.locator('.status-text'))).toBe(RED);

      await page.unroute('**/api/attendant/request-float');
      await page.route('**/api/attendant/request-float', (route) => route.abort());
      await page.getByLabel('Request Float Amount').fill('100');
      await page.getByRole('button', { name: 'Request Float' }).click();
      await page.getByText('Error submitting float request', { exact: true }).waitFor();
      expect(await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth)).toBe(0);
    },
    TEST_TIMEOUT,
  );

  it(
    "Float Approval: Attendant ID and Requested Float; 'Assign Float' with an edited amount; Reject; 'No float requests pending'",
    async () => {
      const one = await newAttendant();
      const two = await newAttendant();
      await seed.requestFloat(one.token, 1000);
      await seed.requestFloat(two.token, 2000);

      const { page, pageErrors } = await open(manager, '/manager/dashboard');
      await page.goto('/manager/approv/float');
      await page.getByRole('heading', { name: 'Float Approval' }).waitFor();
      const first = page.getByRole('listitem').filter({ hasText: one.attendant.userId });
      const second = page.getByRole('listitem').filter({ hasText: two.attendant.userId });
      await first.waitFor();
      expect(await first.innerText()).toMatch(new RegExp(`Attendant ID\\s+${one.attendant.userId}`));
      expect(await first.innerText()).toMatch(/Requested Float\s+TZS 1,000/);
      // The amount to assign starts at the requested amount.
      expect(await first.getByLabel('Amount to assign').inputValue()).toBe('1000');
      expect(await second.getByLabel('Amount to assign').inputValue()).toBe('2000');

      await first.getByLabel('Amount to assign').fill('800');
      const assigned = page.waitForRequest((r) => r.url().endsWith('/api/manager/assign-float'));
      await first.getByRole('button', { name: 'Assign Float' }).click();
      const success = page.getByText('Float assigned successfully', { exact: true });
      await success.waitFor();
      expect(await colorOf(success)).toBe(GREEN);
      expect((await assigned).headers()['idempotency-key']).toBeTruthy();
      await first.waitFor({ state: 'detached' });
      const [approved] = await seed.attendantFloatRequests(one.token);
      expect(approved).toEqual(expect.objectContaining({ status: 'approved', approvedAmount: 800 }));

      await second.getByRole('button', { name: 'Reject' }).click();
      await second.waitFor({ state: 'detached' });
      await page.getByText('No float requests pending', { exact: true }).waitFor();
      const [rejected] = await seed.attendantFloatRequests(two.token);
      expect(rejected.status).toBe('rejected');
      expect(pageErrors).toEqual([]);
    },
    TEST_TIMEOUT,
  );

  it(
    "Float Approval errors: 'Error: {text}', 'Error assigning float', 'Error fetching float requests'",
    async () => {
      const { attendant, token } = await newAttendant();
      await seed.requestFloat(token, 1500);
      const { page } = await open(manager, '/manager/dashboard');
      await page.route('**/api/manager/assign-float', (route) =>
        route.fulfill({
          status: 409,
          json: { statusCode: 409, code: 'FloatNotPending', message: 'The float request is no longer pending' },
        }),
      );
      await page.goto('/manager/approv/float');
      const item = page.getByRole('listitem').filter({ hasText: attendant.userId });
      await item.getByRole('button', { name: 'Assign Float' }).click();
      const refused = page.getByText('Error: The float request is no longer pending', { exact: true });
      await refused.waitFor();
      expect(await colorOf(refused)).toBe(RED);

      await page.unroute('**/api/manager/assign-float');
      await page.route('**/api/manager/assign-float', (route) => route.abort());
      await item.getByRole('button', { name: 'Assign Float' }).click();
      await page.getByText('Error assigning float', { exact: true }).waitFor();
      // Still pending on the server.
      expect((await seed.managerFloatRequests(managerToken)).some((r) => r.attendantId === attendant.userId)).toBe(
        true,
      );

      await page.route('**/api/manager/float-requests', (route) => route.abort());
      await page.reload();
      await page.getByText('Error fetching float requests', { exact: true }).waitFor();
    },
    TEST_TIMEOUT,
  );

  it(
    'Request Float and Float Approval speak Kiswahili once it is chosen',
    async () => {
      const { attendant, token } = await newAttendant();
      await seed.requestFloat(token, 3000);
      const asAttendant = await open(attendant, '/att/manager/dashboard');
      await asAttendant.page.goto('/att/manager/float');
      await chooseLanguage(asAttendant.page, 'sw');
      await asAttendant.page.getByRole('heading', { name: 'Omba Floti', level: 1 }).waitFor();
      await asAttendant.page.getByLabel('Kiasi cha Floti Unachoomba').waitFor();
      await asAttendant.page.getByRole('columnheader', { name: 'Kiasi Kilichoombwa' }).waitFor();
      await asAttendant.page.getByText('linasubiri', { exact: true }).first().waitFor();
      await chooseLanguage(asAttendant.page, 'en');

      const asManager = await open(manager, '/manager/dashboard');
      await asManager.page.goto('/manager/approv/float');
      await chooseLanguage(asManager.page, 'sw');
      await asManager.page.getByRole('heading', { name: 'Idhinisha Floti', level: 1 }).waitFor();
      const card = asManager.page.getByRole('listitem', {
        name: `Ombi la floti kutoka kwa ${attendant.firstName} ${attendant.lastName}`,
      });
      await card.getByRole('button', { name: 'Toa Floti' }).waitFor();
      await card.getByRole('button', { name: 'Kataa' }).click();
      await card.waitFor({ state: 'detached' });
      await chooseLanguage(asManager.page, 'en');
    },
    TEST_TIMEOUT,
  );

  it(
    'a manager on any page gets a notice and a live pending count when an attendant requests float',
    async () => {
      const { attendant, token } = await newAttendant();
      const { page, pageErrors } = await open(manager, '/manager/dashboard');
      await page.goto('/manager/profile/acc');
      await page.getByRole('heading', { name: 'My Account' }).waitFor();
      // The live connection is up (the notice area says so) before the attendant asks.
      await page.locator('.notices[data-live="live"]').waitFor({ state: 'attached' });
      const approve = page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: /Approve Float/ });
      const badge = async () =>
        (await approve.locator('.nav-badge').count()) ? Number(await approve.locator('.nav-badge').innerText()) : 0;
      // Other tests may have left requests pending: the badge counts them.
      const before = (await seed.managerFloatRequests(managerToken)).length;
      await eventually(badge, (count) => count === before);

      await seed.requestFloat(token, 1234);
      const notice = page.getByRole('status', { name: 'New float request' });
      await notice.waitFor({ timeout: 15_000 });
      expect(await notice.innerText()).toContain(
        `New float request: ${attendant.firstName} ${attendant.lastName} asked for TZS 1,234.`,
      );
      await eventually(badge, (count) => count === before + 1);
      expect(await approve.getAttribute('href')).toBe('/manager/approv/float');

      await notice.getByRole('link', { name: 'Review' }).click();
      await waitForPath(page, '/manager/approv/float');
      await page.getByRole('listitem').filter({ hasText: attendant.userId }).waitFor();
      expect(await page.getByRole('status', { name: 'New float request' }).count()).toBe(0);

      // Approved elsewhere: the count goes down live.
      await seed.assignFloat(managerToken, attendant.userId, 1234);
      await eventually(badge, (count) => count === before);
      expect(pageErrors).toEqual([]);
    },
    TEST_TIMEOUT,
  );
});
