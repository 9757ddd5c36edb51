import type pg from 'pg';
import { Redis } from 'ioredis';
import { SHARED_COUNTERS } from '../../../api/src/counters/shared-counters.js';
import { TEST_REDIS_URL } from '../../../api/test/support/test-databases.js';

/**
 * Records machines seeded straight into `devices` as connected now, the way the program records a machine's connect
 * (docs/scale-out.md, docs/alarms.md): online through the program's broker process (`online_via`) and online since
 * now (`machine_health.online_since`). A row marked online without them is a machine no connection explains: each
 * broker process marks offline, every 15 s, the online machines of processes that no longer report, and the alarm
 * sweep counts such a machine's time without sales from the start of its business hours, opening `no_sales` in the
 * middle of a test. The broker reports itself in Redis before it listens, so a started program has exactly one.
 */
export async function recordConnected(
  db: pg.Client,
  redisPrefix: string,
  espIds: string[],
  now = new Date(),
): Promise<void> {
  const redis = new Redis(TEST_REDIS_URL);
  let via: string;
  try {
    const ids = Object.keys(await redis.hgetall(`${redisPrefix}:${SHARED_COUNTERS.brokerConnected}`));
    if (ids.length !== 1) throw new Error(`expected one broker process in Redis, found ${ids.length}`);
    via = ids[0]!;
  } finally {
    redis.disconnect();
  }
  await db.query(
    `UPDATE devices SET online = true, online_via = $2, last_seen_at = $3 WHERE esp_id = ANY($1::text[])`,
    [espIds, via, now.toISOString()],
  );
  await db.query(
    `INSERT INTO machine_health (esp_id, online_since) SELECT unnest($1::text[]), $2::timestamptz
     ON CONFLICT (esp_id) DO UPDATE SET online_since = excluded.online_since`,
    [espIds, now.toISOString()],
  );
}
