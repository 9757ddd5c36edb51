import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { connectAsync, type MqttClient } from 'mqtt';
import type { Browser } from 'playwright-core';
import { buildTelemetryTopic, type Alarm, type AlarmSettings, type NotificationPreferences } from '@wv/contracts';
import type { RunningServer } from '../../api/test/support/server-process.js';
import { DESKTOP, openTab, PHONE, SETUP_TIMEOUT, signIn, TEST_TIMEOUT, type Tab } from './support/browser.js';
import { closeSuite, openSuite } from './support/suite.js';
import { eventually, Seeder, type Account, type Machine } from './support/seed.js';

/**
 * Alarms in the browser (docs/web-app.md, "Alarms and machine health"): a machine reports a low tank over
 * MQTT, the alarm reaches the manager's phone without a reload, the manager works it there, and a reading of a
 * refilled tank clears it by itself, live (docs/alarms.md, "The alarms"); the machine's health page, its alarm
 * settings and the manager's notification preferences against the real program.
 */
describe('alarms: the live alarm on the manager’s phone, machine health, settings and preferences', () => {
  let server: RunningServer;
  let browser: Browser;
  let seed: Seeder;
  let adminToken: string;
  let machine: Machine;
  let manager: Account;
  let managerToken: string;
  let device: MqttClient;
  const tabs: Tab[] = [];

  beforeAll(async () => {
    ({ server, browser, seed, adminToken } = await openSuite());
    machine = await seed.createDevice(adminToken);
    manager = await seed.createManager(adminToken, machine.espId);
    managerToken = await seed.login(manager.email, manager.password);
    // The machine as its firmware connects (docs/device-protocol.md, "Identity and provisioning").
    device = await connectAsync(`mqtt://127.0.0.1:${server.mqttPort}`, {
      clientId: machine.espId,
      username: machine.espId,
      password: machine.deviceKey,
      protocolVersion: 4,
      reconnectPeriod: 0,
      connectTimeout: 10_000,
    });
  }, SETUP_TIMEOUT);

  afterAll(async () => {
    await device?.endAsync();
    await closeSuite({ server, browser, tabs });
  }, SETUP_TIMEOUT);

  const open = async (viewport: { width: number; height: number }) => {
    const opened = await openTab(browser, server.baseUrl, viewport);
    tabs.push(opened);
    await signIn(opened.page, manager.email, manager.password, '/manager/dashboard');
    return opened;
  };

  const telemetry = (reading: Record<string, unknown>) =>
    device.publishAsync(buildTelemetryTopic(machine.espId), JSON.stringify(reading), { qos: 1 });

  const activeAlarms = () =>
    seed.get<{ data: Alarm[]; total: number }>(`/alarms?machineId=${machine.espId}`, managerToken);

  it(
    'a low tank opens an alarm that reaches the manager’s phone live; the manager acknowledges, notes and assigns it there, and it clears by itself, live, when the tank is refilled',
    async () => {
      const { page, pageErrors } = await open(PHONE);
      await page.goto('/alarms');
      await page.getByRole('heading', { name: 'Alarms', level: 1 }).waitFor();
      await page.getByText('No active alarms. Everything is running.').waitFor();
      await page.evaluate(() => ((window as any).__noReload = true));

      await telemetry({ tankLevelPct: 6, tdsPpm: 140, coldWaterTempC: 7, coinBoxPct: 20, errorCode: null });

      const item = page.getByRole('listitem', { name: `Low tank at machine ${machine.espId}` });
      await item.waitFor({ timeout: 20_000 });
      expect(await item.getByText('Major').isVisible()).toBe(true);
      expect(await item.getByText('Open', { exact: true }).isVisible()).toBe(true);
      expect(await page.evaluate(() => (window as any).__noReload)).toBe(true);
      // Phone-sized: nothing wider than the screen.
      expect(await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth)).toBe(0);

      // The navigation's count, in the slide-in menu.
      await page.getByRole('button', { name: 'Open menu' }).click();
      await page.getByRole('navigation', { name: 'Main' }).getByLabel('1 active alarm').waitFor();
      await page.keyboard.press('Escape');

      await item.getByRole('button', { name: 'Acknowledge' }).click();
      await item.getByText('Alarm acknowledged.').waitFor();
      await item.getByText(/^Acknowledged by You at/).waitFor();
      const [acknowledged] = (await activeAlarms()).data;
      expect(acknowledged.status).toBe('acknowledged');

      await item.getByRole('button', { name: 'Details' }).click();
      await item.getByLabel('Add a note').fill('Tanker ordered for this afternoon');
      await item.getByRole('button', { name: 'Add note' }).click();
      await item.getByRole('region', { name: 'Notes' }).getByText('Tanker ordered for this afternoon').waitFor();

      await item.getByLabel('Assign to').selectOption({ label: 'You' });
      await item.getByRole('button', { name: 'Assign' }).click();
      await item.getByText('Assigned to You').waitFor();

      // The whole history of the machine's alarms, so that the alarm stays in view once it has cleared.
      await page.getByLabel('Status').selectOption('all');
      await page.waitForURL((url) => url.searchParams.get('status') === 'all');
      await item.getByText('Assigned to You').waitFor();
      expect(await item.getByRole('button', { name: 'Clear' }).isVisible()).toBe(true);

      // The tank is refilled: the machine's next reading ends the condition and the system clears the alarm,
      // which the page shows live, without a reload and without anyone pressing Clear.
      await telemetry({ tankLevelPct: 60, tdsPpm: 140, coldWaterTempC: 7, coinBoxPct: 20, errorCode: null });
      await item.getByText(/^Cleared by itself at/).waitFor({ timeout: 20_000 });
      expect(await item.getByText('Cleared', { exact: true }).isVisible()).toBe(true);
      expect(await item.getByText(/^Acknowledged by You at/).isVisible()).toBe(true);
      expect(await item.getByRole('button', { name: 'Clear' }).count()).toBe(0);
      expect(await item.getByRole('button', { name: 'Acknowledge' }).count()).toBe(0);
      expect(await page.evaluate(() => (window as any).__noReload)).toBe(true);
      const cleared = await seed.get<{ data: Alarm[] }>(
        `/alarms?status=cleared&machineId=${machine.espId}`,
        managerToken,
      );
      expect(cleared.data[0]).toMatchObject({
        id: acknowledged.id,
        status: 'cleared',
        clearedBy: 'auto',
        acknowledgedBy: manager.userId,
        assigneeId: manager.userId,
      });

      // Back on the active alarms: nothing left, and the navigation's count is gone.
      await page.getByLabel('Status').selectOption('active');
      await page.getByText('No active alarms. Everything is running.').waitFor();
      await page.getByRole('button', { name: 'Open menu' }).click();
      await page.getByRole('navigation', { name: 'Main' }).getByLabel('1 active alarm').waitFor({ state: 'detached' });
      await page.keyboard.press('Escape');
      expect(await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth)).toBe(0);
      expect(pageErrors).toEqual([]);
    },
    TEST_TIMEOUT * 2,
  );

  it(
    'the machine’s health page shows its readings, charts and alarm history, and saves its alarm settings',
    async () => {
      await telemetry({ tankLevelPct: 64, tdsPpm: 150, coldWaterTempC: 6.5, coinBoxPct: 35, errorCode: null });
      await eventually(
        () =>
          seed.get<{ telemetry: { tankLevelPct: number | null } }>(`/machines/${machine.espId}/health`, managerToken),
        (health) => health.telemetry.tankLevelPct === 64,
        20_000,
      );
      const { page, pageErrors } = await open(DESKTOP);
      // The readings the page itself receives (the server buckets them by the period asked for).
      const readings = page.waitForResponse((r) => new URL(r.url()).pathname.endsWith('/telemetry'));
      await page.goto(`/machine/${machine.espId}/health`);
      await page.getByRole('heading', { name: 'Machine health', level: 1 }).waitFor();

      const tank = page.getByRole('listitem', { name: 'Tank level' });
      await tank.getByText('64 %').waitFor();
      expect(await page.getByRole('listitem', { name: 'Cold water temperature' }).innerText()).toContain('6.5 °C');
      // The reading drawn: a point (the server may have merged close readings into one) or a line.
      const figure = page.getByRole('figure', { name: 'Tank level' });
      await figure.locator('.recharts-line-dots circle, path.recharts-line-curve').first().waitFor();
      // Its figures in words are those of the server's readings.
      const { data } = (await (await readings).json()) as { data: { tankLevelPct: number | null }[] };
      const tanks = data.map((r) => r.tankLevelPct).filter((v): v is number => v !== null);
      const pct = (v: number) => `${new Intl.NumberFormat('en-US', { maximumFractionDigits: 1 }).format(v)} %`;
      expect(await figure.locator('.chart-total').innerText()).toBe(
        `${tanks.length} ${tanks.length === 1 ? 'reading' : 'readings'} · ${pct(Math.min(...tanks))} to ${pct(Math.max(...tanks))}`,
      );

      const history = page.getByRole('region', { name: 'Alarm history' });
      await history.getByRole('listitem', { name: `Low tank at machine ${machine.espId}` }).waitFor();

      const settings = page.getByRole('form', { name: 'Alarm settings' });
      await settings.getByLabel('Low tank below (%)').fill('25');
      await settings.getByLabel('Business hours from').fill('07:00');
      await settings.getByRole('button', { name: 'Save alarm settings' }).click();
      await page.getByText('Alarm settings saved.').waitFor();
      const saved = await seed.get<AlarmSettings>(`/machines/${machine.espId}/alarm-settings`, managerToken);
      expect(saved).toMatchObject({ lowTankPct: 25, businessHours: { from: '07:00', to: '22:00' } });

      // A value the server refuses comes back with its reason.
      await settings.getByLabel('Low tank below (%)').fill('99');
      await settings.getByRole('button', { name: 'Save alarm settings' }).click();
      expect(await page.getByRole('region', { name: 'Alarm settings' }).getByRole('alert').innerText()).toMatch(
        /^Error: .*95/,
      );
      expect(pageErrors).toEqual([]);

      // On a phone the same page fits the screen, charts included.
      const phone = await open(PHONE);
      await phone.page.goto(`/machine/${machine.espId}/health`);
      await phone.page.getByRole('figure', { name: 'Coin box' }).waitFor();
      await phone.page.getByRole('form', { name: 'Alarm settings' }).waitFor();
      expect(await phone.page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth)).toBe(0);
      expect(phone.pageErrors).toEqual([]);
    },
    TEST_TIMEOUT * 2,
  );

  it(
    'My Account keeps the manager’s notification preferences, and the screens speak Kiswahili on request',
    async () => {
      const { page, pageErrors } = await open(PHONE);
      await page.goto('/manager/profile/acc');
      const form = page.getByRole('form', { name: 'Alarm notifications' });
      await form.waitFor();
      expect(await form.getByRole('checkbox', { name: 'SMS' }).isChecked()).toBe(true);

      await form.getByRole('checkbox', { name: 'SMS' }).uncheck();
      await form.getByLabel('Only alarms at least').selectOption('critical');
      await form.getByRole('checkbox', { name: 'Quiet hours' }).check();
      await form.getByLabel('Quiet from').fill('21:00');
      await form.getByLabel('Quiet until').fill('06:30');
      await form.getByRole('button', { name: 'Save preferences' }).click();
      await page.getByText('Preferences saved.').waitFor();
      const saved = await seed.get<NotificationPreferences>('/user/notification-preferences', managerToken);
      expect(saved).toEqual({
        email: true,
        sms: false,
        minSeverity: 'critical',
        quietHours: { from: '21:00', to: '06:30' },
      });

      await page.getByLabel('Language').selectOption('sw');
      await page.getByRole('button', { name: 'Hifadhi mapendeleo' }).waitFor();
      await page.goto('/alarms');
      await page.getByRole('heading', { name: 'Tahadhari', level: 1 }).waitFor();
      expect(await page.evaluate(() => document.documentElement.lang)).toBe('sw');
      expect(await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth)).toBe(0);
      expect(pageErrors).toEqual([]);
    },
    TEST_TIMEOUT,
  );
});
