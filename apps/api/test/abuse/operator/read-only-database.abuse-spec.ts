/**
 * Operator incidents, PostgreSQL unavailable (docs/security.md): a database that turns read-only
 * (a failover to a standby, a full disk guard, an operator's `default_transaction_read_only`) refuses
 * every write with SQLSTATE 25006. Those sales were already acknowledged to their machines, which then
 * forgot them: the sales queue must wait for the database, however long that takes, and never spend
 * a batch's retry attempts (or fail it) on the database's state.
 */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { Queue } from 'bullmq';
import { Redis } from 'ioredis';
import { randomUUID } from 'node:crypto';
import pg from 'pg';
import { bullPrefix, SALES_QUEUE } from '../../../src/queue/queue-connection.js';
import { provisionDevice } from '../../factories/fleet.factory.js';
import { waitFor } from '../../support/mqtt-machine.js';
import { TEST_PG_URL } from '../../support/test-databases.js';
import { createTestApp, TEST_ADMIN, type TestApp } from '../../support/test-app.js';

/** Small on purpose: the whole retry budget of a batch (3 tries, 100 then 200 ms apart) is under a second. */
const RETRY = { SALES_RETRY_ATTEMPTS: '3', SALES_RETRY_DELAY_MS: '100' };
const BATCHES = 6;
const PER_BATCH = 10;

describe('an operator whose PostgreSQL turns read-only for a while', () => {
  let t: TestApp;
  let queue: Queue;
  let connection: Redis;
  let device: { espId: string; deviceKey: string };
  let dbName: string;

  /**
   * One statement on a connection of its own: the program's pooled sessions are the ones the test
   * terminates. ALTER DATABASE runs from the maintenance database (a read-only session may not run it).
   */
  async function run<R = Record<string, unknown>>(sql: string, params: unknown[] = [], url = TEST_PG_URL) {
    const client = new pg.Client({ connectionString: url });
    await client.connect();
    try {
      return (await client.query(sql, params)).rows as R[];
    } finally {
      await client.end();
    }
  }

  /** Sessions take the database's default when they start: end the open ones so that it applies now. */
  async function setReadOnly(on: boolean): Promise<void> {
    await run(`ALTER DATABASE "${dbName}" SET default_transaction_read_only = ${on ? 'on' : 'off'}`);
    await run('SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = $1 AND pid <> pg_backend_pid()', [
      dbName,
    ]);
  }

  const storedSales = async () =>
    (
      await run<{ n: number }>(
        'SELECT count(*)::int AS n FROM sales WHERE esp_id = $1',
        [device.espId],
        t.config.databaseUrl,
      )
    )[0]!.n;

  beforeAll(async () => {
    t = await createTestApp(RETRY);
    dbName = new URL(t.config.databaseUrl).pathname.slice(1);
    connection = new Redis(t.config.redisUrl, { maxRetriesPerRequest: null });
    queue = new Queue(SALES_QUEUE, { connection, prefix: bullPrefix(t.config, SALES_QUEUE) });
    const admin = await t.http.login(TEST_ADMIN.email, TEST_ADMIN.password);
    device = await provisionDevice(t.http, admin);
  }, 60_000);
  afterAll(async () => {
    await setReadOnly(false).catch(() => undefined);
    await queue?.close();
    await connection?.quit();
    await t?.close();
  }, 30_000);

  it('holds the sales while writes are refused with 25006 and stores every one once the database is writable, with no job failed', async () => {
    await setReadOnly(true);
    const failedWhileReadOnly: number[] = [];
    try {
      for (let b = 0; b < BATCHES; b++) {
        const sales = Array.from({ length: PER_BATCH }, () => ({
          eventId: randomUUID(),
          kind: 'coin',
          price: 100,
          volume: 1,
          waterType: 'pure',
        }));
        const res = await t.http.post(`/machines/${device.espId}/sales`, sales, {
          headers: { 'x-device-key': device.deviceKey },
        });
        expect(res.status).toBe(202);
      }
      // Several times the retry budget: on attempts, every batch would have failed by now.
      const until = Date.now() + 6_000;
      while (Date.now() < until) {
        failedWhileReadOnly.push((await queue.getJobCounts('failed')).failed ?? 0);
        await new Promise((r) => setTimeout(r, 250));
      }
      // The premise: nothing could be written meanwhile.
      expect(await storedSales()).toBe(0);
    } finally {
      await setReadOnly(false);
    }
    expect(Math.max(...failedWhileReadOnly)).toBe(0);

    await waitFor(storedSales, (n) => n === BATCHES * PER_BATCH, 45_000);
    const counts = await queue.getJobCounts('failed', 'waiting', 'active', 'delayed');
    expect(counts).toEqual({ failed: 0, waiting: 0, active: 0, delayed: 0 });
    const deadLetters = await run(
      'SELECT reason FROM dead_letters WHERE esp_id = $1',
      [device.espId],
      t.config.databaseUrl,
    );
    expect(deadLetters).toEqual([]);
  }, 120_000);
});
