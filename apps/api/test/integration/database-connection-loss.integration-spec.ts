import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import pg from 'pg';
import { createTestApp, type TestApp } from '../support/test-app.js';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('a database connection lost in the middle of a transaction', () => {
  let t: TestApp;
  const uncaught: unknown[] = [];
  const onUncaught = (error: unknown) => uncaught.push(error);
  beforeAll(async () => {
    t = await createTestApp();
    process.on('uncaughtException', onUncaught);
  });
  afterAll(async () => {
    process.off('uncaughtException', onUncaught);
    await t.close();
  });

  it('fails that transaction without an unhandled error event that would end the process', async () => {
    const dataSource = t.dataSource;
    const admin = new pg.Client({ connectionString: t.config.databaseUrl });
    await admin.connect();
    try {
      // What PostgreSQL does to every session on a restart or failover (57P01), here to one session
      // that sits between two statements of a transaction, as a worker's transaction does while it
      // computes the next statement.
      const runner = dataSource.createQueryRunner();
      await runner.connect();
      await runner.startTransaction();
      const [{ pid }] = (await runner.query('SELECT pg_backend_pid() AS pid')) as { pid: number }[];
      await admin.query('SELECT pg_terminate_backend($1)', [pid]);
      await sleep(300);
      await expect(runner.query('SELECT 1')).rejects.toThrow();
      await runner.release().catch(() => undefined);
      await sleep(300);
      expect(uncaught).toEqual([]);
      // The pool replaces the lost connection.
      expect(await dataSource.query('SELECT 1 AS one')).toEqual([{ one: 1 }]);
    } finally {
      await admin.end();
    }
  });

  it('does not end the process when a connection breaks while no one listens to its client', async () => {
    // A client taken from the pool as TypeORM does before its query runner attaches a listener, and
    // after its runner detached it on a first error.
    const driver = t.dataSource.driver as unknown as {
      obtainMasterConnection(): Promise<[pg.Client, (error?: Error) => void]>;
    };
    const [client, release] = await driver.obtainMasterConnection();
    const admin = new pg.Client({ connectionString: t.config.databaseUrl });
    await admin.connect();
    try {
      const { rows } = await client.query<{ pid: number }>('SELECT pg_backend_pid() AS pid');
      await admin.query('SELECT pg_terminate_backend($1)', [rows[0]!.pid]);
      await sleep(500);
      expect(uncaught).toEqual([]);
    } finally {
      release(new Error('terminated'));
      await admin.end();
    }
  });
});
