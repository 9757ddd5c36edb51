import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import ExcelJS from 'exceljs';
import type { Browser, Page } from 'playwright-core';
import { CARD_EXPORT_COLUMNS, COIN_EXPORT_COLUMNS } from '@wv/contracts';
import type { RunningServer } from '../../api/test/support/server-process.js';
import { colorOf, openTab, PHONE, RED, SETUP_TIMEOUT, signIn, TEST_TIMEOUT, type Tab } from './support/browser.js';
import { closeSuite, openSuite } from './support/suite.js';
import { businessDay, cardSale, coinSale, daysBefore, timesToday } from './support/sales.js';
import { eventually, Seeder, type Account, type Machine } from './support/seed.js';

const COUNT = 30;
/** A price order unlike the time order: sale i costs ((7i + 3) mod 30 + 1) × 100, a permutation of 100…3000. */
const priceOf = (i: number) => (((7 * i + 3) % COUNT) + 1) * 100;
const money = (n: number) => `TZS ${n.toLocaleString('en-US', { minimumFractionDigits: 2 })}`;

describe('machine transactions: paging, sorting, rows per page, dates and export', () => {
  let server: RunningServer;
  let browser: Browser;
  let seed: Seeder;
  let manager: Account;
  let managerToken: string;
  let machine: Machine;
  const tabs: Tab[] = [];

  const listed = (kind: 'coin' | 'card', total: number) =>
    eventually(
      () => seed.get<{ total: number }>(`/machines/${machine.espId}/${kind}-transactions?limit=10`, managerToken),
      (page) => page.total === total,
    );

  beforeAll(async () => {
    const suite = await openSuite();
    ({ server, browser, seed } = suite);
    const { adminToken } = suite;
    machine = await seed.createDevice(adminToken);
    manager = await seed.createManager(adminToken, machine.espId);
    managerToken = await seed.login(manager.email, manager.password);
    const times = timesToday(COUNT);
    const waterTypes = ['pure', 'fresh', 'cold'] as const;
    await seed.postSales(
      machine,
      times.map((time, i) => coinSale(priceOf(i), (i + 1) / 2, waterTypes[i % 3], time)),
    );
    await seed.postSales(machine, [
      cardSale('UNREGISTERED-1', 700, 1.5, times[3]),
      cardSale('UNREGISTERED-2', 900, 2, times[4]),
    ]);
    await listed('coin', COUNT);
    await listed('card', 2);
  }, SETUP_TIMEOUT);

  afterAll(async () => {
    await closeSuite({ server, browser, tabs });
  }, SETUP_TIMEOUT);

  const openTable = async (kind: 'coin' | 'card', viewport?: { width: number; height: number }) => {
    const opened = await openTab(browser, server.baseUrl, viewport);
    tabs.push(opened);
    await signIn(opened.page, manager.email, manager.password, '/manager/dashboard');
    await opened.page.goto(`/machine/${machine.espId}/${kind}`);
    await opened.page.getByRole('table').waitFor();
    return opened;
  };

  const rows = (page: Page) => page.getByRole('table').locator('tbody tr');
  const column = async (page: Page, title: string) => {
    const headers = await page.getByRole('table').locator('thead th').allInnerTexts();
    const index = headers.findIndex((h) => h.trim() === title);
    return page
      .getByRole('table')
      .locator(`tbody tr td:nth-child(${index + 1})`)
      .allInnerTexts();
  };
  const position = (page: Page) => page.locator('.pagination-position').innerText();
  const button = (page: Page, name: string) => page.getByRole('button', { name, exact: true });

  it(
    "pages through 30 sales 10 at a time: 'Page X of Y', Previous disabled on page 1, Next disabled on the last",
    async () => {
      const { page, pageErrors } = await openTable('coin');
      expect(await page.getByRole('table').locator('thead th').allInnerTexts()).toEqual([...COIN_EXPORT_COLUMNS]);
      // No dates chosen: today's date is filled in.
      expect(await page.getByLabel('Start Date').inputValue()).toBe(businessDay());
      expect(await page.getByLabel('End Date').inputValue()).toBe(businessDay());

      expect(await position(page)).toBe('Page 1 of 3');
      expect(await rows(page).count()).toBe(10);
      expect(await column(page, 'SN')).toEqual(['1', '2', '3', '4', '5', '6', '7', '8', '9', '10']);
      // Newest first by default.
      expect((await column(page, 'Price'))[0]).toBe(money(priceOf(COUNT - 1)));
      expect(await button(page, 'Previous').isDisabled()).toBe(true);
      expect(await button(page, 'Next').isDisabled()).toBe(false);

      await button(page, 'Next').click();
      await page.getByText('Page 2 of 3').waitFor();
      await page.getByRole('cell', { name: '11', exact: true }).waitFor();
      expect((await column(page, 'SN'))[9]).toBe('20');
      expect(await button(page, 'Previous').isDisabled()).toBe(false);

      await button(page, 'Next').click();
      await page.getByText('Page 3 of 3').waitFor();
      await page.getByRole('cell', { name: '30', exact: true }).waitFor();
      expect(await button(page, 'Next').isDisabled()).toBe(true);
      // The oldest sale is last.
      expect((await column(page, 'Price'))[9]).toBe(money(priceOf(0)));

      await button(page, 'Previous').click();
      await page.getByText('Page 2 of 3').waitFor();
      expect(pageErrors).toEqual([]);
    },
    TEST_TIMEOUT,
  );

  it(
    'rows per page offers 10, 25, 50, 100, 500, 1000, and a change goes back to page 1',
    async () => {
      const { page } = await openTable('coin');
      const perPage = page.getByLabel('Rows per page');
      expect(await perPage.locator('option').allInnerTexts()).toEqual(['10', '25', '50', '100', '500', '1000']);
      await button(page, 'Next').click();
      await page.getByText('Page 2 of 3').waitFor();

      await perPage.selectOption('25');
      await page.getByText('Page 1 of 2').waitFor();
      await page.getByRole('cell', { name: '25', exact: true }).waitFor();
      expect(await rows(page).count()).toBe(25);
      await button(page, 'Next').click();
      await page.getByText('Page 2 of 2').waitFor();
      await page.getByRole('cell', { name: '26', exact: true }).waitFor();
      expect(await rows(page).count()).toBe(5);
      expect(await button(page, 'Next').isDisabled()).toBe(true);

      await perPage.selectOption('50');
      await page.getByText('Page 1 of 1').waitFor();
      await page.getByRole('cell', { name: '30', exact: true }).waitFor();
      expect(await rows(page).count()).toBe(30);
      expect(await button(page, 'Previous').isDisabled()).toBe(true);
      expect(await button(page, 'Next').isDisabled()).toBe(true);
    },
    TEST_TIMEOUT,
  );

  it(
    'a header sorts on the server, ascending first and then descending, from page 1',
    async () => {
      const { page } = await openTable('coin');
      await button(page, 'Next').click();
      await page.getByText('Page 2 of 3').waitFor();

      const requests: string[] = [];
      page.on('request', (request) => {
        if (request.url().includes('/coin-transactions')) requests.push(request.url());
      });
      await button(page, 'Price').click();
      await page.getByText('Page 1 of 3').waitFor();
      await page.getByRole('cell', { name: money(100), exact: true }).waitFor();
      expect(await column(page, 'Price')).toEqual(Array.from({ length: 10 }, (_, i) => money((i + 1) * 100)));
      expect(await page.getByRole('columnheader', { name: 'Price' }).getAttribute('aria-sort')).toBe('ascending');
      expect(requests.some((url) => url.includes('sort=price') && url.includes('order=asc'))).toBe(true);

      await button(page, 'Price').click();
      await page.getByRole('cell', { name: money(3000), exact: true }).waitFor();
      expect((await column(page, 'Price'))[0]).toBe(money(3000));
      expect((await column(page, 'Price'))[9]).toBe(money(2100));
      expect(await page.getByRole('columnheader', { name: 'Price' }).getAttribute('aria-sort')).toBe('descending');

      // The last page of the descending order ends with the cheapest sale.
      await button(page, 'Next').click();
      await button(page, 'Next').click();
      await page.getByText('Page 3 of 3').waitFor();
      await page.getByRole('cell', { name: money(100), exact: true }).waitFor();

      // Another column starts ascending again: the oldest sale first.
      await button(page, 'Date').click();
      await page.getByText('Page 1 of 3').waitFor();
      await page.waitForFunction(
        (first) => document.querySelector('tbody tr td:nth-child(2)')?.textContent === first,
        money(priceOf(0)),
      );
      expect(await page.getByRole('columnheader', { name: 'Date' }).getAttribute('aria-sort')).toBe('ascending');
    },
    TEST_TIMEOUT,
  );

  it(
    'Filter applies the dates from page 1; dates are shown in local format; the card table names its columns and flags unknown cards',
    async () => {
      const { page } = await openTable('coin');
      await button(page, 'Next').click();
      await page.getByText('Page 2 of 3').waitFor();
      await page.getByLabel('Start Date').fill(daysBefore(3));
      await page.getByLabel('End Date').fill(daysBefore(1));
      await button(page, 'Filter').click();
      await page.getByText('No transactions found.').waitFor();
      expect(await position(page)).toBe('Page 1 of 1');

      await page.getByLabel('End Date').fill(businessDay());
      await button(page, 'Filter').click();
      await page.getByText('Page 1 of 3').waitFor();
      const shown = (await column(page, 'Date'))[0];
      const expected = await page.evaluate((iso) => new Date(iso).toLocaleString(), timesToday(1)[0]);
      // The browser's own date format (the exact second differs from this reference time).
      expect(shown.slice(0, 6)).toBe(expected.slice(0, 6));
      expect(shown).not.toMatch(/T\d\d:/);

      const card = await openTable('card');
      expect(await card.page.getByRole('table').locator('thead th').allInnerTexts()).toEqual([...CARD_EXPORT_COLUMNS]);
      expect(await rows(card.page).count()).toBe(2);
      await card.page
        .getByRole('cell', { name: /UNREGISTERED-1/ })
        .getByText('Unknown card')
        .waitFor();
      expect(await column(card.page, 'Water Type')).toEqual(['Cold', 'Cold']);
    },
    TEST_TIMEOUT,
  );

  it(
    "'Export Data': 'Entire Dataset' downloads the server's table_data.xlsx with every row in the table's order",
    async () => {
      const { page } = await openTable('coin');
      await button(page, 'Price').click();
      await page.getByRole('cell', { name: money(100), exact: true }).waitFor();
      await button(page, 'Export Data').click();
      const [download] = await Promise.all([page.waitForEvent('download'), button(page, 'Entire Dataset').click()]);
      expect(download.suggestedFilename()).toBe('table_data.xlsx');

      const sheet = await readSheet(await download.path());
      expect(sheet.header).toEqual([...COIN_EXPORT_COLUMNS]);
      expect(sheet.rows).toHaveLength(COUNT);
      expect(sheet.rows.map((row) => row[0])).toEqual(Array.from({ length: COUNT }, (_, i) => i + 1));
      // Sorted by price ascending, like the table.
      expect(sheet.rows.map((row) => row[1])).toEqual(Array.from({ length: COUNT }, (_, i) => (i + 1) * 100));
      expect(sheet.rows.every((row) => row[4] instanceof Date)).toBe(true);
    },
    TEST_TIMEOUT,
  );

  it(
    "'Export Data': 'Current Page' downloads table_data.xlsx with exactly the rows on screen",
    async () => {
      const { page } = await openTable('coin');
      await button(page, 'Next').click();
      await page.getByText('Page 2 of 3').waitFor();
      await page.getByRole('cell', { name: '11', exact: true }).waitFor();
      const visiblePrices = await column(page, 'Price');

      await button(page, 'Export Data').click();
      const [download] = await Promise.all([page.waitForEvent('download'), button(page, 'Current Page').click()]);
      expect(download.suggestedFilename()).toBe('table_data.xlsx');
      const sheet = await readSheet(await download.path());
      expect(sheet.name).toBe('Sheet1');
      expect(sheet.header).toEqual([...COIN_EXPORT_COLUMNS]);
      expect(sheet.rows.map((row) => row[0])).toEqual([11, 12, 13, 14, 15, 16, 17, 18, 19, 20]);
      expect(sheet.rows.map((row) => money(row[1] as number))).toEqual(visiblePrices);
      expect(sheet.rows.every((row) => row[4] instanceof Date)).toBe(true);
    },
    TEST_TIMEOUT,
  );

  it(
    'with no dates chosen the list refreshes every 60 seconds; with chosen dates it does not',
    async () => {
      const opened = await openTab(browser, server.baseUrl);
      tabs.push(opened);
      const { page } = opened;
      await page.clock.install();
      await signIn(page, manager.email, manager.password, '/manager/dashboard');
      await page.goto(`/machine/${machine.espId}/coin`);
      await page.getByLabel('Rows per page').selectOption('50');
      await page.getByRole('cell', { name: String(COUNT), exact: true }).waitFor();
      expect(await rows(page).count()).toBe(COUNT);

      await seed.postSales(machine, [coinSale(5, 0.5, 'pure')]);
      await listed('coin', COUNT + 1);
      await page.clock.fastForward(60_000);
      await page.getByRole('cell', { name: money(5), exact: true }).waitFor();
      expect(await rows(page).count()).toBe(COUNT + 1);

      // Dates chosen: no refresh any more.
      await page.getByLabel('Start Date').fill(daysBefore(1));
      await button(page, 'Filter').click();
      await page.getByRole('cell', { name: '31', exact: true }).waitFor();
      await seed.postSales(machine, [coinSale(6, 0.5, 'pure')]);
      await listed('coin', COUNT + 2);
      await page.clock.fastForward(60_000);
      await page.clock.runFor(2_000);
      await page.waitForTimeout(1_500);
      expect(await rows(page).count()).toBe(COUNT + 1);
      expect(await page.getByRole('cell', { name: money(6), exact: true }).count()).toBe(0);
    },
    TEST_TIMEOUT,
  );

  it(
    "a failed fetch shows 'Failed to fetch coin-transactions' / 'Failed to fetch card-transactions' in red; a phone keeps the page in its width",
    async () => {
      const { page, pageErrors } = await openTable('coin', PHONE);
      expect(await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth)).toBe(0);

      await page.route(
        (url) => url.pathname.endsWith('/coin-transactions'),
        (route) => route.fulfill({ status: 503, body: 'down' }),
      );
      await page.getByLabel('Rows per page').selectOption('25');
      const coinError = page.getByText('Failed to fetch coin-transactions', { exact: true });
      await coinError.waitFor();
      expect(await colorOf(coinError)).toBe(RED);

      await page.route(
        (url) => url.pathname.endsWith('/card-transactions'),
        (route) => route.fulfill({ status: 503, body: 'down' }),
      );
      await page.goto(`/machine/${machine.espId}/card`);
      const cardError = page.getByText('Failed to fetch card-transactions', { exact: true });
      await cardError.waitFor();
      expect(await colorOf(cardError)).toBe(RED);
      expect(pageErrors).toEqual([]);
    },
    TEST_TIMEOUT,
  );
});

async function readSheet(path: string | null) {
  if (!path) throw new Error('The download was not saved');
  const workbook = new ExcelJS.Workbook();
  await workbook.xlsx.readFile(path);
  const sheet = workbook.getWorksheet('Sheet1');
  if (!sheet) throw new Error(`No Sheet1 in ${workbook.worksheets.map((w) => w.name).join(', ')}`);
  const values: unknown[][] = [];
  sheet.eachRow((row) => values.push((row.values as unknown[]).slice(1)));
  return { name: sheet.name, header: values[0], rows: values.slice(1) };
}
