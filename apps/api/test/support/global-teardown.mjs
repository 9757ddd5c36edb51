import pg from 'pg';
import { Redis } from 'ioredis';

const PG_URL = process.env.TEST_PG_URL ?? 'postgres://postgres@localhost:5432/postgres';
const REDIS_URL = process.env.TEST_REDIS_URL ?? 'redis://localhost:6379';

/** Drops every database and Redis key of this run, including what crashed files left behind. */
export default async function globalTeardown() {
  const runId = process.env.WV_TEST_RUN_ID;
  if (!runId) return;
  const client = new pg.Client({ connectionString: PG_URL });
  await client.connect();
  const { rows } = await client.query('SELECT datname FROM pg_database WHERE datname LIKE $1', [`wv_test_${runId}_%`]);
  for (const { datname } of rows)
    await client.query(`DROP DATABASE IF EXISTS ${pg.escapeIdentifier(datname)} WITH (FORCE)`);
  await client.end();

  const redis = new Redis(REDIS_URL);
  let cursor = '0';
  do {
    const [next, keys] = await redis.scan(cursor, 'MATCH', `wvtest-${runId}-*`, 'COUNT', 1000);
    if (keys.length) await redis.del(...keys);
    cursor = next;
  } while (cursor !== '0');
  await redis.quit();
}
