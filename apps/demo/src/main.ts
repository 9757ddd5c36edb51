import { Logger } from '@nestjs/common';
import { fileURLToPath } from 'node:url';
import { DataSource } from 'typeorm';
import { assertPortFree, BrokerService, ConfigError, loadConfig, startApp } from '@wv/api';
import { FaultScheduler, Fleet, type Machine } from '@wv/simulator';
import { DEMO_ACCOUNTS, DEMO_PASSWORD } from './demo-accounts.js';
import { seedDemo } from './demo-seed.js';
import { seedDemoHistory } from './demo-history.js';
import { applyDemoAlarmSettings, DEMO_FAULT_STEPS, describeDemoFaults } from './demo-faults.js';
import { startDemoControl, type DemoControl } from './demo-control.js';
import { startDemoCashier, type DemoCashier } from './demo-cashier.js';
import { seedDemoMoney } from './demo-money.js';
import { seedDemoExceptions } from './demo-exceptions.js';
import { startDemoOutside, type DemoOutside } from './demo-outside.js';
import { startDemoDaraja } from './daraja/index.js';
import { ensureServices } from './services.js';

/**
 * `npm run demo`: the whole system with demo accounts and a simulated fleet (docs/operations.md, "Demo data").
 * Uses its own database by default so that it never mixes demo data into a real one.
 */
const env = { ...process.env };
env.DATABASE_URL ??= 'postgres://postgres@localhost:5432/water_vending_demo';
env.REDIS_PREFIX ??= 'wv-demo';
env.ADMIN_EMAIL ??= DEMO_ACCOUNTS.admin.email;
env.ADMIN_PASSWORD ??= DEMO_PASSWORD;
env.WEB_DIST ??= fileURLToPath(new URL('../../web/dist', import.meta.url));
/** Each demo machine reports its tank, TDS, temperature and coin box this often. */
const TELEMETRY_SECONDS = 30;

try {
  if (!(await ensureServices(env))) process.exit(1);
  if (!env.MQTT_PORT) {
    // docs/operations.md, "Configuration": when MQTT_PORT is not set and 1883 is taken, the demo takes a
    // free port and says so.
    const free = await assertPortFree(1883, 'MQTT_PORT').then(
      () => true,
      () => false,
    );
    env.MQTT_PORT = free ? '1883' : '0';
    if (!free) new Logger('Demo').warn('Port 1883 is taken: the demo broker takes a free port instead');
  }
  // The mailbox and SMS gateway the alarm notifications go to, before the configuration is read.
  const outside: DemoOutside = await startDemoOutside(env);
  const daraja = await startDemoDaraja(env);
  const config = loadConfig(env);
  const running = await startApp(config);
  // Ctrl-C or SIGTERM: the simulated machines go first, so that the program sees them leave while its
  // database is still open; then the program stops as `npm start` does (the broker drains first).
  const live: {
    simulator?: Fleet;
    faults?: FaultScheduler<Machine>;
    control?: DemoControl;
    cashier?: DemoCashier;
  } = {};
  const stop = async () => {
    live.faults?.stop();
    live.cashier?.stop();
    await live.control?.stop().catch(() => undefined);
    await live.simulator?.stop().catch(() => undefined);
    await running.close();
    await outside.stop().catch(() => undefined);
    await daraja.stop().catch(() => undefined);
    process.exit(0);
  };
  process.once('SIGINT', () => void stop());
  process.once('SIGTERM', () => void stop());
  const dataSource = running.app.get(DataSource);
  const fleet = await seedDemo(dataSource);
  await seedDemoHistory(
    dataSource,
    fleet.machines.map((m) => m.espId),
    config.timezone,
  );
  const mqttPort = running.app.get(BrokerService).mqttPort!;
  const apiUrl = `http://127.0.0.1:${running.port}`;
  await seedDemoMoney(apiUrl, fleet.machines[0]!.espId);
  await seedDemoExceptions(apiUrl, fleet.machines[0]!);
  const faultsOn = env.DEMO_FAULTS !== 'off';
  if (faultsOn) {
    // Without the short thresholds the faults still run; their offline and no_sales alarms just take longer.
    await applyDemoAlarmSettings(apiUrl).catch((error: Error) =>
      new Logger('Demo').warn(`Cannot shorten the alarm thresholds: ${error.message}`),
    );
  }
  const simulator = new Fleet({
    // Card sales as firmware makes them: on the list of the manager's cards each machine is sent, refused by
    // the machine itself when blocked, over their daily limit or out of balance, online or cut off.
    sellFromCardList: true,
    url: `mqtt://127.0.0.1:${mqttPort}`,
    identities: fleet.machines,
    rate: Number(env.DEMO_RATE ?? 2),
    dayCurve: false,
    offlineProbability: 0.02,
    duplicateProbability: 0.01,
    telemetryIntervalMs: TELEMETRY_SECONDS * 1000,
  });
  live.simulator = simulator;
  await simulator.start();
  const demoLog = new Logger('Demo');
  simulator.on('fault', (m, kind, on) => demoLog.log(`${m.espId}: fault ${kind} ${on ? 'began' : 'ended'}`));
  const steps = faultsOn ? DEMO_FAULT_STEPS : [];
  live.faults = new FaultScheduler(steps, (ref) => simulator.resolve(ref));
  live.faults.start();
  live.control = await startDemoControl(simulator, env.DEMO_CONTROL_PORT);
  live.cashier = startDemoCashier(apiUrl, fleet.machines[0]!.espId, 60_000);
  const url = `http://localhost:${running.port}`;
  console.log(
    [
      '',
      `  Water Vending Solutions demo is running at ${url}`,
      '',
      `  Sign in as (password ${DEMO_PASSWORD}):`,
      `    admin      ${DEMO_ACCOUNTS.admin.email}`,
      `    manager    ${DEMO_ACCOUNTS.manager.email}`,
      `    attendant  ${DEMO_ACCOUNTS.attendant.email}`,
      '',
      `  ${fleet.machines.length} demo machines belong to the manager and sell live over MQTT (port ${mqttPort}),`,
      `  each reporting telemetry every ${TELEMETRY_SECONDS} s.`,
      ...(steps.length
        ? [
            '  Scripted faults open alarms that clear by themselves (DEMO_FAULTS=off to stop them):',
            ...describeDemoFaults(steps),
          ]
        : []),
      '',
      `  Cut a machine off the network and bring it back (it sells on offline): ${live.control.url}`,
      `  Alarm emails and SMS (${outside.channels.join(' and ') || 'none caught here'}) arrive at ${outside.inboxUrl}`,
      ...(daraja.url
        ? [`  M-Pesa top-ups go to a local Daraja sandbox (${daraja.url}); its customers pay after 4 s`]
        : []),
      `  API docs: ${url}/api/docs`,
      '  Press Ctrl-C to stop.',
      '',
    ].join('\n'),
  );
} catch (error) {
  console.error(`Cannot start the demo: ${error instanceof ConfigError ? error.message : String(error)}`);
  process.exit(1);
}
