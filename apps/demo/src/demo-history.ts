import { Logger } from '@nestjs/common';
import type { DataSource } from 'typeorm';

/**
 * Some weeks of plausible sales for the demo machines, today's earlier hours included (docs/operations.md,
 * "Demo data"), written in two statements: the rows, then their rollups. Runs once: skipped when the
 * machines have history.
 */
export async function seedDemoHistory(
  dataSource: DataSource,
  espIds: string[],
  timezone: string,
  days = 28,
): Promise<number> {
  const [{ n }] = await dataSource.query(`SELECT count(*)::int AS n FROM sales WHERE esp_id = ANY($1)`, [espIds]);
  if (n > 0) return 0;
  const inserted = await dataSource.transaction(async (m) => {
    // ~40–90 sales per machine and day, busier mornings (6–9) and evenings (17–20) local time.
    const rows: { count: number }[] = await m.query(
      `
      WITH slots AS (
        SELECT e.esp_id, d.day, s.n
        FROM unnest($1::text[]) AS e(esp_id)
        -- day 0 is today: its hours up to now are filled too, so today's figures are not empty at start
        CROSS JOIN generate_series(0, $2) AS d(day)
        CROSS JOIN LATERAL generate_series(1, 40 + (random() * 50)::int) AS s(n)
      ),
      shaped AS (
        SELECT esp_id, day, n,
               (ARRAY[6,7,7,8,8,9,10,11,12,13,14,15,16,17,17,18,18,19,19,20,21])[1 + (random() * 20)::int] AS hour,
               (random() * 59)::int AS minute,
               (ARRAY[1,5,5,10,10,20,1.5,2.5])[1 + (random() * 7)::int]::numeric AS volume,
               (ARRAY['pure','fresh','fresh','cold'])[1 + (random() * 3)::int] AS water_type,
               -- Card sales before the demo's cards were registered: a few cards from before the platform
               -- (unknown to it, flagged so); the live card sales that follow use registered cards.
               random() < 0.05 AS is_card
        FROM slots
      ),
      timed AS (
        SELECT *, ((current_date - day) + make_interval(hours => hour, mins => minute))::timestamp AT TIME ZONE $3 AS sold_at,
               'demo-history-' || day || '-' || n AS event_id
        FROM shaped
      ),
      -- Exactly once through the sale keys, as the ingest (docs/partitions.md, "Exactly once").
      keyed AS (
        INSERT INTO sale_keys (esp_id, event_id, sold_at)
        SELECT esp_id, event_id, sold_at FROM timed WHERE sold_at < now()
        ON CONFLICT (esp_id, event_id) DO NOTHING
        RETURNING esp_id, event_id
      )
      INSERT INTO sales (esp_id, event_id, kind, price, volume, water_type, card_id, flag, sold_at, local_date, received_at, source)
      SELECT esp_id, event_id, CASE WHEN is_card THEN 'card' ELSE 'coin' END,
             volume * CASE water_type WHEN 'cold' THEN 50 WHEN 'fresh' THEN 30 ELSE 40 END,
             volume, water_type, CASE WHEN is_card THEN 'OLD-CARD-' || lpad((1 + (random() * 7)::int)::text, 3, '0') END,
             -- history predates the demo's cards, so its card sales are honest about it
             CASE WHEN is_card THEN 'unknown_card' END, sold_at, (sold_at AT TIME ZONE $3)::date, sold_at, 'mqtt'
      FROM timed JOIN keyed USING (esp_id, event_id)
      RETURNING 1`,
      [espIds, days, timezone],
    );
    for (const [table, bucket, expr] of [
      ['sales_daily', 'day', 'local_date'],
      ['sales_monthly', 'month', "date_trunc('month', local_date)::date"],
    ]) {
      await m.query(
        `INSERT INTO ${table} AS r (esp_id, ${bucket}, kind, price_total, volume_total, sales_count)
         SELECT esp_id, ${expr}, kind, sum(price), sum(volume), count(*) FROM sales
         WHERE esp_id = ANY($1) AND event_id LIKE 'demo-history-%' GROUP BY 1, 2, 3
         ON CONFLICT (esp_id, ${bucket}, kind) DO UPDATE SET
           price_total = r.price_total + excluded.price_total,
           volume_total = r.volume_total + excluded.volume_total,
           sales_count = r.sales_count + excluded.sales_count`,
        [espIds],
      );
    }
    return rows.length;
  });
  new Logger('Demo').log(`Seeded ${inserted} sales of history over ${days} days`);
  return inserted;
}
