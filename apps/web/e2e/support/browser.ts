import { chromium, type Browser, type BrowserContext, type Locator, type Page } from 'playwright-core';

/** Debian's Chromium; never a downloaded browser. */
export function launchBrowser(): Promise<Browser> {
  return chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking'],
  });
}

export const PHONE = { width: 390, height: 844 } as const;
export const DESKTOP = { width: 1280, height: 800 } as const;

/** Milliseconds a single test may take; a browser step waits at most STEP_TIMEOUT. */
export const TEST_TIMEOUT = 45_000;
export const STEP_TIMEOUT = 10_000;
/**
 * A spec is not started this close before local midnight (openSuite waits it out): half as long
 * again as the longest spec file takes (every-route, about 4 minutes), so none runs across it, and
 * short enough that the wait keeps `npm test` well inside CI's time.
 */
export const MIDNIGHT_MARGIN_MS = 6 * 60_000;
/** Starting the API (fresh database) and seeding, after waiting out local midnight if need be. */
export const SETUP_TIMEOUT = 120_000 + MIDNIGHT_MARGIN_MS;

export interface Tab {
  context: BrowserContext;
  page: Page;
}

/** A fresh context (own localStorage) per test. Uncaught page errors are collected, never ignored. */
export async function openTab(
  browser: Browser,
  baseUrl: string,
  viewport: { width: number; height: number } = DESKTOP,
): Promise<Tab & { pageErrors: string[] }> {
  const context = await browser.newContext({ baseURL: baseUrl, viewport });
  context.setDefaultTimeout(STEP_TIMEOUT);
  const page = await context.newPage();
  const pageErrors: string[] = [];
  page.on('pageerror', (error) => pageErrors.push(error.message));
  return { context, page, pageErrors };
}

export const pathOf = (page: Page): string => new URL(page.url()).pathname;

export function waitForPath(page: Page, path: string): Promise<void> {
  return page.waitForURL((url) => url.pathname === path);
}

/**
 * Waits until the page's table shows the rows it asked for last. A paged list keeps its previous rows on screen,
 * marked `aria-busy`, while the next ones load.
 */
export function tableSettled(page: Page): Promise<void> {
  return page.locator('.table-wrap:not([aria-busy])').waitFor();
}

/** Signs in through the /login form, as a user would, and waits for the landing route. */
export async function signIn(page: Page, identifier: string, password: string, landing: string): Promise<void> {
  await page.goto('/login');
  await page.getByLabel('Email or Phone Number').fill(identifier);
  await page.getByLabel('Password').fill(password);
  await page.getByRole('button', { name: 'Log In' }).click();
  await waitForPath(page, landing);
}

export function storedSession(page: Page) {
  return page.evaluate(() => ({
    token: localStorage.getItem('token'),
    role: localStorage.getItem('role'),
    tokenExpiry: localStorage.getItem('tokenExpiry'),
  }));
}

/**
 * The computed text colour, e.g. `rgb(185, 28, 28)`. A re-render may replace the element between the moment the
 * locator finds it and the moment the page computes its style; a detached element has no style (""), so the
 * locator is asked again for the element now on the page, for up to 5 s.
 */
export async function colorOf(locator: Locator): Promise<string> {
  for (let attempt = 0; attempt < 50; attempt++) {
    const color = await locator.evaluate((element) => (element.isConnected ? getComputedStyle(element).color : ''));
    if (color) return color;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return '';
}

/** The stylesheet's result colours (base.css --color-error and --color-success). */
export const RED = 'rgb(185, 28, 28)';
export const GREEN = 'rgb(21, 128, 61)';
