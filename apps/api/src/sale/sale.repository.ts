import { Injectable } from '@nestjs/common';
import type { SaleFlag } from '@wv/contracts';
import { DataSource, EntityManager } from 'typeorm';
import type { CommittedSale } from '../events/domain-events.js';

export interface SaleRow {
  espId: string;
  eventId: string;
  kind: 'coin' | 'card';
  price: number;
  volume: number;
  waterType: string;
  cardId: string | null;
  soldAt: Date;
  receivedAt: Date;
  source: 'mqtt' | 'rest';
  seq: number | null;
  offline: boolean;
  dispensed: number | null;
  /**
   * `unknown_card` and `foreign_card` are known before the insert; `blocked_card`, `overdrawn` and
   * `over_limit` only after it, from the rows really inserted (setFlags).
   */
  flag?: Extract<SaleFlag, 'unknown_card' | 'foreign_card'> | null;
}

/** A sale as the insert returned it; the payload of the `sales.committed` domain event. */
export type InsertedSale = CommittedSale;

export interface DeadLetterInput {
  espId: string | null;
  topic: string;
  reason: string;
  payload: string;
  receivedAt: Date;
  deliveryKey: string;
}

/**
 * The only place that builds queries on sales, their rollups and dead letters (the partitions of `sales`
 * are SalePartitionRepository's).
 */
@Injectable()
export class SaleRepository {
  constructor(private readonly dataSource: DataSource) {}

  /**
   * One statement: inserts the batch (duplicates of `(esp_id, event_id)` do nothing) and adds the rows
   * it really inserted to the daily and monthly rollups of APP_TIMEZONE. Returns the inserted rows, in
   * time order. Rows are sorted so that concurrent batches take row locks in the same order (no deadlocks).
   *
   * `sales` is partitioned by `sold_at`, which a redelivery without `time` changes, so it cannot hold a
   * unique `(esp_id, event_id)`: the batch first claims its keys in `sale_keys`, and only the keys it
   * really inserted become sales (docs/partitions.md, "Exactly once").
   *
   * The rows travel as one JSON parameter, and only what the database decides (id, local date) and the key comes
   * back; the rest of each returned sale is the row given. Fourteen array parameters cost the driver an
   * escape per element and returning every column a parse per value: together a sixth of a worker's
   * CPU in the ingest profile (docs/performance.md).
   */
  async insertBatch(m: EntityManager, rows: SaleRow[], timezone: string): Promise<InsertedSale[]> {
    if (rows.length === 0) return [];
    const input = rows.map((r, i) => ({
      i,
      esp_id: r.espId,
      event_id: r.eventId,
      kind: r.kind,
      price: r.price.toFixed(2),
      volume: r.volume.toFixed(3),
      water_type: r.waterType,
      card_id: r.cardId,
      // Text already: JSON.stringify's own conversion of a Date (through toJSON) cost twice as much (docs/performance.md,
      // "The parser's copy of a sale").
      sold_at: r.soldAt.toISOString(),
      received_at: r.receivedAt.toISOString(),
      source: r.source,
      flag: r.flag ?? null,
      seq: r.seq === null ? null : String(r.seq),
      offline: r.offline,
      dispensed: r.dispensed === null ? null : r.dispensed.toFixed(3),
    }));
    const inserted: { id: string; espId: string; eventId: string; localDate: string }[] = await m.query(
      `
      WITH input AS (
        SELECT * FROM json_to_recordset($1::json)
          AS t(i int, esp_id text, event_id text, kind text, price numeric, volume numeric, water_type text, card_id text,
               sold_at timestamptz, received_at timestamptz, source text, flag text, seq bigint, offline boolean,
               dispensed numeric)
      ),
      claimed AS (
        INSERT INTO sale_keys (esp_id, event_id, sold_at)
        SELECT DISTINCT ON (esp_id, event_id) esp_id, event_id, sold_at FROM input ORDER BY esp_id, event_id, i
        ON CONFLICT (esp_id, event_id) DO NOTHING
        RETURNING esp_id, event_id
      ),
      fresh AS (
        SELECT DISTINCT ON (esp_id, event_id) input.* FROM input JOIN claimed USING (esp_id, event_id)
        ORDER BY esp_id, event_id, i
      ),
      inserted AS (
        INSERT INTO sales (esp_id, event_id, kind, price, volume, water_type, card_id, sold_at, local_date, received_at,
                           source, flag, seq, offline, dispensed)
        SELECT esp_id, event_id, kind, price, volume, water_type, card_id, sold_at,
               (sold_at AT TIME ZONE $2)::date, received_at, source, flag, seq, offline, dispensed
        FROM fresh ORDER BY esp_id, event_id
        RETURNING id, esp_id, event_id, kind, price, volume, sold_at, local_date
      ),
      daily AS (
        INSERT INTO sales_daily AS d (esp_id, day, kind, price_total, volume_total, sales_count)
        SELECT esp_id, local_date, kind, sum(price), sum(volume), count(*) FROM inserted
        GROUP BY esp_id, local_date, kind ORDER BY esp_id, local_date, kind
        ON CONFLICT (esp_id, day, kind) DO UPDATE SET
          price_total = d.price_total + excluded.price_total,
          volume_total = d.volume_total + excluded.volume_total,
          sales_count = d.sales_count + excluded.sales_count
      ),
      monthly AS (
        INSERT INTO sales_monthly AS mo (esp_id, month, kind, price_total, volume_total, sales_count)
        SELECT esp_id, date_trunc('month', local_date)::date, kind, sum(price), sum(volume), count(*) FROM inserted
        GROUP BY 1, 2, 3 ORDER BY 1, 2, 3
        ON CONFLICT (esp_id, month, kind) DO UPDATE SET
          price_total = mo.price_total + excluded.price_total,
          volume_total = mo.volume_total + excluded.volume_total,
          sales_count = mo.sales_count + excluded.sales_count
      )
      SELECT s.id::text AS id, s.esp_id AS "espId", s.event_id AS "eventId", to_char(s.local_date, 'YYYY-MM-DD') AS "localDate"
      FROM inserted s
      ORDER BY s.sold_at, s.id`,
      [JSON.stringify(input), timezone],
    );
    // Back to the given rows by key here: joined in SQL, the planner (estimating one row for the CTEs) took
    // a nested loop over the batch squared, a third of the statement's time at 250 rows.
    const index = new Map<string, number>();
    rows.forEach((r, i) => {
      const key = `${r.espId}\u0000${r.eventId}`;
      if (!index.has(key)) index.set(key, i);
    });
    return inserted.map(({ id, espId, eventId, localDate }) => {
      const i = index.get(`${espId}\u0000${eventId}`)!;
      const r = rows[i]!;
      return {
        id,
        espId: r.espId,
        eventId: r.eventId,
        kind: r.kind,
        price: input[i]!.price,
        volume: input[i]!.volume,
        waterType: r.waterType,
        cardId: r.cardId,
        soldAt: r.soldAt,
        localDate,
        seq: r.seq,
        offline: r.offline,
        dispensed: input[i]!.dispensed,
      };
    });
  }

  /**
   * Litres already charged to each card on each local day, per `cardId|localDate`, not counting the
   * rows just inserted (`exceptSaleIds`): the running total of the daily limit starts here. The cards
   * are locked by the caller, so no other batch adds to these sums meanwhile.
   */
  async litresCharged(
    m: EntityManager,
    cardIds: string[],
    days: string[],
    exceptSaleIds: string[],
  ): Promise<Map<string, number>> {
    const sums = new Map<string, number>();
    if (cardIds.length === 0) return sums;
    const rows: { key: string; litres: string }[] = await m.query(
      `SELECT card_id || '|' || to_char(local_date, 'YYYY-MM-DD') AS key, sum(volume)::text AS litres
       FROM sales
       WHERE card_id = ANY($1) AND kind = 'card' AND local_date = ANY($2::date[])
         AND flag IS DISTINCT FROM 'foreign_card' AND flag IS DISTINCT FROM 'unknown_card'
         AND NOT (id = ANY($3::bigint[]))
       GROUP BY 1`,
      [cardIds, days, exceptSaleIds],
    );
    for (const r of rows) sums.set(r.key, Math.round(Number(r.litres) * 1000));
    return sums;
  }

  /** `soldAt` finds the sale's partition (docs/partitions.md): the id alone would be looked up in each. */
  async setFlags(m: EntityManager, flags: { saleId: string; soldAt: Date; flag: SaleFlag }[]): Promise<void> {
    if (flags.length === 0) return;
    await m.query(
      `UPDATE sales s SET flag = f.flag FROM unnest($1::bigint[], $2::timestamptz[], $3::text[]) AS f(id, sold_at, flag)
       WHERE s.id = f.id AND s.sold_at = f.sold_at`,
      [flags.map((f) => f.saleId), flags.map((f) => f.soldAt), flags.map((f) => f.flag)],
    );
  }

  async insertDeadLetters(m: EntityManager, letters: DeadLetterInput[]): Promise<void> {
    if (letters.length === 0) return;
    await m.query(
      `INSERT INTO dead_letters (esp_id, topic, reason, payload, received_at, delivery_key)
       SELECT * FROM unnest($1::text[], $2::text[], $3::text[], $4::text[], $5::timestamptz[], $6::text[])
       ON CONFLICT (delivery_key) DO NOTHING`,
      [
        letters.map((l) => l.espId),
        letters.map((l) => l.topic),
        letters.map((l) => l.reason),
        letters.map((l) => l.payload),
        letters.map((l) => l.receivedAt),
        letters.map((l) => l.deliveryKey),
      ],
    );
  }

  async listDeadLetters(page: number, limit: number) {
    const rows: {
      id: string;
      espId: string | null;
      topic: string;
      reason: string;
      payload: string;
      receivedAt: Date;
    }[] = await this.dataSource.query(
      `SELECT id::text, esp_id AS "espId", topic, reason, payload, received_at AS "receivedAt"
       FROM dead_letters ORDER BY received_at DESC, id DESC LIMIT $1 OFFSET $2`,
      [limit, (page - 1) * limit],
    );
    const [{ total }] = await this.dataSource.query(`SELECT count(*)::int AS total FROM dead_letters`);
    return { data: rows.map((r) => ({ ...r, receivedAt: r.receivedAt.toISOString() })), total: total as number };
  }
}
