import { randomBytes } from 'node:crypto';
import { Redis } from 'ioredis';
import { DataSource } from 'typeorm';
import { startApp, type RunningApp } from '../../src/bootstrap.js';
import { loadConfig, type AppConfig } from '../../src/config/app-config.js';
import { BrokerService } from '../../src/device-bridge/broker.service.js';
import { cloneTemplate, databaseUrl, dropDatabase, TEST_REDIS_URL } from './test-databases.js';
import { HttpClient } from './http-client.js';

export const TEST_ADMIN = { email: 'admin@test.local', password: 'admin-pass-1234' };

export interface TestApp {
  baseUrl: string;
  /** The embedded broker's port (0 when this app runs without the broker role). */
  mqttPort: number;
  config: AppConfig;
  http: HttpClient;
  dataSource: DataSource;
  running: RunningApp;
  close(): Promise<void>;
}

/** Each test file gets its own database (cloned from the run's template) and its own Redis prefix. */
export function testPrefix(): string {
  const runId = process.env.WV_TEST_RUN_ID;
  if (!runId) throw new Error('WV_TEST_RUN_ID is not set: run the tests through Jest (globalSetup)');
  return `wvtest-${runId}-${randomBytes(3).toString('hex')}`;
}

export async function createTestDatabase(): Promise<{ name: string; url: string }> {
  const name = await cloneTemplate(process.env.WV_TEST_RUN_ID!);
  return { name, url: databaseUrl(name) };
}

export async function deleteRedisPrefix(prefix: string): Promise<void> {
  const redis = new Redis(TEST_REDIS_URL);
  let cursor = '0';
  do {
    const [next, keys] = await redis.scan(cursor, 'MATCH', `${prefix}*`, 'COUNT', 1000);
    if (keys.length) await redis.del(...keys);
    cursor = next;
  } while (cursor !== '0');
  await redis.quit();
}

/** Starts the real program in this process on free ports against real PostgreSQL and Redis. */
export async function createTestApp(env: Record<string, string> = {}): Promise<TestApp> {
  const db = await createTestDatabase();
  const prefix = testPrefix();
  const config = loadConfig({
    PORT: '0',
    MQTT_PORT: '0',
    DATABASE_URL: db.url,
    REDIS_URL: TEST_REDIS_URL,
    REDIS_PREFIX: prefix,
    JWT_SECRET: randomBytes(24).toString('hex'),
    ADMIN_EMAIL: TEST_ADMIN.email,
    ADMIN_PASSWORD: TEST_ADMIN.password,
    LOG_LEVEL: 'error',
    ...env,
  });
  const running = await startApp(config);
  const baseUrl = `http://127.0.0.1:${running.port}`;
  return {
    baseUrl,
    mqttPort:
      config.roles.has('broker') && config.mqtt.mode === 'embedded'
        ? (running.app.get(BrokerService).mqttPort ?? 0)
        : 0,
    config,
    http: new HttpClient(baseUrl),
    dataSource: running.app.get(DataSource),
    running,
    async close() {
      await running.close();
      await dropDatabase(db.name);
      await deleteRedisPrefix(prefix);
    },
  };
}
