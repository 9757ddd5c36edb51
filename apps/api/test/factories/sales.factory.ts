import { randomUUID } from 'node:crypto';
import type { DataSource } from 'typeorm';

/** One sale as a machine publishes it (device protocol): a coin sale of now unless overridden. */
export function saleMessage(overrides: Record<string, unknown> = {}) {
  return {
    eventId: randomUUID(),
    kind: 'coin',
    price: 500,
    volume: 10,
    waterType: 'pure',
    time: new Date().toISOString(),
    ...overrides,
  };
}

export interface FixtureSale {
  espId: string;
  kind: 'coin' | 'card';
  price: number;
  volume: number;
  waterType: 'pure' | 'fresh' | 'cold';
  cardId?: string | null;
  flag?: 'unknown_card' | 'overdrawn' | null;
  soldAt: Date;
}

/**
 * Writes sales straight into PostgreSQL for big or exact fixtures, then rebuilds the daily and monthly
 * rollups of those machines from the rows, as the ingest keeps them (local days of `timezone`).
 */
export async function insertSales(ds: DataSource, sales: FixtureSale[], timezone: string): Promise<string[]> {
  if (sales.length === 0) return [];
  const rows: { id: string }[] = await ds.query(
    `INSERT INTO sales (esp_id, event_id, kind, price, volume, water_type, card_id, flag, sold_at, local_date, source)
     SELECT esp_id, event_id, kind, price, volume, water_type, card_id, flag, sold_at, (sold_at AT TIME ZONE $11)::date, 'rest'
     FROM unnest($1::text[], $2::text[], $3::text[], $4::numeric[], $5::numeric[], $6::text[], $7::text[], $8::text[],
                 $9::timestamptz[], $10::int[]) AS t(esp_id, event_id, kind, price, volume, water_type, card_id, flag, sold_at, n)
     ORDER BY n
     RETURNING id::text`,
    [
      sales.map((s) => s.espId),
      sales.map(() => randomUUID()),
      sales.map((s) => s.kind),
      sales.map((s) => s.price.toFixed(2)),
      sales.map((s) => s.volume.toFixed(3)),
      sales.map((s) => s.waterType),
      sales.map((s) => s.cardId ?? null),
      sales.map((s) => s.flag ?? null),
      sales.map((s) => s.soldAt.toISOString()),
      sales.map((_, i) => i),
      timezone,
    ],
  );
  await rebuildRollups(ds, [...new Set(sales.map((s) => s.espId))]);
  return rows.map((r) => r.id);
}

export async function rebuildRollups(ds: DataSource, espIds: string[]): Promise<void> {
  await ds.transaction(async (m) => {
    for (const [table, bucket, expr] of [
      ['sales_daily', 'day', 'local_date'],
      ['sales_monthly', 'month', `date_trunc('month', local_date)::date`],
    ] as const) {
      await m.query(`DELETE FROM ${table} WHERE esp_id = ANY($1)`, [espIds]);
      await m.query(
        `INSERT INTO ${table} (esp_id, ${bucket}, kind, price_total, volume_total, sales_count)
         SELECT esp_id, ${expr}, kind, sum(price), sum(volume), count(*) FROM sales WHERE esp_id = ANY($1)
         GROUP BY 1, 2, 3`,
        [espIds],
      );
    }
  });
}

/** A card registered at `espId`, straight in SQL (the card API is the ledger's). */
export async function insertCard(
  ds: DataSource,
  card: { cardId: string; espId: string; firstName: string; lastName: string; cardType: string },
): Promise<void> {
  await ds.query(
    `INSERT INTO cards (card_id, esp_id, holder_first_name, holder_last_name, card_type, balance)
     VALUES ($1, $2, $3, $4, $5, 0)`,
    [card.cardId, card.espId, card.firstName, card.lastName, card.cardType],
  );
}

/** `count` coin sales of `espId`, one a minute back from `until`, generated in SQL (big fixtures). */
export async function insertManySales(
  ds: DataSource,
  espId: string,
  count: number,
  timezone: string,
  until = new Date(),
): Promise<void> {
  await ds.query(
    `INSERT INTO sales (esp_id, event_id, kind, price, volume, water_type, sold_at, local_date, source)
     SELECT $1, 'gen-' || g, 'coin', 100 + g % 50, 1 + (g % 9) * 0.5, (ARRAY['pure','fresh','cold'])[1 + g % 3], t,
            (t AT TIME ZONE $4)::date, 'rest'
     FROM generate_series(1, $2::int) g, LATERAL (SELECT $3::timestamptz - g * interval '1 minute' AS t) x`,
    [espId, count, until.toISOString(), timezone],
  );
  await rebuildRollups(ds, [espId]);
}
