import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { DataSource } from 'typeorm';
import { dataSourceOptions } from '../../src/database/data-source-options.js';
import { migrations } from '../../src/database/migrations/index.js';

/**
 * Tests talk to the real PostgreSQL and Redis of this machine (docs/operations.md, "Redis and PostgreSQL settings"),
 * never a mock.
 */
export const TEST_PG_URL = process.env.TEST_PG_URL ?? 'postgres://postgres@localhost:5432/postgres';
export const TEST_REDIS_URL = process.env.TEST_REDIS_URL ?? 'redis://localhost:6379';

export function databaseUrl(name: string): string {
  const url = new URL(TEST_PG_URL);
  url.pathname = `/${name}`;
  return url.toString();
}

async function admin<T>(work: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: TEST_PG_URL });
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end();
  }
}

/**
 * A migrated template per test run, made by the first file that needs it (an advisory lock makes
 * the others wait); each file then clones it, which is much faster than migrating every database.
 */
async function ensureTemplate(runId: string): Promise<string> {
  const name = `wv_test_${runId}_tpl`;
  await admin(async (c) => {
    await c.query('SELECT pg_advisory_lock(hashtext($1))', [name]);
    try {
      const exists = await c.query('SELECT 1 FROM pg_database WHERE datname = $1', [name]);
      if (exists.rowCount) return;
      await c.query(`CREATE DATABASE ${name}`);
      const ds = new DataSource(dataSourceOptions(databaseUrl(name)));
      await ds.initialize();
      await ds.runMigrations({ transaction: 'each' });
      await ds.destroy();
    } finally {
      await c.query('SELECT pg_advisory_unlock(hashtext($1))', [name]);
    }
  });
  return name;
}

export async function cloneTemplate(runId: string): Promise<string> {
  const template = await ensureTemplate(runId);
  const name = `wv_test_${runId}_${randomBytes(4).toString('hex')}`;
  // CREATE DATABASE … TEMPLATE fails while another session is connected to the template: retry briefly.
  for (let attempt = 0; ; attempt++) {
    try {
      await admin((c) => c.query(`CREATE DATABASE ${name} TEMPLATE ${template}`));
      return name;
    } catch (error) {
      if (attempt >= 20 || !/being accessed by other users/.test(String(error))) throw error;
      await new Promise((r) => setTimeout(r, 100 + Math.random() * 200));
    }
  }
}

export async function dropDatabase(name: string): Promise<void> {
  await admin((c) => c.query(`DROP DATABASE IF EXISTS ${pg.escapeIdentifier(name)} WITH (FORCE)`));
}

/** An empty database of a migration test's own, `label` in its name (drop it with dropDatabase). */
export async function emptyDatabase(label: string): Promise<string> {
  const name = `wv_test_${process.env.WV_TEST_RUN_ID}_${label}_${randomBytes(3).toString('hex')}`;
  await admin((c) => c.query(`CREATE DATABASE ${name}`));
  return name;
}

/**
 * A connection to database `name` that knows only the first `count` migrations, run: the schema of a release
 * before a migration, or up to it (so that undoing the last migration undoes that one).
 */
export async function migratedUpTo(name: string, count: number): Promise<DataSource> {
  const ds = new DataSource({ ...dataSourceOptions(databaseUrl(name)), migrations: migrations.slice(0, count) });
  await ds.initialize();
  await ds.runMigrations({ transaction: 'each' });
  return ds;
}
