import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import ExcelJS from 'exceljs';
import type { Browser, Page } from 'playwright-core';
import { CARD_EXPORT_COLUMNS, COIN_EXPORT_COLUMNS } from '@wv/contracts';
import type { RunningServer } from '../../api/test/support/server-process.js';
import {
  colorOf,
  launchBrowser,
  openTab,
  PHONE,
  RED,
  SETUP_TIMEOUT,
  signIn,
  STEP_TIMEOUT,
  tableSettled,
  TEST_TIMEOUT,
  type Tab,
} from './support/browser.js';
import { inKiswahili } from './support/language.js';
import { closeSuite, openSuite } from './support/suite.js';
import { businessDay, cardSale, coinSale, daysBefore, timesToday } from './support/sales.js';
import { eventually, Seeder, type Account, type Machine } from './support/seed.js';

const COUNT = 30;
/** A price order unlike the time order: sale i costs ((7i + 3) mod 30 + 1) × 100, a permutation of 100…3000. */
const priceOf = (i: number) => (((7 * i + 3) % COUNT) + 1) * 100;
/** Whole shillings, as the app shows TZS (docs/web-app.md, "Behaviour"). */
const money = (n: number) => `TZS ${n.toLocaleString('en-US', { maximumFractionDigits: 0 })}`;

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
  /** The pager shows `label` and the table holds that page's own rows, not the previous page's kept while it loads. */
  const atPage = async (page: Page, label: string) => {
    await page.getByText(label).waitFor();
    await tableSettled(page);
  };
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
      await atPage(page, 'Page 2 of 3');
      await page.getByRole('cell', { name: '11', exact: true }).waitFor();
      expect((await column(page, 'SN'))[9]).toBe('20');
      expect(await button(page, 'Previous').isDisabled()).toBe(false);

      await button(page, 'Next').click();
      await atPage(page, 'Page 3 of 3');
      await page.getByRole('cell', { name: '30', exact: true }).waitFor();
      expect(await button(page, 'Next').isDisabled()).toBe(true);
      // The oldest sale is last.
      expect((await column(page, 'Price'))[9]).toBe(money(priceOf(0)));

      await button(page, 'Previous').click();
      await atPage(page, 'Page 2 of 3');
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
      await atPage(page, 'Page 2 of 3');

      await perPage.selectOption('25');
      await atPage(page, 'Page 1 of 2');
      await page.getByRole('cell', { name: '25', exact: true }).waitFor();
      expect(await rows(page).count()).toBe(25);
      await button(page, 'Next').click();
      await atPage(page, 'Page 2 of 2');
      await page.getByRole('cell', { name: '26', exact: true }).waitFor();
      expect(await rows(page).count()).toBe(5);
      expect(await button(page, 'Next').isDisabled()).toBe(true);

      await perPage.selectOption('50');
      await atPage(page, 'Page 1 of 1');
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
      await atPage(page, 'Page 2 of 3');

      const requests: string[] = [];
      page.on('request', (request) => {
        if (request.url().includes('/coin-transactions')) requests.push(request.url());
      });
      await button(page, 'Price').click();
      await atPage(page, 'Page 1 of 3');
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
      await atPage(page, 'Page 3 of 3');
      await page.getByRole('cell', { name: money(100), exact: true }).waitFor();

      // Another column starts ascending again: the oldest sale first.
      await button(page, 'Date').click();
      await atPage(page, 'Page 1 of 3');
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
      await atPage(page, 'Page 2 of 3');
      await page.getByLabel('Start Date').fill(daysBefore(3));
      await page.getByLabel('End Date').fill(daysBefore(1));
      await button(page, 'Filter').click();
      await page.getByText('No transactions found.').waitFor();
      expect(await position(page)).toBe('Page 1 of 1');

      await page.getByLabel('End Date').fill(businessDay());
      await button(page, 'Filter').click();
      await atPage(page, 'Page 1 of 3');
      const shown = (await column(page, 'Date'))[0];
      // The day on the app's clock (Dar es Salaam), written as the browser writes dates in English.
      const expected = await page.evaluate((iso) => {
        const locale = Intl.DateTimeFormat.supportedLocalesOf(['en-TZ']).length ? 'en-TZ' : 'en';
        const day = { dateStyle: 'medium', timeZone: 'Africa/Dar_es_Salaam' } as const;
        return new Intl.DateTimeFormat(locale, day).format(new Date(iso));
      }, timesToday(1)[0]);
      expect(shown.startsWith(expected)).toBe(true);
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
      await atPage(page, 'Page 2 of 3');
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

  it(
    'at 1366 × 768 the card table shows every column, the Date column included, without sideways scrolling',
    async () => {
      const { page, pageErrors } = await openTable('card', { width: 1366, height: 768 });
      const headers = page.getByRole('table').locator('thead th');
      expect(await headers.allInnerTexts()).toEqual([...CARD_EXPORT_COLUMNS]);
      const inView = (box: { x: number; width: number } | null) => !!box && box.x >= 0 && box.x + box.width <= 1366;
      for (const header of await headers.all()) {
        expect({ header: await header.innerText(), inView: inView(await header.boundingBox()) }).toEqual({
          header: await header.innerText(),
          inView: true,
        });
      }
      const dateCell = rows(page).first().locator('td').last();
      expect(await dateCell.innerText()).toMatch(/\d{4}/);
      expect(inView(await dateCell.boundingBox())).toBe(true);
      const wrap = page.locator('.table-wrap');
      expect(await wrap.evaluate((el) => el.scrollWidth - el.clientWidth)).toBe(0);
      expect(await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth)).toBe(0);
      expect(pageErrors).toEqual([]);
    },
    TEST_TIMEOUT,
  );

  it(
    'on a phone each sale is a card of label: value pairs, every field in view',
    async () => {
      const { page, pageErrors } = await openTable('card', PHONE);
      const first = rows(page).first();
      expect(await first.evaluate((row) => getComputedStyle(row).display)).toBe('block');
      const cells = await first.evaluate((row) =>
        [...row.querySelectorAll('td')].map((td) => {
          const box = td.getBoundingClientRect();
          const value = td.querySelector('.cell-value')!.getBoundingClientRect();
          return {
            label: getComputedStyle(td, '::before').content.replace(/^"|"$/g, ''),
            text: td.innerText.trim(),
            inView: box.left >= 0 && box.right <= window.innerWidth && value.right <= window.innerWidth,
            // Label and value share one line: the cell's grid has a single row.
            oneLine: getComputedStyle(td).gridTemplateRows.split(' ').length === 1,
            valueLeft: Math.round(value.left),
          };
        }),
      );
      expect(cells.map((cell) => cell.label)).toEqual([...CARD_EXPORT_COLUMNS]);
      for (const { label, inView, oneLine } of cells) {
        expect({ label, inView, oneLine }).toEqual({ label, inView: true, oneLine: true });
      }
      // The values line up in one column beside their labels.
      expect(new Set(cells.map((cell) => cell.valueLeft)).size).toBe(1);
      const byLabel = Object.fromEntries(cells.map((cell) => [cell.label, cell.text]));
      expect(byLabel['Card ID']).toMatch(/UNREGISTERED-\d/);
      expect(byLabel['Price']).toMatch(/^TZS \d/);
      expect(byLabel['Water Type']).toBe('Cold');
      expect(byLabel['Date']).toMatch(/\d{4}/);
      expect(await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth)).toBe(0);
      expect(pageErrors).toEqual([]);
    },
    TEST_TIMEOUT,
  );

  it(
    'the pager goes to the first and the last page and jumps to a page typed in, refusing one that does not exist',
    async () => {
      const { page, pageErrors } = await openTable('coin');
      // 30 sales or a few more (the refresh test adds two): three or four pages of ten.
      const pages = Number((await position(page)).match(/^Page 1 of (\d+)$/)?.[1]);
      expect(pages).toBeGreaterThanOrEqual(3);
      expect(await page.getByRole('button', { name: /^First/ }).isDisabled()).toBe(true);

      await page.getByRole('button', { name: /^Last/ }).click();
      await atPage(page, `Page ${pages} of ${pages}`);
      await page.getByRole('cell', { name: String((pages - 1) * 10 + 1), exact: true }).waitFor();
      expect(await page.getByRole('button', { name: /^Last/ }).isDisabled()).toBe(true);
      expect(await button(page, 'Next').isDisabled()).toBe(true);

      await page.getByRole('button', { name: /^First/ }).click();
      await atPage(page, `Page 1 of ${pages}`);
      await page.getByRole('cell', { name: '1', exact: true }).waitFor();

      const jump = page.getByLabel('Go to page');
      await jump.fill('2');
      await button(page, 'Go').click();
      await atPage(page, `Page 2 of ${pages}`);
      await page.getByRole('cell', { name: '11', exact: true }).waitFor();

      await jump.fill(String(pages + 1));
      await jump.press('Enter');
      await page.getByRole('alert').getByText(`Enter a page from 1 to ${pages}.`).waitFor();
      expect(await position(page)).toBe(`Page 2 of ${pages}`);
      await jump.fill('3');
      await jump.press('Enter');
      await atPage(page, `Page 3 of ${pages}`);
      await page.getByRole('cell', { name: '21', exact: true }).waitFor();
      expect(pageErrors).toEqual([]);
    },
    TEST_TIMEOUT,
  );

  it(
    'in Kiswahili the tables speak Kiswahili, with whole shillings and the water types named',
    async () => {
      const { page, pageErrors } = await openTable('coin');
      // After the sign-in sync (the account's saved language is English), or it would switch the page back.
      await inKiswahili(page);
      await page.getByRole('table').waitFor();
      expect(await page.evaluate(() => document.documentElement.lang)).toBe('sw');
      expect(await page.getByRole('table').locator('thead th').allInnerTexts()).toEqual([
        'Na.',
        'Bei',
        'Lita',
        'Aina ya Maji',
        'Tarehe',
      ]);
      await page.getByText(/^Ukurasa 1 kati ya \d+$/).waitFor();
      expect(await page.getByLabel('Tarehe ya Kuanza').inputValue()).toBe(businessDay());
      await page.getByRole('button', { name: 'Chuja', exact: true }).waitFor();
      await page.getByRole('button', { name: 'Pakua Data' }).waitFor();
      expect((await column(page, 'Bei'))[0]).toMatch(/^TZS \d{1,3}(,\d{3})*$/);
      await page.getByLabel('Safu kwa ukurasa').selectOption('50');
      await page.getByText('Ukurasa 1 kati ya 1').waitFor();
      // The position line follows the chosen page size at once, while the previous page's ten rows stay
      // until the 50-row page arrives: wait for its last row (earlier tests in this file add sales).
      const { total } = await seed.get<{ total: number }>(
        `/machines/${machine.espId}/coin-transactions?limit=10`,
        managerToken,
      );
      await page.getByRole('cell', { name: String(total), exact: true }).waitFor();
      expect(await column(page, 'Bei')).toContain(money(3000));
      const waterTypes = new Set(await column(page, 'Aina ya Maji'));
      expect([...waterTypes].sort()).toEqual(['Baridi', 'Kawaida', 'Safi']);
      expect((await column(page, 'Lita'))[0]).toMatch(/^[\d.,]+ L$/);

      await page.goto(`/machine/${machine.espId}/card`);
      await page.getByRole('table').waitFor();
      expect(await page.getByRole('table').locator('thead th').allInnerTexts()).toEqual([
        'Na.',
        'Namba ya Kadi',
        'Aina ya Kadi',
        'Jina la Kwanza',
        'Jina la Mwisho',
        'Bei',
        'Lita',
        'Aina ya Maji',
        'Tarehe',
      ]);
      await page
        .getByRole('cell', { name: /UNREGISTERED-1/ })
        .getByText('Kadi isiyojulikana')
        .waitFor();
      expect(pageErrors).toEqual([]);
    },
    TEST_TIMEOUT,
  );

  it(
    'a browser in New York lists Dar es Salaam’s day and shows its times on Dar es Salaam’s clock',
    async () => {
      // Its own browser: a context's time zone is fixed when the context opens.
      const farBrowser = await launchBrowser();
      try {
        const context = await farBrowser.newContext({ baseURL: server.baseUrl, timezoneId: 'America/New_York' });
        context.setDefaultTimeout(STEP_TIMEOUT);
        const page = await context.newPage();
        expect(await page.evaluate(() => Intl.DateTimeFormat().resolvedOptions().timeZone)).toBe('America/New_York');
        await signIn(page, manager.email, manager.password, '/manager/dashboard');
        await page.goto(`/machine/${machine.espId}/coin`);
        await page.getByRole('table').waitFor();
        expect(await page.getByLabel('Start Date').inputValue()).toBe(businessDay());
        const newest = await seed.get<{ data: { time: string }[] }>(
          `/machines/${machine.espId}/coin-transactions?limit=10`,
          managerToken,
        );
        const shown = (await column(page, 'Date'))[0];
        // The newest sale on Dar es Salaam's clock, not on New York's.
        const clocks = await page.evaluate((iso) => {
          const locale = Intl.DateTimeFormat.supportedLocalesOf(['en-TZ']).length ? 'en-TZ' : 'en';
          const format = (timeZone: string) =>
            new Intl.DateTimeFormat(locale, { dateStyle: 'medium', timeStyle: 'short', timeZone })
              .format(new Date(iso))
              .replace(/[\u00a0\u202f]/g, ' ');
          return { app: format('Africa/Dar_es_Salaam'), browser: format('America/New_York') };
        }, newest.data[0].time);
        expect(shown).toBe(clocks.app);
        expect(shown).not.toBe(clocks.browser);
        await context.close();
      } finally {
        await farBrowser.close();
      }
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
