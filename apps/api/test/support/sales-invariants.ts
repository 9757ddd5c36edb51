import type pg from 'pg';

/** A pg.Client or pg.Pool: the checks run on either. */
export type Queryable = Pick<pg.Pool, 'query'>;

/** How often each `espId/eventId` is stored (docs/decisions/0002-exactly-once-by-unique-key.md: exactly once). */
export async function storedKeys(db: Queryable): Promise<Map<string, number>> {
  const { rows } = await db.query<{ key: string; n: number }>(
    `SELECT esp_id || '/' || event_id AS key, count(*)::int AS n FROM sales GROUP BY 1`,
  );
  return new Map(rows.map((r) => [r.key, r.n]));
}

/** Waits until every key is stored; returns the ones still missing at the deadline. */
export async function waitUntilStored(db: Queryable, keys: Set<string>, timeoutMs: number): Promise<string[]> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const stored = await storedKeys(db);
    const missing = [...keys].filter((k) => !stored.has(k));
    if (missing.length === 0 || Date.now() > deadline) return missing;
    await new Promise((r) => setTimeout(r, 500));
  }
}

/** Rollups equal the sums of the rows, per machine, day and kind (and month); returns the mismatches. */
/**
 * Waits until no sale has been stored for `quietMs` (or `timeoutMs` passed): what is still in the queue (sales
 * taken before a crash but never acknowledged) has come out, so the next test does not find it in its own table.
 */
export async function waitUntilQuiet(db: Queryable, quietMs: number, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  let last = -1;
  let since = Date.now();
  while (Date.now() < deadline) {
    const { rows } = await db.query<{ n: number }>('SELECT count(*)::int AS n FROM sales');
    const n = rows[0]!.n;
    if (n !== last) {
      last = n;
      since = Date.now();
    } else if (Date.now() - since >= quietMs) return;
    await new Promise((r) => setTimeout(r, 250));
  }
}

export async function rollupMismatches(db: Queryable): Promise<unknown[]> {
  const { rows } = await db.query(`
    WITH s AS (SELECT esp_id, local_date, kind, sum(price) p, sum(volume) v, count(*) n FROM sales GROUP BY 1, 2, 3),
         m AS (SELECT esp_id, date_trunc('month', local_date)::date AS month, kind, sum(price) p, sum(volume) v, count(*) n FROM sales GROUP BY 1, 2, 3)
    SELECT 'daily' AS t, coalesce(s.esp_id, d.esp_id) AS esp_id FROM s FULL JOIN sales_daily d ON d.esp_id = s.esp_id AND d.day = s.local_date AND d.kind = s.kind
      WHERE d.price_total IS DISTINCT FROM s.p OR d.volume_total IS DISTINCT FROM s.v OR d.sales_count IS DISTINCT FROM s.n
    UNION ALL
    SELECT 'monthly', coalesce(m.esp_id, mo.esp_id) FROM m FULL JOIN sales_monthly mo ON mo.esp_id = m.esp_id AND mo.month = m.month AND mo.kind = m.kind
      WHERE mo.price_total IS DISTINCT FROM m.p OR mo.volume_total IS DISTINCT FROM m.v OR mo.sales_count IS DISTINCT FROM m.n`);
  return rows;
}
