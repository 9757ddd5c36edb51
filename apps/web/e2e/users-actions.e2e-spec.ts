import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import type { Browser, Page } from 'playwright-core';
import type { RunningServer } from '../../api/test/support/server-process.js';
import { DESKTOP, openTab, PHONE, SETUP_TIMEOUT, signIn, TEST_TIMEOUT, type Tab } from './support/browser.js';
import { coinSale } from './support/sales.js';
import { inKiswahili } from './support/language.js';
import { closeSuite, openSuite } from './support/suite.js';
import type { Account, Seeder } from './support/seed.js';

/** The admin's actions on the Users page (docs/web-app.md, "Users"), at desktop and phone sizes. */
describe('Users page actions (/admin/users)', () => {
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

  const usersPage = async (viewport: { width: number; height: number }): Promise<Page> => {
    const opened = await openTab(browser, server.baseUrl, viewport);
    tabs.push(opened);
    await opened.context.grantPermissions(['clipboard-read', 'clipboard-write']);
    await signIn(opened.page, server.admin.email, server.admin.password, '/maindashboard');
    await opened.page.goto('/admin/users');
    await opened.page.getByRole('heading', { name: 'Users', exact: true }).waitFor();
    expect(opened.pageErrors).toEqual([]);
    return opened.page;
  };

  const nameOf = (a: Account) => `${a.firstName} ${a.lastName}`;
  const owned = () => seed.get<string[]>('/get/user/assigned/esp32-ids', adminToken);
  const usersList = () =>
    seed.get<{ userId: string; active: boolean; devices: { esp32Id: string }[] }[]>('/admin/users', adminToken);
  const success = (page: Page, text: string) => page.getByRole('status').filter({ hasText: text }).waitFor();

  for (const [size, viewport] of [
    ['desktop', DESKTOP],
    ['phone', PHONE],
  ] as const) {
    describe(`at ${size} size`, () => {
      it(
        'assigns an unowned machine to a manager, offering only unowned ones, and unassigns it after a confirmation naming both',
        async () => {
          const first = await seed.createDevice(adminToken);
          const manager = await seed.createManager(adminToken, first.espId);
          const free = await seed.createDevice(adminToken);
          const page = await usersPage(viewport);
          const name = nameOf(manager);

          await page.getByRole('button', { name: `Assign machine: ${name}` }).click();
          const dialog = page.getByRole('dialog', { name: `Assign a machine to ${name}` });
          const select = dialog.getByLabel('Machine', { exact: true });
          await select.locator(`option[value="${free.espId}"]`).waitFor({ state: 'attached' });
          const offered = await select
            .locator('option')
            .evaluateAll((options) => options.map((o) => (o as HTMLOptionElement).value));
          expect(offered).not.toContain(first.espId);
          // Nothing chosen: the problem is said beside the field, and nothing is sent.
          await dialog.getByRole('button', { name: 'Assign' }).click();
          expect(await dialog.getByRole('alert').innerText()).toBe('Choose a machine.');
          await select.selectOption(free.espId);
          await dialog.getByLabel('Machine location').fill('Mbezi stand');
          await dialog.getByRole('button', { name: 'Assign' }).click();
          await success(page, `${free.espId} is now assigned to ${name}.`);
          expect(await owned()).toContain(free.espId);
          await page.getByRole('button', { name: `Unassign ${free.espId} from ${name}` }).waitFor();

          await page.getByRole('button', { name: `Unassign ${free.espId} from ${name}` }).click();
          const confirm = page.getByRole('dialog', { name: 'Unassign machine' });
          expect(await confirm.innerText()).toContain(`Take machine ${free.espId} from ${name}?`);
          // Cancel changes nothing.
          await confirm.getByRole('button', { name: 'Cancel' }).click();
          await confirm.waitFor({ state: 'detached' });
          expect(await owned()).toContain(free.espId);

          await page.getByRole('button', { name: `Unassign ${free.espId} from ${name}` }).click();
          await confirm.getByRole('button', { name: 'Unassign' }).click();
          await success(page, `${free.espId} is no longer assigned to ${name}.`);
          expect(await owned()).not.toContain(free.espId);
          const row = (await usersList()).find((u) => u.userId === manager.userId)!;
          expect(row.devices.map((d) => d.esp32Id)).toEqual([first.espId]);
          await page
            .getByRole('button', { name: `Unassign ${free.espId} from ${name}` })
            .waitFor({ state: 'detached' });
        },
        TEST_TIMEOUT,
      );

      it(
        'unassigns an attendant’s machine and gives them one of their manager’s machines again',
        async () => {
          const first = await seed.createDevice(adminToken);
          const second = await seed.createDevice(adminToken);
          const manager = await seed.createManager(adminToken, first.espId);
          await seed.addDevice(adminToken, manager.userId, second.espId);
          const managerToken = await seed.login(manager.email, manager.password);
          const attendant = await seed.createAttendant(managerToken, first.espId);
          const page = await usersPage(viewport);
          const name = nameOf(attendant);

          // An attendant with a machine is told to unassign it first.
          await page.getByRole('button', { name: `Assign machine: ${name}` }).click();
          const assign = page.getByRole('dialog', { name: `Assign a machine to ${name}` });
          expect(await assign.innerText()).toContain('This attendant already has a machine. Unassign it first.');
          await assign.getByRole('button', { name: 'Cancel' }).click();

          await page.getByRole('button', { name: `Unassign ${first.espId} from ${name}` }).click();
          const confirm = page.getByRole('dialog', { name: 'Unassign machine' });
          expect(await confirm.innerText()).toContain('The machine stays with its manager.');
          await confirm.getByRole('button', { name: 'Unassign' }).click();
          await success(page, `${first.espId} is no longer assigned to ${name}.`);
          expect(await seed.get('/user/esp32-ids', await seed.login(attendant.email, attendant.password))).toEqual([]);

          await page.getByRole('button', { name: `Assign machine: ${name}` }).click();
          const select = assign.getByLabel('Machine', { exact: true });
          await select.locator(`option[value="${second.espId}"]`).waitFor({ state: 'attached' });
          const offered = await select
            .locator('option')
            .evaluateAll((options) => options.map((o) => (o as HTMLOptionElement).value).filter(Boolean));
          expect(offered.sort()).toEqual([first.espId, second.espId].sort());
          await select.selectOption(second.espId);
          await assign.getByLabel('Machine location').fill('Ubungo');
          await assign.getByRole('button', { name: 'Assign' }).click();
          await success(page, `${second.espId} is now assigned to ${name}.`);
          const row = (await usersList()).find((u) => u.userId === attendant.userId)!;
          expect(row.devices.map((d) => d.esp32Id)).toEqual([second.espId]);
        },
        TEST_TIMEOUT,
      );

      it(
        'deactivates a user, who can no longer sign in, and reactivates them; the admin’s own row has no such button',
        async () => {
          const device = await seed.createDevice(adminToken);
          const manager = await seed.createManager(adminToken, device.espId);
          const page = await usersPage(viewport);
          const name = nameOf(manager);
          await page.getByRole('button', { name: `Deactivate ${name}` }).waitFor();
          const self = page.getByRole('row').filter({ hasText: server.admin.email });
          expect(await self.getByRole('button', { name: /Deactivate|Reactivate/ }).count()).toBe(0);
          expect(await self.innerText()).toContain('(You)');

          await page.getByRole('button', { name: `Deactivate ${name}` }).click();
          const confirm = page.getByRole('dialog', { name: 'Deactivate account' });
          expect(await confirm.innerText()).toContain(`Deactivate ${name}?`);
          await confirm.getByRole('button', { name: 'Deactivate' }).click();
          await success(page, `${name} is deactivated.`);
          const row = page.getByRole('row').filter({ hasText: manager.email });
          await row.getByText('Deactivated').waitFor();
          expect(await seed.loginStatus(manager.email, manager.password)).toBe(401);

          await page.getByRole('button', { name: `Reactivate ${name}` }).click();
          await page
            .getByRole('dialog', { name: 'Reactivate account' })
            .getByRole('button', { name: 'Reactivate' })
            .click();
          await success(page, `${name} can sign in again.`);
          expect(await seed.loginStatus(manager.email, manager.password)).toBe(200);
          expect((await usersList()).find((u) => u.userId === manager.userId)!.active).toBe(true);
        },
        TEST_TIMEOUT,
      );

      it(
        'issues a new device key, shows it once with a copy button, and the machine needs it from then on',
        async () => {
          const machine = await seed.createDevice(adminToken);
          await seed.createManager(adminToken, machine.espId);
          const page = await usersPage(viewport);

          await page.getByRole('button', { name: `New key for ${machine.espId}` }).click();
          const confirm = page.getByRole('dialog', { name: 'New device key' });
          expect(await confirm.innerText()).toContain('The old key stops working at once');
          await confirm.getByRole('button', { name: 'Issue new key' }).click();
          const shown = page.getByRole('dialog', { name: `New key for ${machine.espId}` });
          const key = await shown.getByLabel('Device key').innerText();
          expect(key.length).toBeGreaterThan(20);
          expect(await shown.innerText()).toContain('it is shown only once');
          await shown.getByRole('button', { name: 'Copy key' }).click();
          await shown.getByText('Key copied.').waitFor();
          expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(key);

          await expect(seed.postSales(machine, [coinSale(500, 5, 'fresh')])).rejects.toThrow(/401/);
          const accepted = await seed.postSales({ ...machine, deviceKey: key }, [coinSale(500, 5, 'fresh')]);
          expect(accepted.accepted).toBe(1);

          await shown.getByRole('button', { name: 'Done' }).click();
          await shown.waitFor({ state: 'detached' });
          expect(await page.locator('main').innerText()).not.toContain(key);
        },
        TEST_TIMEOUT,
      );
    });
  }

  it(
    'speaks Kiswahili on the Users page and its dialogs',
    async () => {
      const device = await seed.createDevice(adminToken);
      const manager = await seed.createManager(adminToken, device.espId);
      const page = await usersPage(DESKTOP);
      await inKiswahili(page);
      await page.getByRole('heading', { name: 'Watumiaji' }).waitFor();
      const header = await page.locator('thead').innerText();
      for (const english of ['Name', 'Username', 'Phone', 'Location', 'Role', 'Devices', 'Actions', 'Status'])
        expect(header).not.toContain(english);
      await page.getByRole('button', { name: `Zima ${nameOf(manager)}` }).click();
      const confirm = page.getByRole('dialog', { name: 'Zima akaunti' });
      expect(await confirm.innerText()).toContain(`Zima akaunti ya ${nameOf(manager)}?`);
      await confirm.getByRole('button', { name: 'Ghairi' }).click();
    },
    TEST_TIMEOUT,
  );
});
