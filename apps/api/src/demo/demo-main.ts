import { Logger } from '@nestjs/common';
import { fileURLToPath } from 'node:url';
import { DataSource } from 'typeorm';
import { assertPortFree, startApp } from '../bootstrap.js';
import { ConfigError, loadConfig } from '../config/app-config.js';
import { DEMO_ACCOUNTS, DEMO_PASSWORD } from './demo-accounts.js';
import { seedDemo } from './demo-seed.js';
import { seedDemoHistory } from './demo-history.js';
import { DEMO_CARDS, seedDemoMoney } from './demo-money.js';
import { BrokerService } from '../device-bridge/broker.service.js';
import { Fleet } from '@wv/simulator';

/**
 * `npm run demo`: the whole system with demo accounts and a simulated fleet (CONTRACT section 6).
 * Uses its own database by default so that it never mixes demo data into a real one.
 */
const env = { ...process.env };
env.DATABASE_URL ??= 'postgres://postgres@localhost:5432/water_vending_demo';
env.REDIS_PREFIX ??= 'wv-demo';
env.ADMIN_EMAIL ??= DEMO_ACCOUNTS.admin.email;
env.ADMIN_PASSWORD ??= DEMO_PASSWORD;
env.WEB_DIST ??= fileURLToPath(new URL('../../../web/dist', import.meta.url));

try {
  if (!env.MQTT_PORT) {
    // CONTRACT section 1: when MQTT_PORT is not set and 1883 is taken, the demo takes a free port and says so.
    const free = await assertPortFree(1883, 'MQTT_PORT').then(
      () => true,
      () => false,
    );
    env.MQTT_PORT = free ? '1883' : '0';
    if (!free) new Logger('Demo').warn('Port 1883 is taken: the demo broker takes a free port instead');
  }
  const config = loadConfig(env);
  const running = await startApp(config);
  running.app.enableShutdownHooks();
  const dataSource = running.app.get(DataSource);
  const fleet = await seedDemo(dataSource);
  await seedDemoHistory(
    dataSource,
    fleet.machines.map((m) => m.espId),
    config.timezone,
  );
  const mqttPort = running.app.get(BrokerService).mqttPort!;
  await seedDemoMoney(`http://127.0.0.1:${running.port}`, fleet.machines[0]!.espId);
  const simulator = new Fleet({
    cards: DEMO_CARDS,
    url: `mqtt://127.0.0.1:${mqttPort}`,
    identities: fleet.machines,
    rate: Number(env.DEMO_RATE ?? 2),
    dayCurve: false,
    offlineProbability: 0.02,
    duplicateProbability: 0.01,
  });
  await simulator.start();
  const stopSimulator = () => void simulator.stop();
  process.once('SIGINT', stopSimulator);
  process.once('SIGTERM', stopSimulator);
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
      `  ${fleet.machines.length} demo machines belong to the manager and sell live over MQTT (port ${mqttPort}).`,
      `  API docs: ${url}/api/docs`,
      '  Press Ctrl-C to stop.',
      '',
    ].join('\n'),
  );
} catch (error) {
  console.error(`Cannot start the demo: ${error instanceof ConfigError ? error.message : String(error)}`);
  process.exit(1);
}
