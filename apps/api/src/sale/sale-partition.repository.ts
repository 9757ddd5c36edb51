import { Injectable } from '@nestjs/common';
import { DataSource, EntityManager } from 'typeorm';

/** The sales columns, in the table's order. */
const COLUMNS = `id, esp_id, event_id, kind, price, volume, water_type, card_id, flag, sold_at, local_date, received_at,
  source, seq, offline, dispensed`;

/**
 * The keys of sales are kept at least this long, whatever the retention: a sale whose `time` is older than
 * 365 days is refused (saleTimeProblem), so a redelivery inside this window is always recognised.
 */
export const SALE_KEY_MIN_MONTHS = 13;

/** Keys deleted per statement, so that the retention never holds many row locks at once. */
const KEY_BATCH = 10_000;

/** A lock the DDL waits for at most: an export reading for minutes must not stall the ingest behind it. */
const LOCK_TIMEOUT = '5s';

export interface MonthPartition {
  name: string;
  /** Inclusive start, the first instant of the UTC month. */
  from: Date;
  /** Exclusive end, the first instant of the next UTC month. */
  to: Date;
}

/** The partition of the UTC month `offset` months after the month of `at`: `sales_2026_11`. */
export function monthPartition(at: Date, offset = 0): MonthPartition {
  const from = new Date(Date.UTC(at.getUTCFullYear(), at.getUTCMonth() + offset, 1));
  const to = new Date(Date.UTC(from.getUTCFullYear(), from.getUTCMonth() + 1, 1));
  return {
    name: `sales_${from.getUTCFullYear()}_${String(from.getUTCMonth() + 1).padStart(2, '0')}`,
    from,
    to,
  };
}

/** The UTC month of a partition name, or null for a table that is not a month partition. */
export function partitionMonth(name: string): MonthPartition | null {
  const match = /^sales_(\d{4})_(\d{2})$/.exec(name);
  if (!match) return null;
  return monthPartition(new Date(Date.UTC(Number(match[1]), Number(match[2]) - 1, 1)));
}

/**
 * The first instant kept with `months` of retention: the start of the UTC month `months` before the
 * current one. A month is dropped when it ended at least `months` months ago (whatever the day of the
 * month `now` is), so every sale younger than that is kept and no month is cut in two.
 */
export function retentionCutoff(now: Date, months: number): Date {
  return monthPartition(now, -months).from;
}

export interface PartitionMaintenance {
  created: string[];
  dropped: string[];
  /** Sales moved out of `sales_before` or `sales_after` into a month partition made for them. */
  moved: number;
  /** Sales deleted from `sales_before` past the retention (they came after their month was dropped). */
  deletedOld: number;
  deletedKeys: number;
}

/** The catch-all partitions below and above the months (docs/partitions.md, "What is partitioned"). */
const BEFORE = 'sales_before';
const AFTER = 'sales_after';

/**
 * The month partitions of `sales` (docs/partitions.md): made ahead, filled from the catch-all partitions
 * when sales already wait there, and dropped whole past SALES_RETENTION_MONTHS. The partitions always
 * cover every time without a gap: `sales_before` up to the first month, the months, `sales_after` from the
 * end of the last month.
 */
@Injectable()
export class SalePartitionRepository {
  constructor(private readonly dataSource: DataSource) {}

  async partitions(): Promise<string[]> {
    return (await this.list(this.dataSource.manager)).sort();
  }

  /**
   * One transaction under an advisory lock (workers may run it at once) and a lock timeout. Makes the
   * partitions of the current month and `aheadMonths` after it, and of every month that has sales waiting
   * in `sales_before` (moving them in), then drops the months past the retention. Nothing is locked when
   * there is nothing to do. The keys of dropped sales are deleted afterwards in batches, kept at least
   * SALE_KEY_MIN_MONTHS.
   */
  async maintain(now: Date, retentionMonths: number | undefined, aheadMonths: number): Promise<PartitionMaintenance> {
    const cutoff = retentionMonths === undefined ? null : retentionCutoff(now, retentionMonths);
    const result = await this.dataSource.transaction(async (m) => {
      await m.query(`SELECT pg_advisory_xact_lock(hashtext('sales-partitions'))`);
      await m.query(`SET LOCAL lock_timeout = '${LOCK_TIMEOUT}'`);
      const months = (await this.list(m))
        .map(partitionMonth)
        .filter((p): p is MonthPartition => p !== null)
        .sort((a, b) => a.from.getTime() - b.from.getTime());
      if (months.length === 0) throw new Error('sales has no month partition: is the migration applied?');
      // The bounds of the catch-alls, which follow the months (the migration and this method keep them so).
      const low = months[0]!.from;
      const high = months[months.length - 1]!.to;

      const dropped = cutoff === null ? [] : months.filter((p) => p.to <= cutoff);
      const kept = months.filter((p) => !dropped.includes(p));
      const [{ oldest, expired }] = (await m.query(
        `SELECT min(sold_at) FILTER (WHERE $1::timestamptz IS NULL OR sold_at >= $1) AS oldest,
                count(*) FILTER (WHERE sold_at < $1)::int AS expired
         FROM ${BEFORE}`,
        [cutoff],
      )) as { oldest: Date | null; expired: number }[];
      let newLow = kept[0]?.from ?? cutoff ?? low;
      if (oldest && monthPartition(oldest).from < newLow) newLow = monthPartition(oldest).from;
      const newHigh = new Date(Math.max(high.getTime(), monthPartition(now, aheadMonths).to.getTime()));
      const existing = new Set(kept.map((p) => p.name));
      const wanted: MonthPartition[] = [];
      for (let p = monthPartition(newLow); p.from < newHigh; p = monthPartition(p.from, 1)) {
        if (!existing.has(p.name)) wanted.push(p);
      }
      if (wanted.length === 0 && dropped.length === 0 && expired === 0) {
        return { created: [], dropped: [], moved: 0, deletedOld: 0 };
      }

      // Detaching a catch-all lets months take over part of its range; it is attached again, with its new
      // bound, before the commit, so no other transaction ever sees a time without a partition.
      const lowChanges = newLow.getTime() !== low.getTime();
      const highChanges = newHigh.getTime() !== high.getTime();
      if (lowChanges) await m.query(`ALTER TABLE sales DETACH PARTITION ${BEFORE}`);
      if (highChanges) await m.query(`ALTER TABLE sales DETACH PARTITION ${AFTER}`);
      for (const p of dropped) {
        await m.query(`ALTER TABLE sales DETACH PARTITION ${p.name}`);
        await m.query(`DROP TABLE ${p.name}`);
      }
      let moved = 0;
      for (const p of wanted) moved += await this.create(m, p, [BEFORE, AFTER]);
      let deletedOld = 0;
      if (cutoff !== null && expired > 0) {
        const [{ n }] = (await m.query(
          `WITH gone AS (DELETE FROM ${BEFORE} WHERE sold_at < $1 RETURNING 1) SELECT count(*)::int AS n FROM gone`,
          [cutoff],
        )) as { n: number }[];
        deletedOld = n;
      }
      if (lowChanges) {
        await m.query(
          `ALTER TABLE sales ATTACH PARTITION ${BEFORE} FOR VALUES FROM (MINVALUE) TO ('${newLow.toISOString()}')`,
        );
      }
      if (highChanges) {
        await m.query(
          `ALTER TABLE sales ATTACH PARTITION ${AFTER} FOR VALUES FROM ('${newHigh.toISOString()}') TO (MAXVALUE)`,
        );
      }
      return { created: wanted.map((p) => p.name), dropped: dropped.map((p) => p.name), moved, deletedOld };
    });
    // Autovacuum never analyses a partitioned table itself, only its partitions (PostgreSQL docs, "Routine
    // Vacuuming", "Updating Planner Statistics"): the whole table's statistics are refreshed when its months change.
    if (result.created.length > 0 || result.dropped.length > 0) await this.dataSource.query(`ANALYZE sales`);
    let deletedKeys = 0;
    if (cutoff !== null) {
      const keyCutoff = new Date(Math.min(cutoff.getTime(), retentionCutoff(now, SALE_KEY_MIN_MONTHS).getTime()));
      deletedKeys = await this.deleteKeysBefore(keyCutoff);
    }
    return { ...result, deletedKeys };
  }

  /**
   * A month partition made as a plain table and attached (PostgreSQL docs, "Table Partitioning",
   * "Partition Maintenance"). Sales of the month waiting in a detached catch-all move in first.
   */
  private async create(m: EntityManager, p: MonthPartition, from: string[]): Promise<number> {
    await m.query(`CREATE TABLE ${p.name} (LIKE sales INCLUDING DEFAULTS INCLUDING CONSTRAINTS)`);
    let total = 0;
    for (const source of from) {
      const [{ moved }] = (await m.query(
        `WITH moved AS (DELETE FROM ${source} WHERE sold_at >= $1 AND sold_at < $2 RETURNING ${COLUMNS}),
         copied AS (INSERT INTO ${p.name} (${COLUMNS}) SELECT ${COLUMNS} FROM moved RETURNING 1)
         SELECT count(*)::int AS moved FROM copied`,
        [p.from, p.to],
      )) as { moved: number }[];
      total += moved;
    }
    await m.query(
      `ALTER TABLE sales ATTACH PARTITION ${p.name} FOR VALUES FROM ('${p.from.toISOString()}') TO ('${p.to.toISOString()}')`,
    );
    return total;
  }

  /** Keys older than `before`, a batch per statement (through sale_keys_sold_at_idx). */
  private async deleteKeysBefore(before: Date): Promise<number> {
    let total = 0;
    for (;;) {
      const [{ n }] = (await this.dataSource.query(
        `WITH gone AS (
           DELETE FROM sale_keys WHERE (esp_id, event_id) IN (
             SELECT esp_id, event_id FROM sale_keys WHERE sold_at < $1 LIMIT ${KEY_BATCH}
           ) RETURNING 1
         ) SELECT count(*)::int AS n FROM gone`,
        [before],
      )) as { n: number }[];
      total += n;
      if (n < KEY_BATCH) return total;
    }
  }

  private async list(m: EntityManager): Promise<string[]> {
    const rows: { relname: string }[] = await m.query(
      `SELECT c.relname FROM pg_inherits i JOIN pg_class c ON c.oid = i.inhrelid WHERE i.inhparent = 'sales'::regclass`,
    );
    return rows.map((r) => r.relname);
  }
}
