import { Inject, Injectable, type OnApplicationShutdown } from '@nestjs/common';
import { DataSource, type ObjectLiteral } from 'typeorm';
import type { Actor } from '../common/actor.js';
import { APP_CONFIG, type AppConfig } from '../config/app-config.js';
import { READ_DATA_SOURCE } from '../database/read-data-source.js';
import { openSqlCursor, type SqlCursor } from './export-cursor.repository.js';
import { GenericPlanPool, positional, queryPrepared, visibleDeviceIds } from './scoped-sql.js';

export type SaleKind = 'coin' | 'card';

/** One machine's sales of one kind, filtered by local days and sorted by a row field. */
export interface TransactionFilter {
  espId: string;
  kind: SaleKind;
  /** Inclusive local days (APP_TIMEZONE), `YYYY-MM-DD`; absent means unbounded. */
  startDate?: string;
  endDate?: string;
  sort: string;
  order: 'asc' | 'desc';
}

/** A row as PostgreSQL returns it: money and volume stay numeric text until the edge. */
export interface TransactionRow {
  id: string;
  price: string;
  volume: string;
  waterType: string;
  /** ISO 8601 in UTC with milliseconds, as the contract's `time`. */
  time: string;
  cardId: string | null;
  cardType: string | null;
  cardholderFirstName: string | null;
  cardholderLastName: string | null;
  flag: string | null;
  dispensed: string | null;
}

/** The export's columns, the date as the epoch milliseconds of the local wall time. */
export interface ExportRow {
  cardId: string | null;
  cardType: string | null;
  firstName: string | null;
  lastName: string | null;
  price: string;
  volume: string;
  waterType: string;
  localMs: number;
}

/**
 * Row fields (contracts' CARD/COIN_TRANSACTION_FIELDS) to SQL. `c` is the sale's card when it is
 * registered at a machine the caller may see: another tenant's card holder stays unnamed.
 */
const SORT_COLUMNS: Record<string, string> = {
  id: 's.id',
  time: 's.sold_at',
  price: 's.price',
  volume: 's.volume',
  waterType: 's.water_type',
  cardId: 's.card_id',
  cardType: 'c.card_type',
  cardholderFirstName: 'c.holder_first_name',
  cardholderLastName: 'c.holder_last_name',
};

/**
 * Transaction pages and exports. Totals never count the table: the daily rollup holds the count of
 * every (machine, local day, kind), and date filters are whole local days, so the total is a sum over
 * at most one row per day. Time-sorted pages (the default) use the same rollup to seek: a running sum
 * of the daily counts finds the day holding row `offset`, so the index scan starts at that day's
 * boundary and skips fewer rows than one day holds, however deep the page. Other sorts sort the
 * machine's filtered rows (one machine, so thousands, not millions, at the scale this serves).
 * The page's rows are fetched by `(id, sold_at)`: `sales` is partitioned by `sold_at`, so the time
 * names the one partition to look in (docs/partitions.md).
 */
@Injectable()
export class TransactionRepository implements OnApplicationShutdown {
  /** Pages that run their generic plan, on sessions of their own (see GenericPlanPool). */
  private readonly generic: GenericPlanPool;
  /** Up to this many rows, a page sorted by another column than time runs its generic plan. */
  genericSortRows = GENERIC_SORT_ROWS;

  constructor(
    // The replica when DATABASE_READ_URL is set: answers may lag the primary by a moment (docs/read-replica.md).
    @Inject(READ_DATA_SOURCE) private readonly dataSource: DataSource,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {
    this.generic = new GenericPlanPool(dataSource);
  }

  onApplicationShutdown(): Promise<void> {
    return this.generic.close();
  }

  /**
   * One statement, one snapshot: whether the caller may see the machine (scopeDevices), the total, and
   * the page. Rows and total are only read for a visible machine.
   */
  async page(actor: Actor, f: TransactionFilter, offset: number, limit: number) {
    const visible = visibleDeviceIds(this.dataSource, actor);
    const params = { ...this.baseParams(f), ...visible.params, skip: offset, take: limit };
    const dir = f.order === 'asc' ? 'ASC' : 'DESC';
    const ids = f.sort === 'time' ? this.seekIds(f, dir) : this.sortedIds(f, dir, visible.sql);
    const sql = `
      WITH scope AS (SELECT EXISTS (SELECT 1 FROM (${visible.sql}) v WHERE v.esp_id = :espId) AS visible),
      total AS (${this.rollupTotal(f, '(SELECT visible FROM scope)')}),
      ids AS (${ids})
      SELECT scope.visible, total.n AS total, ${ROW_FIELDS} FROM scope CROSS JOIN total LEFT JOIN (
        SELECT ${ROW_COLUMNS}, ids.sort_key, ids.id AS sort_id
        FROM ids JOIN sales s ON s.id = ids.id AND s.sold_at = ids.sold_at
        LEFT JOIN LATERAL (
          SELECT c.card_type, c.holder_first_name, c.holder_last_name FROM cards c
          WHERE c.card_id = s.card_id AND c.esp_id IN (${visible.sql}) LIMIT 1
        ) c ON true
      ) p ON true
      ORDER BY p.sort_key ${dir}, p.sort_id ${dir}`;
    // Planning this statement over every month's partition costs more than running it for most pages, so it
    // runs its generic plan, planned once per session (docs/partitions.md, "What is partitioned"): always in
    // time order, which reads a page's rows from the index; in another order when the rows to sort are few.
    // Sorting a machine's many rows is better planned for the call's own parameters: a generic plan cannot
    // tell a machine of a million sales from one of a thousand.
    const statement = positional(this.dataSource, { sql, params });
    type PageRow = TransactionRow & { visible: boolean; total: string };
    const rows =
      f.sort === 'time' || (await this.countRows(actor, f)) <= this.genericSortRows
        ? await this.generic.query<PageRow>(statement)
        : await queryPrepared<PageRow>(this.dataSource, statement);
    return {
      visible: rows[0]?.visible === true,
      total: Number(rows[0]?.total ?? 0),
      rows: rows.filter((r) => r.id !== null),
    };
  }

  /** The filter's rows by the daily rollup (0 for a machine the caller may not see). */
  private async countRows(actor: Actor, f: TransactionFilter): Promise<number> {
    const visible = visibleDeviceIds(this.dataSource, actor);
    const sql = this.rollupTotal(f, `r.esp_id IN (${visible.sql})`);
    const statement = positional(this.dataSource, { sql, params: { ...this.baseParams(f), ...visible.params } });
    const [row] = await queryPrepared<{ n: string }>(this.dataSource, statement);
    return Number(row?.n ?? 0);
  }

  /**
   * Every matching row in the table's order through a server-side cursor on a dedicated connection of
   * the read pool (for exports that run in this thread; see streamXlsxExport).
   */
  async openExportCursor(actor: Actor, f: TransactionFilter): Promise<SqlCursor<ExportRow>> {
    const runner = this.dataSource.createQueryRunner();
    await runner.connect();
    try {
      const cursor = await openSqlCursor<ExportRow>(
        (sql, params) => runner.query(sql, params),
        this.exportStatement(actor, f),
      );
      return {
        next: cursor.next,
        close: () => cursor.close().finally(() => runner.release()),
      };
    } catch (error) {
      await runner.release();
      throw error;
    }
  }

  /** The export's statement: every matching row, the table's columns, in the table's order. */
  exportStatement(actor: Actor, f: TransactionFilter): [string, unknown[]] {
    const cards = visibleDeviceIds(this.dataSource, actor);
    const dir = f.order === 'asc' ? 'ASC' : 'DESC';
    const sql = `
      SELECT s.card_id AS "cardId", c.card_type AS "cardType", c.holder_first_name AS "firstName",
             c.holder_last_name AS "lastName", s.price::text AS price, s.volume::text AS volume,
             s.water_type AS "waterType",
             (extract(epoch FROM s.sold_at AT TIME ZONE :tz) * 1000)::float8 AS "localMs"
      FROM sales s
      LEFT JOIN cards c ON c.card_id = s.card_id AND c.esp_id IN (${cards.sql})
      WHERE ${this.salesWhere(f)}
      ORDER BY ${SORT_COLUMNS[f.sort]} ${dir}, s.id ${dir}`;
    return positional(this.dataSource, { sql, params: { ...this.baseParams(f), ...cards.params } });
  }

  /**
   * Time order: the running sum of daily counts (newest day first for desc) finds the day where row
   * `skip` lies and how many rows the days before it hold; the scan starts at that day's boundary.
   * One statement, so the rollup and the rows are read from one snapshot.
   */
  private seekIds(f: TransactionFilter, dir: 'ASC' | 'DESC'): string {
    const boundary =
      dir === 'DESC'
        ? `s.sold_at < ((seek.day + 1)::timestamp AT TIME ZONE :tz)${f.startDate ? ` AND s.sold_at >= ${LO}` : ''}`
        : `s.sold_at >= (seek.day::timestamp AT TIME ZONE :tz)${f.endDate ? ` AND s.sold_at < ${HI}` : ''}`;
    return `
      WITH days AS (
        SELECT r.day, r.sales_count,
               coalesce(sum(r.sales_count) OVER (ORDER BY r.day ${dir} ROWS BETWEEN UNBOUNDED PRECEDING AND 1 PRECEDING), 0) AS before
        FROM sales_daily r WHERE ${this.rollupWhere(f)} AND (SELECT visible FROM scope)
      ),
      seek AS (SELECT day, before FROM days WHERE before + sales_count > :skip ORDER BY day ${dir} LIMIT 1)
      SELECT p.id, p.sold_at, p.sold_at AS sort_key FROM seek CROSS JOIN LATERAL (
        SELECT s.id, s.sold_at FROM sales s
        WHERE s.esp_id = :espId AND s.kind = :saleKind AND ${boundary}
        ORDER BY s.sold_at ${dir}, s.id ${dir}
        OFFSET :skip - seek.before LIMIT :take
      ) p`;
  }

  private sortedIds(f: TransactionFilter, dir: 'ASC' | 'DESC', visibleDevices: string): string {
    const column = SORT_COLUMNS[f.sort] ?? 's.sold_at';
    const join = column.startsWith('c.')
      ? `LEFT JOIN cards c ON c.card_id = s.card_id AND c.esp_id IN (${visibleDevices})`
      : '';
    return `
      SELECT s.id, s.sold_at, ${column} AS sort_key FROM sales s ${join}
      WHERE ${this.salesWhere(f)} AND (SELECT visible FROM scope)
      ORDER BY ${column} ${dir}, s.id ${dir}
      OFFSET :skip LIMIT :take`;
  }

  /** The filter's row count by the daily rollup, as `n` (text), counted only where `visible` holds. */
  private rollupTotal(f: TransactionFilter, visible: string): string {
    return `SELECT coalesce(sum(r.sales_count), 0)::text AS n FROM sales_daily r
      WHERE ${this.rollupWhere(f)} AND ${visible}`;
  }

  private rollupWhere(f: TransactionFilter): string {
    return [
      'r.esp_id = :espId',
      'r.kind = :saleKind',
      ...(f.startDate ? ['r.day >= :startDay::date'] : []),
      ...(f.endDate ? ['r.day <= :endDay::date'] : []),
    ].join(' AND ');
  }

  /** Local days as instants: a sale at 23:30 local time is before the next local midnight. */
  private salesWhere(f: TransactionFilter): string {
    return [
      's.esp_id = :espId',
      's.kind = :saleKind',
      ...(f.startDate ? [`s.sold_at >= ${LO}`] : []),
      ...(f.endDate ? [`s.sold_at < ${HI}`] : []),
    ].join(' AND ');
  }

  private baseParams(f: TransactionFilter): ObjectLiteral {
    const tz = this.config.timezone;
    return {
      espId: f.espId,
      saleKind: f.kind,
      tz,
      startDay: f.startDate,
      endDay: f.endDate,
    };
  }
}

/**
 * Up to this many rows, a page sorted by another column than time runs its generic plan. Measured on the
 * partitioned 10 million sales (docs/partitions.md): a machine of 4,402 sales, its last page by price, took
 * 15.1 ms generic against 17.6 ms planned per call; the middle page of one of a million took 3.3 s generic
 * against 2.2 s, whose own plan sorts in parallel.
 */
const GENERIC_SORT_ROWS = 20_000;

/** The first instant of the start day and of the day after the end day, in APP_TIMEZONE. */
const LO = '(:startDay::date::timestamp AT TIME ZONE :tz)';
const HI = '((:endDay::date + 1)::timestamp AT TIME ZONE :tz)';

/** `time` is formatted by PostgreSQL as JavaScript's toISOString would: no Date per row in Node. */
const ROW_COLUMNS = `
  s.id::text AS id, s.price::text AS price, s.volume::text AS volume, s.water_type AS "waterType",
  to_char(s.sold_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') AS time, s.card_id AS "cardId",
  c.card_type AS "cardType", c.holder_first_name AS "cardholderFirstName",
  c.holder_last_name AS "cardholderLastName", s.flag, s.dispensed::text AS dispensed`;
const ROW_FIELDS = `p.id, p.price, p.volume, p."waterType", p.time, p."cardId", p."cardType",
  p."cardholderFirstName", p."cardholderLastName", p.flag, p.dispensed`;
