import type { MigrationInterface, QueryRunner } from 'typeorm';

/** Month partitions made ahead of the current one (the worker's job keeps the same distance). */
const AHEAD_MONTHS = 3;

/** The sales columns, in the table's order (every migration before this one added to them). */
const COLUMNS = `id, esp_id, event_id, kind, price, volume, water_type, card_id, flag, sold_at, local_date, received_at,
  source, seq, offline, dispensed`;

/** `sales_2026_11` and the bounds of the UTC calendar month starting at `monthStart`. */
function monthPartition(monthStart: Date): { name: string; from: string; to: string } {
  const y = monthStart.getUTCFullYear();
  const m = monthStart.getUTCMonth();
  return {
    name: `sales_${y}_${String(m + 1).padStart(2, '0')}`,
    from: new Date(Date.UTC(y, m, 1)).toISOString(),
    to: new Date(Date.UTC(y, m + 1, 1)).toISOString(),
  };
}

/**
 * `sales` partitioned by the UTC month of `sold_at` (docs/partitions.md): declarative range partitions
 * (PostgreSQL docs, "Table Partitioning"), one per month, between `sales_before` (MINVALUE to the first
 * month) and `sales_after` (the last month's end to MAXVALUE), so that no sale is ever refused for want
 * of DDL.
 *
 * A unique index of a partitioned table must contain the partition key, and a redelivered sale without
 * `time` carries another `sold_at` (its receive time): `(esp_id, event_id)` can no longer be unique on
 * `sales` itself. Exactly-once storage moves to `sale_keys`, an unpartitioned table keyed by
 * `(esp_id, event_id)` that the ingest inserts into first (sale.repository.ts).
 *
 * PostgreSQL 15 has no identity columns on partitioned tables: `id` takes its default from the sequence
 * `sales_id_seq`, started where the identity stopped, so ids stay unique and increasing.
 *
 * The rows are copied in one transaction under an exclusive lock (the ingest waits, it does not fail),
 * counted on both sides, and the old table dropped only if the counts agree.
 */
export class SalesPartitions1763710900000 implements MigrationInterface {
  name = 'SalesPartitions1763710900000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`LOCK TABLE sales IN ACCESS EXCLUSIVE MODE`);
    await q.query(`ALTER TABLE sales RENAME TO sales_unpartitioned`);
    // Index and sequence names are schema-wide: the new table takes the old names.
    await q.query(`ALTER INDEX sales_pkey RENAME TO sales_unpartitioned_pkey`);
    for (const index of ['sales_event_uq', 'sales_page_idx', 'sales_card_idx', 'sales_time_idx']) {
      await q.query(`DROP INDEX ${index}`);
    }
    const [{ seq }] = (await q.query(`SELECT pg_get_serial_sequence('sales_unpartitioned', 'id') AS seq`)) as {
      seq: string;
    }[];
    await q.query(`ALTER SEQUENCE ${seq} RENAME TO sales_unpartitioned_id_seq`);

    await q.query(`CREATE SEQUENCE sales_id_seq AS bigint`);
    await q.query(`
      CREATE TABLE sales (
        id bigint NOT NULL DEFAULT nextval('sales_id_seq'),
        esp_id text NOT NULL,
        event_id varchar(64) NOT NULL,
        kind text NOT NULL CHECK (kind IN ('coin', 'card')),
        price numeric(14,2) NOT NULL,
        volume numeric(12,3) NOT NULL,
        water_type text NOT NULL CHECK (water_type IN ('pure', 'fresh', 'cold')),
        card_id text,
        flag text CONSTRAINT sales_flag_check
          CHECK (flag IN ('unknown_card', 'overdrawn', 'foreign_card', 'blocked_card', 'over_limit')),
        sold_at timestamptz NOT NULL,
        local_date date NOT NULL,
        received_at timestamptz NOT NULL DEFAULT now(),
        source text NOT NULL CHECK (source IN ('mqtt', 'rest')),
        seq bigint,
        offline boolean NOT NULL DEFAULT false,
        dispensed numeric(12,3)
      ) PARTITION BY RANGE (sold_at)`);
    await q.query(`ALTER SEQUENCE sales_id_seq OWNED BY sales.id`);

    // Months from the oldest sale's to AHEAD_MONTHS after the current one.
    const [{ oldest }] = (await q.query(`SELECT min(sold_at) AS oldest FROM sales_unpartitioned`)) as {
      oldest: Date | null;
    }[];
    const now = new Date();
    const current = Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), 1);
    const first = oldest ? Math.min(Date.UTC(oldest.getUTCFullYear(), oldest.getUTCMonth(), 1), current) : current;
    let end = '';
    for (let i = 0; ; i++) {
      const start = new Date(first);
      start.setUTCMonth(start.getUTCMonth() + i);
      if (start.getTime() > Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + AHEAD_MONTHS, 1)) break;
      const p = monthPartition(start);
      await q.query(`CREATE TABLE ${p.name} PARTITION OF sales FOR VALUES FROM ('${p.from}') TO ('${p.to}')`);
      end = p.to;
    }
    // Below and above the months, two catch-all ranges instead of a default partition: every time has a
    // partition, and the partitions stay ordered, so a time-ordered read walks them in order and stops early.
    await q.query(
      `CREATE TABLE sales_before PARTITION OF sales FOR VALUES FROM (MINVALUE) TO ('${new Date(first).toISOString()}')`,
    );
    await q.query(`CREATE TABLE sales_after PARTITION OF sales FOR VALUES FROM ('${end}') TO (MAXVALUE)`);

    // Indexes after the copy: one sorted build per partition instead of row-by-row maintenance.
    await q.query(`INSERT INTO sales (${COLUMNS}) SELECT ${COLUMNS} FROM sales_unpartitioned`);
    await q.query(`SELECT setval('sales_id_seq', last_value, is_called) FROM sales_unpartitioned_id_seq`);
    // Unique ids need no unique index: they come from the sequence. The key contains sold_at because
    // every unique index of a partitioned table must (PostgreSQL docs, "Table Partitioning", limitations).
    await q.query(`ALTER TABLE sales ADD CONSTRAINT sales_pkey PRIMARY KEY (id, sold_at)`);
    await q.query(`CREATE INDEX sales_page_idx ON sales (esp_id, kind, sold_at DESC, id DESC)`);
    await q.query(`CREATE INDEX sales_card_idx ON sales (card_id, sold_at DESC) WHERE card_id IS NOT NULL`);
    await q.query(`CREATE INDEX sales_time_idx ON sales (sold_at DESC, id DESC) INCLUDE (esp_id)`);

    // Exactly once: a (machine, event) is stored once however often and with whatever time it comes.
    // sold_at is the stored sale's, so that the retention can find the keys of a dropped month.
    // The key is built after the copy (a sorted build), and so also proves that no sale is there twice.
    await q.query(`
      CREATE TABLE sale_keys (
        esp_id text NOT NULL,
        event_id varchar(64) NOT NULL,
        sold_at timestamptz NOT NULL
      )`);
    await q.query(`INSERT INTO sale_keys (esp_id, event_id, sold_at) SELECT esp_id, event_id, sold_at FROM sales`);
    await q.query(`ALTER TABLE sale_keys ADD CONSTRAINT sale_keys_pkey PRIMARY KEY (esp_id, event_id)`);
    await q.query(`CREATE INDEX sale_keys_sold_at_idx ON sale_keys (sold_at)`);

    const [counts] = (await q.query(
      `SELECT (SELECT count(*) FROM sales_unpartitioned)::text AS before, (SELECT count(*) FROM sales)::text AS after,
              (SELECT count(*) FROM sale_keys)::text AS keys`,
    )) as { before: string; after: string; keys: string }[];
    if (counts!.before !== counts!.after || counts!.after !== counts!.keys) {
      throw new Error(`sales partitioning copied ${counts!.after} of ${counts!.before} rows (${counts!.keys} keys)`);
    }
    await q.query(`DROP TABLE sales_unpartitioned`);
    await q.query(`ANALYZE sales`);
    await q.query(`ANALYZE sale_keys`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`LOCK TABLE sales IN ACCESS EXCLUSIVE MODE`);
    await q.query(`ALTER TABLE sales RENAME TO sales_partitioned`);
    for (const index of ['sales_page_idx', 'sales_card_idx', 'sales_time_idx']) await q.query(`DROP INDEX ${index}`);
    await q.query(`ALTER TABLE sales_partitioned DROP CONSTRAINT sales_pkey`);
    await q.query(`ALTER SEQUENCE sales_id_seq RENAME TO sales_partitioned_id_seq`);
    await q.query(`
      CREATE TABLE sales (
        id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
        esp_id text NOT NULL,
        event_id varchar(64) NOT NULL,
        kind text NOT NULL CHECK (kind IN ('coin', 'card')),
        price numeric(14,2) NOT NULL,
        volume numeric(12,3) NOT NULL,
        water_type text NOT NULL CHECK (water_type IN ('pure', 'fresh', 'cold')),
        card_id text,
        flag text CONSTRAINT sales_flag_check
          CHECK (flag IN ('unknown_card', 'overdrawn', 'foreign_card', 'blocked_card', 'over_limit')),
        sold_at timestamptz NOT NULL,
        local_date date NOT NULL,
        received_at timestamptz NOT NULL DEFAULT now(),
        source text NOT NULL CHECK (source IN ('mqtt', 'rest')),
        seq bigint,
        offline boolean NOT NULL DEFAULT false,
        dispensed numeric(12,3)
      )`);
    await q.query(
      `INSERT INTO sales (${COLUMNS}) OVERRIDING SYSTEM VALUE SELECT ${COLUMNS} FROM sales_partitioned ORDER BY id`,
    );
    const [{ seq }] = (await q.query(`SELECT pg_get_serial_sequence('sales', 'id') AS seq`)) as { seq: string }[];
    await q.query(`SELECT setval($1, last_value, is_called) FROM sales_partitioned_id_seq`, [seq]);
    await q.query(`CREATE UNIQUE INDEX sales_event_uq ON sales (esp_id, event_id)`);
    await q.query(`CREATE INDEX sales_page_idx ON sales (esp_id, kind, sold_at DESC, id DESC)`);
    await q.query(`CREATE INDEX sales_card_idx ON sales (card_id, sold_at DESC) WHERE card_id IS NOT NULL`);
    await q.query(`CREATE INDEX sales_time_idx ON sales (sold_at DESC, id DESC) INCLUDE (esp_id)`);
    const [counts] = (await q.query(
      `SELECT (SELECT count(*) FROM sales_partitioned)::text AS before, (SELECT count(*) FROM sales)::text AS after`,
    )) as { before: string; after: string }[];
    if (counts!.before !== counts!.after) {
      throw new Error(`sales unpartitioning copied ${counts!.after} of ${counts!.before} rows`);
    }
    await q.query(`DROP TABLE sales_partitioned`);
    await q.query(`DROP TABLE sale_keys`);
  }
}
