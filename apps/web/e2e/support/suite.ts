import type { Browser } from 'playwright-core';
import { startServer, type RunningServer } from '../../../api/test/support/server-process.js';
import { launchBrowser, MIDNIGHT_MARGIN_MS, type Tab } from './browser.js';
import { clearOfLocalMidnight } from './sales.js';
import { Seeder } from './seed.js';

export interface Suite {
  server: RunningServer;
  browser: Browser;
  seed: Seeder;
  adminToken: string;
}

/** One spec file's world: the built program on its own deployment, Chromium, and the admin signed in. */
export async function openSuite(): Promise<Suite> {
  await clearOfLocalMidnight(MIDNIGHT_MARGIN_MS);
  const [server, browser] = await Promise.all([startServer(), launchBrowser()]);
  const seed = new Seeder(server.baseUrl);
  return { server, browser, seed, adminToken: await seed.login(server.admin.email, server.admin.password) };
}

/** Closes the tabs, the browser and the program, and drops its database; safe after a failed open. */
export async function closeSuite({
  server,
  browser,
  tabs,
}: {
  server?: RunningServer;
  browser?: Browser;
  tabs: Tab[];
}) {
  await Promise.all(tabs.map(({ context }) => context.close()));
  await browser?.close();
  await server?.stop();
}
