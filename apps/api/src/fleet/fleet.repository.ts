import { Inject, Injectable } from '@nestjs/common';
import { FLEET_TREND_DAYS } from '@wv/contracts';
import { DataSource, type EntityManager } from 'typeorm';
import type { Actor } from '../common/actor.js';
import { returningRows } from '../common/returning-rows.js';
import { scopeDevices } from '../common/scope.js';
import { APP_CONFIG, type AppConfig } from '../config/app-config.js';

/** One machine of the dashboard table, numbers as PostgreSQL's numeric text. */
export interface FleetMachineRow {
  date: string;
  espId: string;
  location: string | null;
  latitude: string | null;
  longitude: string | null;
  online: boolean;
  lastSeen: Date | null;
  ownerId: string | null;
  ownerFirstName: string | null;
  ownerLastName: string | null;
  revenue: string;
  litres: string;
  sales: number;
  trend: string[];
  activeAlarms: number;
  worstSeverity: 'critical' | 'major' | 'minor' | null;
}

export interface CoordinatesRow {
  latitude: string | null;
  longitude: string | null;
}

export interface FigureRow {
  revenue: string;
  litres: string;
  sales: number;
}

export interface HeadlineRow {
  date: string;
  asOf: string;
  today: FigureRow;
  yesterday: FigureRow;
  lastWeek: FigureRow;
}

/**
 * The fleet dashboard's reads (docs/rest-api.md, "Fleet dashboard"). Each answer is one statement over
 * the machines in scope (scopeDevices), whatever the size of the fleet: per machine, its days come from
 * the `sales_daily` rollup by primary key and its active alarms from the `alarms_active_uq` index.
 */
@Injectable()
export class FleetRepository {
  constructor(
    private readonly dataSource: DataSource,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  async machines(actor: Actor, now: Date): Promise<FleetMachineRow[]> {
    const visible = this.visible(actor);
    const sql = `
      WITH k AS (SELECT (:now::timestamptz AT TIME ZONE :tz)::date AS today)
      SELECT to_char(k.today, 'YYYY-MM-DD') AS date, d.esp_id AS "espId", d.location, d.latitude::text, d.longitude::text, d.online,
             d.last_seen_at AS "lastSeen", o.id AS "ownerId", o.first_name AS "ownerFirstName",
             o.last_name AS "ownerLastName", r.revenue, r.litres, r.sales, r.trend,
             a.n AS "activeAlarms", a.worst AS "worstSeverity"
      FROM k CROSS JOIN devices d
      LEFT JOIN users o ON o.id = d.owner_id AND o.deleted_at IS NULL
      CROSS JOIN LATERAL (
        SELECT array_agg(coalesce(x.revenue, 0)::text ORDER BY g.day) AS trend,
               coalesce(max(x.revenue) FILTER (WHERE g.day = k.today), 0)::text AS revenue,
               coalesce(max(x.litres) FILTER (WHERE g.day = k.today), 0)::text AS litres,
               coalesce(max(x.sales) FILTER (WHERE g.day = k.today), 0)::int AS sales
        FROM generate_series(k.today - :span::int, k.today, interval '1 day') g(day)
        LEFT JOIN (
          SELECT s.day, sum(s.price_total) AS revenue, sum(s.volume_total) AS litres, sum(s.sales_count) AS sales
          FROM sales_daily s
          WHERE s.esp_id = d.esp_id AND s.day BETWEEN k.today - :span::int AND k.today
          GROUP BY s.day
        ) x ON x.day = g.day::date
      ) r
      CROSS JOIN LATERAL (
        SELECT count(*)::int AS n,
               (array['critical', 'major', 'minor'])[min(CASE al.severity WHEN 'critical' THEN 1 WHEN 'major' THEN 2 ELSE 3 END)] AS worst
        FROM alarms al WHERE al.esp_id = d.esp_id AND al.status <> 'cleared'
      ) a
      WHERE d.esp_id IN (${visible.sql})
      ORDER BY d.esp_id`;
    const params = { ...visible.params, now: now.toISOString(), tz: this.config.timezone, span: FLEET_TREND_DAYS - 1 };
    return this.query<FleetMachineRow>(sql, params);
  }

  /**
   * Today from the rollup (sales of today only exist up to now); yesterday and last week up to the same
   * local time of day, from the rows through `sales_time_idx` (a rollup holds whole days only).
   */
  async headline(actor: Actor, now: Date): Promise<HeadlineRow> {
    const visible = this.visible(actor);
    const span = (offset: number) => `
      SELECT json_build_object('revenue', coalesce(sum(s.price), 0)::text, 'litres', coalesce(sum(s.volume), 0)::text,
                               'sales', count(*)::int)
      FROM sales s
      WHERE s.sold_at >= ((k.today - ${offset})::timestamp AT TIME ZONE :tz)
        AND s.sold_at < (((k.today - ${offset})::timestamp + k.elapsed) AT TIME ZONE :tz)
        AND s.esp_id IN (SELECT esp_id FROM v)`;
    const sql = `
      WITH v AS (${visible.sql}),
      l AS (SELECT :now::timestamptz AT TIME ZONE :tz AS local_now),
      k AS (SELECT local_now::date AS today, local_now - date_trunc('day', local_now) AS elapsed, local_now FROM l)
      SELECT to_char(k.today, 'YYYY-MM-DD') AS date, to_char(k.local_now, 'HH24:MI') AS "asOf",
        (SELECT json_build_object('revenue', coalesce(sum(s.price_total), 0)::text,
                                  'litres', coalesce(sum(s.volume_total), 0)::text,
                                  'sales', coalesce(sum(s.sales_count), 0)::int)
         FROM sales_daily s WHERE s.day = k.today AND s.esp_id IN (SELECT esp_id FROM v)) AS today,
        (${span(1)}) AS yesterday,
        (${span(7)}) AS "lastWeek"
      FROM k`;
    const [row] = await this.query<HeadlineRow>(sql, {
      ...visible.params,
      now: now.toISOString(),
      tz: this.config.timezone,
    });
    return row!;
  }

  /** A machine's coordinates as numeric text, locked for the change that follows when `m` is a transaction's. */
  async coordinates(m: EntityManager, espId: string, lock = false): Promise<CoordinatesRow | undefined> {
    const rows: CoordinatesRow[] = await m.query(
      `SELECT latitude::text AS latitude, longitude::text AS longitude FROM devices WHERE esp_id = $1${lock ? ' FOR UPDATE' : ''}`,
      [espId],
    );
    return rows[0];
  }

  async setCoordinates(m: EntityManager, espId: string, latitude: number | null, longitude: number | null) {
    const result: unknown = await m.query(
      `UPDATE devices SET latitude = round($2::numeric, 6), longitude = round($3::numeric, 6) WHERE esp_id = $1
       RETURNING latitude::text AS latitude, longitude::text AS longitude`,
      [espId, latitude === null ? null : String(latitude), longitude === null ? null : String(longitude)],
    );
    return returningRows<CoordinatesRow>(result)[0]!;
  }

  /** `SELECT esp_id FROM devices` limited by the tenant rule, to embed in the statements above. */
  private visible(actor: Actor) {
    const qb = scopeDevices(
      this.dataSource.createQueryBuilder().select('vd.esp_id', 'esp_id').from('devices', 'vd'),
      actor,
      'vd',
    );
    return { sql: qb.getQuery(), params: qb.getParameters() };
  }

  private query<T>(sql: string, params: Record<string, unknown>): Promise<T[]> {
    const [text, values] = this.dataSource.driver.escapeQueryWithParameters(sql, params);
    return this.dataSource.query(text, values) as Promise<T[]>;
  }
}
