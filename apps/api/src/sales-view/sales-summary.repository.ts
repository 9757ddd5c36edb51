import { Inject, Injectable } from '@nestjs/common';
import { DataSource, type ObjectLiteral, type SelectQueryBuilder } from 'typeorm';
import type { Actor } from '../common/actor.js';
import { scopeDevices } from '../common/scope.js';
import { APP_CONFIG, type AppConfig } from '../config/app-config.js';
import { READ_DATA_SOURCE } from '../database/read-data-source.js';
import { positional, queryPrepared, visibleDeviceIds } from './scoped-sql.js';

/** Coin and card totals of one machine, numeric text as PostgreSQL sums them. */
export interface MachineTotalsRow {
  espId: string;
  coinPrice: string;
  coinVolume: string;
  cardPrice: string;
  cardVolume: string;
}

export interface HourlyRow {
  hour: number;
  kind: 'coin' | 'card';
  waterType: string;
  price: string;
  volume: string;
  sales: number;
}

export interface MachineStateRow {
  espId: string;
  location: string | null;
  online: boolean;
  lastSeen: Date | null;
  attendantFirstName: string | null;
  attendantLastName: string | null;
  configVersion: number;
  configAppliedVersion: number;
}

export interface RecentSaleRow {
  id: string;
  espId: string;
  kind: 'coin' | 'card';
  price: string;
  volume: string;
  waterType: string;
  cardId: string | null;
  soldAt: Date;
}

/**
 * Summaries from the daily and monthly rollups, and the dashboard's day: every query starts from the
 * devices the caller may see (scopeDevices), so a machine without sales is still listed, with zeros.
 */
@Injectable()
export class SalesSummaryRepository {
  constructor(
    // The replica when DATABASE_READ_URL is set: answers may lag the primary by a moment (docs/read-replica.md).
    @Inject(READ_DATA_SOURCE) private readonly dataSource: DataSource,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  /**
   * `bucket` is a day of `sales_daily` or the first day of a month of `sales_monthly`. A rollup holds at
   * most one row per (machine, bucket, kind): two joins, no aggregation over the fleet.
   */
  totals(actor: Actor, rollup: 'daily' | 'monthly', bucket: string): Promise<MachineTotalsRow[]> {
    const [table, column] = rollup === 'daily' ? ['sales_daily', 'day'] : ['sales_monthly', 'month'];
    const on = (alias: string, kind: string) =>
      `${alias}.esp_id = d.esp_id AND ${alias}.${column} = :bucket::date AND ${alias}.kind = '${kind}'`;
    const qb = this.dataSource
      .createQueryBuilder()
      .from('devices', 'd')
      .leftJoin(table, 'co', on('co', 'coin'), { bucket })
      .leftJoin(table, 'ca', on('ca', 'card'))
      .select('d.esp_id', 'espId')
      .addSelect('coalesce(co.price_total, 0)::text', 'coinPrice')
      .addSelect('coalesce(co.volume_total, 0)::text', 'coinVolume')
      .addSelect('coalesce(ca.price_total, 0)::text', 'cardPrice')
      .addSelect('coalesce(ca.volume_total, 0)::text', 'cardVolume')
      .orderBy('d.esp_id');
    return this.prepared<MachineTotalsRow>(scopeDevices(qb, actor, 'd'));
  }

  /** The day's sales by local hour, kind and water type over the visible machines. */
  hourly(actor: Actor, day: string): Promise<HourlyRow[]> {
    const visible = visibleDeviceIds(this.dataSource, actor);
    const sql = `
      SELECT extract(hour FROM s.sold_at AT TIME ZONE :tz)::int AS hour, s.kind, s.water_type AS "waterType",
             sum(s.price)::text AS price, sum(s.volume)::text AS volume, count(*)::int AS sales
      FROM sales s
      WHERE s.sold_at >= (:day::date::timestamp AT TIME ZONE :tz)
        AND s.sold_at < ((:day::date + 1)::timestamp AT TIME ZONE :tz)
        AND s.kind IN ('coin', 'card')
        AND s.esp_id IN (${visible.sql})
      GROUP BY 1, 2, 3`;
    const params = { ...visible.params, day, tz: this.config.timezone };
    return queryPrepared(this.dataSource, positional(this.dataSource, { sql, params }));
  }

  machines(actor: Actor): Promise<MachineStateRow[]> {
    const qb = this.dataSource
      .createQueryBuilder()
      .from('devices', 'd')
      .leftJoin('users', 'a', 'a.id = d.attendant_id AND a.deleted_at IS NULL')
      .select('d.esp_id', 'espId')
      .addSelect('d.location', 'location')
      .addSelect('d.online', 'online')
      .addSelect('d.last_seen_at', 'lastSeen')
      .addSelect('a.first_name', 'attendantFirstName')
      .addSelect('a.last_name', 'attendantLastName')
      .addSelect('d.config_version', 'configVersion')
      .addSelect('d.config_applied_version', 'configAppliedVersion')
      .orderBy('d.esp_id');
    return this.prepared<MachineStateRow>(scopeDevices(qb, actor, 'd'));
  }

  private prepared<T>(qb: SelectQueryBuilder<ObjectLiteral>): Promise<T[]> {
    return queryPrepared<T>(this.dataSource, qb.getQueryAndParameters() as [string, unknown[]]);
  }

  async countMachines(actor: Actor): Promise<number> {
    const qb = this.dataSource.createQueryBuilder().from('devices', 'd').select('count(*)::int', 'n');
    return (await scopeDevices(qb, actor, 'd').getRawOne<{ n: number }>())?.n ?? 0;
  }

  /**
   * The newest sales (by sale time) of the visible machines. `sales_time_idx` walks back from now and
   * filters by machine inside the index (esp_id is included), so a feed costs the rows it skips, not
   * the table; with few machines, one short per-machine index walk each is cheaper still. Rows are
   * fetched by `(id, sold_at)`, which names their partition (docs/partitions.md).
   */
  recent(actor: Actor, limit: number, fewMachines: boolean): Promise<RecentSaleRow[]> {
    const visible = visibleDeviceIds(this.dataSource, actor);
    const columns = `s.id::text AS id, s.esp_id AS "espId", s.kind, s.price::text AS price, s.volume::text AS volume,
             s.water_type AS "waterType", s.card_id AS "cardId", s.sold_at AS "soldAt"`;
    const sql = fewMachines
      ? `SELECT ${columns} FROM (${visible.sql}) v
         CROSS JOIN (VALUES ('coin'), ('card')) k(kind)
         CROSS JOIN LATERAL (
           SELECT t.id, t.sold_at FROM sales t WHERE t.esp_id = v.esp_id AND t.kind = k.kind
           ORDER BY t.sold_at DESC, t.id DESC LIMIT :take
         ) l
         JOIN sales s ON s.id = l.id AND s.sold_at = l.sold_at
         ORDER BY s.sold_at DESC, s.id DESC LIMIT :take`
      : `SELECT ${columns} FROM (
           SELECT t.id, t.sold_at FROM sales t WHERE t.esp_id IN (${visible.sql})
           ORDER BY t.sold_at DESC, t.id DESC LIMIT :take
         ) l JOIN sales s ON s.id = l.id AND s.sold_at = l.sold_at
         ORDER BY s.sold_at DESC, s.id DESC`;
    return queryPrepared(
      this.dataSource,
      positional(this.dataSource, { sql, params: { ...visible.params, take: limit } }),
    );
  }
}
