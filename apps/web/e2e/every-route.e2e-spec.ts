import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import type { Browser, Page } from 'playwright-core';
import type { RunningServer } from '../../api/test/support/server-process.js';
import { en } from '../src/lib/i18n/en.js';
import { sw } from '../src/lib/i18n/sw.js';
import { axeViolations } from './support/axe.js';
import { DESKTOP, openTab, PHONE, SETUP_TIMEOUT, signIn, type Tab } from './support/browser.js';
import { inKiswahili } from './support/language.js';
import { cardSale, coinSale, timesToday } from './support/sales.js';
import type { Account, Machine } from './support/seed.js';
import { closeSuite, openSuite } from './support/suite.js';

/**
 * Every route of every role (docs/web-app.md, "Routes"), in English and in Kiswahili, at desktop and phone
 * sizes: no serious or critical axe violation in either language, and in Kiswahili no English left on
 * the screen (no English text of the app's own resources, no common English word, no raw key) and no
 * key the translations miss.
 */

/**
 * Common English words that no Kiswahili screen should show (checked as whole words, any case). "Float"
 * is not among them: Kiswahili speakers in the trade say float (an agent's "float ya wakala").
 */
const ENGLISH_WORDS = [
  'the',
  'and',
  'of',
  'to',
  'for',
  'with',
  'your',
  'you',
  'this',
  'that',
  'from',
  'are',
  'is',
  'not',
  'yes',
  'all',
  'none',
  'more',
  'page',
  'next',
  'previous',
  'save',
  'cancel',
  'search',
  'machine',
  'machines',
  'card',
  'cards',
  'sale',
  'sales',
  'date',
  'price',
  'volume',
  'type',
  'status',
  'loading',
  'error',
  'sign',
  'password',
  'name',
  'first',
  'last',
  'total',
  'today',
  'yesterday',
  'week',
  'month',
  'online',
  'offline',
  'settings',
  'users',
  'user',
  'request',
  'approve',
  'reject',
  'export',
  'download',
  'add',
  'remove',
  'delete',
  'edit',
  'back',
  'home',
  'dashboard',
  'alarm',
  'alarms',
  'balance',
  'amount',
  'revenue',
  'litres',
  'water',
  'cold',
  'fresh',
  'pure',
  'account',
  'profile',
  'submit',
  'confirm',
  'close',
  'open',
  'filter',
  'filters',
  'show',
  'hide',
  'phone',
  'number',
  'location',
  'coin',
  'float',
  'history',
  'payments',
  'payment',
  'attendant',
  'manager',
  'admin',
  'clear',
  'select',
];

/** Texts of the app's English resources that differ from their Kiswahili ones and are long enough to be telling. */
function englishTexts(): string[] {
  const walk = (a: unknown, b: unknown, out: string[]) => {
    if (typeof a === 'string') {
      const plain = a.replace(/\{\{\w+\}\}/g, '').trim();
      if (plain.length >= 12 && a !== b && !/[{}<]/.test(plain)) out.push(plain);
      return;
    }
    for (const [k, v] of Object.entries(a as Record<string, unknown>))
      walk(v, (b as Record<string, unknown>)?.[k], out);
  };
  const out: string[] = [];
  walk(en, sw, out);
  return out;
}
const ENGLISH_TEXTS = englishTexts();

describe('every route in English and Kiswahili: axe, no English left in Kiswahili', () => {
  let server: RunningServer;
  let browser: Browser;
  let manager: Account;
  let attendant: Account;
  let machine: Machine;
  const data: string[] = [];
  const tabs: Tab[] = [];

  beforeAll(async () => {
    const suite = await openSuite();
    ({ server, browser } = suite);
    const { seed, adminToken } = suite;
    machine = await seed.createDevice(adminToken);
    manager = await seed.createManager(adminToken, machine.espId, 'Kariakoo');
    const managerToken = await seed.login(manager.email, manager.password);
    attendant = await seed.createAttendant(managerToken, machine.espId);
    const attendantToken = await seed.login(attendant.email, attendant.password);
    await seed.fundAttendant(managerToken, attendant, 50_000);
    const cardId = `KADI-${machine.espId.slice(-6)}`;
    await seed.addCard(attendantToken, {
      card_id: cardId,
      card_holder_first_name: 'Neema',
      card_holder_last_name: 'Mushi',
      card_balance: 5_000,
      card_type: 'familia',
    });
    const times = timesToday(6);
    await seed.postSales(machine, [
      coinSale(400, 10, 'pure', times[0]),
      coinSale(300, 10, 'fresh', times[1]),
      cardSale(cardId, 500, 10, times[2]),
    ]);
    // Data the screens show as it is (names, ids, places): not text to translate.
    data.push(
      machine.espId,
      machine.macAddress,
      cardId,
      'Neema',
      'Mushi',
      'familia',
      'Kariakoo',
      'Dar es Salaam',
      ...[manager, attendant].flatMap((a) => [a.firstName, a.lastName, a.email, a.phoneNumber]),
      server.admin.email,
      // The first admin's name as the program creates it (apps/api/src/user/first-admin.ts).
      'Admin User',
    );
  }, SETUP_TIMEOUT);

  afterAll(async () => {
    await closeSuite({ server, browser, tabs });
  }, SETUP_TIMEOUT);

  const routes = () => {
    const id = encodeURIComponent(machine.espId);
    const machineRoutes = [
      `/machine/${id}`,
      `/machine/${id}/health`,
      `/machine/${id}/card`,
      `/machine/${id}/coin`,
      `/device/${id}`,
    ];
    return {
      public: ['/login', '/a', '/b', '/ca'],
      admin: [
        '/maindashboard',
        '/add-esp32',
        '/register',
        '/admin/users',
        '/admin/profile',
        '/admin/settings',
        '/admin/audit',
        '/alarms',
        '/payments',
        ...machineRoutes,
      ],
      manager: [
        '/manager/dashboard',
        '/manager/approv/float',
        '/manager/card/info',
        '/manager/card/info/summary',
        '/manager/machine/usage',
        '/manager/machine/activity',
        '/manager/attendant/register',
        '/manager/attendant/remove',
        '/manager/profile/acc',
        '/alarms',
        '/payments',
        ...machineRoutes,
      ],
      attendant: ['/att/manager/dashboard', '/att/manager/float', '/att/manager/cards', '/att/account', '/alarms'],
    };
  };

  /** Waits until the route's first heading is shown and nothing is loading any more. */
  async function settled(page: Page): Promise<void> {
    await page.locator('h1').first().waitFor();
    await page
      .waitForFunction(() => !/Loading|Inapakia/.test(document.body.innerText), undefined, { timeout: 10_000 })
      .catch(() => undefined);
    await page.waitForTimeout(300);
  }

  /** What a Kiswahili screen still says in English: app texts, common English words, raw keys. */
  async function englishLeft(page: Page): Promise<string[]> {
    // Technical identifiers marked translate="no" (HTML's own attribute: audit action codes, field names)
    // and the company's name are not text to translate.
    let text = await page.evaluate(() => {
      const body = document.body.cloneNode(true) as HTMLElement;
      body.querySelectorAll('[translate="no"]').forEach((e) => e.remove());
      document.body.append(body);
      body.style.position = 'absolute';
      const shown = body.innerText;
      body.remove();
      return shown;
    });
    text = text.split('Water Vending Solutions').join(' ');
    for (const d of data) text = text.split(d).join(' ');
    const found: string[] = [];
    for (const t of ENGLISH_TEXTS) if (text.includes(t)) found.push(`"${t}"`);
    const words = new Set(text.toLowerCase().match(/[a-z]+/g) ?? []);
    for (const w of ENGLISH_WORDS) if (words.has(w)) found.push(w);
    for (const key of text.match(/\b[a-z]+[A-Z]?\w*\.[a-z]\w*(\.\w+)*\b/g) ?? []) {
      if (!/\.(local|test|com|tz|co)\b/.test(key)) found.push(`key ${key}`);
    }
    return found;
  }

  async function walk(role: keyof ReturnType<typeof routes>, viewport: typeof DESKTOP | typeof PHONE) {
    const { page, context } = await openTab(browser, server.baseUrl, viewport);
    tabs.push({ page, context });
    const missing: string[] = [];
    page.on('console', (m) => {
      if (/Missing translation/.test(m.text())) missing.push(m.text());
    });
    const account =
      role === 'admin' ? server.admin : role === 'manager' ? manager : role === 'attendant' ? attendant : null;
    const problems: string[] = [];
    for (const language of ['en', 'sw'] as const) {
      if (account) {
        await signIn(page, account.email, account.password, routes()[role][0]!);
        if (language === 'sw') await inKiswahili(page);
      } else {
        await page.goto('/login');
        await page.evaluate((l) => localStorage.setItem('language', l), language);
      }
      for (const path of routes()[role]) {
        await page.goto(path);
        await settled(page);
        for (const v of await axeViolations(page)) {
          problems.push(
            `${language} ${path}: axe ${v.id} (${v.impact}) ${v.help}: ${v.targets.slice(0, 3).join(', ')}`,
          );
        }
        if (language === 'sw') {
          const left = await englishLeft(page);
          if (left.length) problems.push(`sw ${path}: English left: ${left.join(', ')}`);
        }
      }
      if (account) await page.evaluate(() => localStorage.clear());
    }
    expect({ role, problems, missing }).toEqual({ role, problems: [], missing: [] });
  }

  for (const role of ['public', 'admin', 'manager', 'attendant'] as const) {
    it(`${role}: every route at desktop size`, () => walk(role, DESKTOP), 240_000);
  }
  it('manager: every route at phone size', () => walk('manager', PHONE), 240_000);
  it('attendant: every route at phone size', () => walk('attendant', PHONE), 240_000);
});
