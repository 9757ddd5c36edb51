import { Injectable } from '@nestjs/common';
import type { TelemetryReading } from '@wv/contracts';
import { DataSource, type EntityManager } from 'typeorm';
import type { HealthRow, TelemetryRow } from './telemetry.types.js';

const DAY_MS = 24 * 3600 * 1000;

interface RawHealth {
  esp_id: string;
  at: Date | null;
  tank_level_pct: string | null;
  tds_ppm: string | null;
  cold_water_temp_c: string | null;
  coin_box_pct: string | null;
  error_code: string | null;
  last_sale_at: Date | null;
  online_since: Date | null;
  temp_high_streak: number;
  short_dispense_times: Date[] | null;
}

const num = (v: string | null) => (v === null ? null : Number(v));
/** A field absent from the reading is stored as NULL. */
const opt = <T>(v: T | undefined) => (v === undefined ? null : v);

function toHealth(r: RawHealth): HealthRow {
  return {
    espId: r.esp_id,
    at: r.at,
    tankLevelPct: num(r.tank_level_pct),
    tdsPpm: num(r.tds_ppm),
    coldWaterTempC: num(r.cold_water_temp_c),
    coinBoxPct: num(r.coin_box_pct),
    errorCode: r.error_code,
    lastSaleAt: r.last_sale_at,
    onlineSince: r.online_since,
    tempHighStreak: r.temp_high_streak,
    shortDispenseTimes: r.short_dispense_times ?? [],
  };
}

/** Partition of the UTC day holding `day`. */
const partitionName = (day: Date) => `telemetry_p${day.toISOString().slice(0, 10).replace(/-/g, '')}`;

/** Every query on telemetry and machine_health (docs/alarms.md, "Telemetry"). */
@Injectable()
export class TelemetryRepository {
  constructor(private readonly dataSource: DataSource) {}

  /** One statement for the whole batch. */
  async insertReadings(m: EntityManager, rows: TelemetryRow[]): Promise<void> {
    if (rows.length === 0) return;
    await m.query(
      `INSERT INTO telemetry (esp_id, at, tank_level_pct, tds_ppm, cold_water_temp_c, coin_box_pct, error_code)
       SELECT * FROM unnest($1::text[], $2::timestamptz[], $3::numeric[], $4::numeric[], $5::numeric[],
                            $6::numeric[], $7::text[])`,
      [
        rows.map((r) => r.espId),
        rows.map((r) => r.at.toISOString()),
        rows.map((r) => opt(r.tankLevelPct)),
        rows.map((r) => opt(r.tdsPpm)),
        rows.map((r) => opt(r.coldWaterTempC)),
        rows.map((r) => opt(r.coinBoxPct)),
        rows.map((r) => opt(r.errorCode)),
      ],
    );
  }

  /**
   * Locks the machine_health rows of these machines (made when missing, for machines that exist), in
   * ESP ID order so that two transactions never wait on each other in a cycle.
   */
  async lockHealth(m: EntityManager, espIds: string[]): Promise<Map<string, HealthRow>> {
    const ids = [...new Set(espIds)].sort();
    if (ids.length === 0) return new Map();
    await m.query(
      `INSERT INTO machine_health (esp_id)
       SELECT d.esp_id FROM devices d WHERE d.esp_id = ANY($1::text[]) ORDER BY d.esp_id
       ON CONFLICT (esp_id) DO NOTHING`,
      [ids],
    );
    const rows: RawHealth[] = await m.query(
      `SELECT * FROM machine_health WHERE esp_id = ANY($1::text[]) ORDER BY esp_id FOR UPDATE`,
      [ids],
    );
    return new Map(rows.map((r) => [r.esp_id, toHealth(r)]));
  }

  async saveHealth(m: EntityManager, h: HealthRow): Promise<void> {
    await m.query(
      `UPDATE machine_health SET at = $2, tank_level_pct = $3, tds_ppm = $4, cold_water_temp_c = $5,
         coin_box_pct = $6, error_code = $7, last_sale_at = $8, temp_high_streak = $9, short_dispense_times = $10
       WHERE esp_id = $1`,
      [
        h.espId,
        h.at,
        h.tankLevelPct,
        h.tdsPpm,
        h.coldWaterTempC,
        h.coinBoxPct,
        h.errorCode,
        h.lastSaleAt,
        h.tempHighStreak,
        h.shortDispenseTimes.map((d) => d.toISOString()),
      ],
    );
  }

  /**
   * Writes what readings move (the latest values and the temperature streak) for many machines in one
   * statement; the rows must be locked by `lockHealth` in the same transaction.
   */
  async saveReadings(m: EntityManager, rows: HealthRow[]): Promise<void> {
    if (rows.length === 0) return;
    await m.query(
      `UPDATE machine_health h SET at = v.at, tank_level_pct = v.tank, tds_ppm = v.tds, cold_water_temp_c = v.temp,
         coin_box_pct = v.coin, error_code = v.error_code, temp_high_streak = v.streak
       FROM unnest($1::text[], $2::timestamptz[], $3::numeric[], $4::numeric[], $5::numeric[], $6::numeric[],
                   $7::text[], $8::int[]) AS v(esp_id, at, tank, tds, temp, coin, error_code, streak)
       WHERE h.esp_id = v.esp_id`,
      [
        rows.map((h) => h.espId),
        rows.map((h) => h.at?.toISOString() ?? null),
        rows.map((h) => h.tankLevelPct),
        rows.map((h) => h.tdsPpm),
        rows.map((h) => h.coldWaterTempC),
        rows.map((h) => h.coinBoxPct),
        rows.map((h) => h.errorCode),
        rows.map((h) => h.tempHighStreak),
      ],
    );
  }

  async findHealth(espId: string): Promise<HealthRow | null> {
    const rows: RawHealth[] = await this.dataSource.query(`SELECT * FROM machine_health WHERE esp_id = $1`, [espId]);
    return rows[0] ? toHealth(rows[0]) : null;
  }

  /**
   * The readings of [from, to) in at most `points` time buckets of equal width: the mean of each number
   * and the newest error code of each bucket, at the bucket's first reading.
   */
  async series(espId: string, from: Date, to: Date, points: number): Promise<TelemetryReading[]> {
    const widthMs = Math.max(1000, Math.ceil((to.getTime() - from.getTime()) / points));
    const rows: {
      at: Date;
      tank: string | null;
      tds: string | null;
      temp: string | null;
      coin: string | null;
      error_code: string | null;
    }[] = await this.dataSource.query(
      `SELECT min(at) AS at,
              round(avg(tank_level_pct), 2) AS tank, round(avg(tds_ppm), 2) AS tds,
              round(avg(cold_water_temp_c), 2) AS temp, round(avg(coin_box_pct), 2) AS coin,
              (array_agg(error_code ORDER BY at DESC))[1] AS error_code
       FROM telemetry
       WHERE esp_id = $1 AND at >= $2 AND at < $3
       GROUP BY least(floor(extract(epoch FROM at - $2::timestamptz) * 1000 / $4)::int, $5 - 1)
       ORDER BY 1`,
      [espId, from.toISOString(), to.toISOString(), widthMs, points],
    );
    return rows.map((r) => ({
      at: r.at.toISOString(),
      tankLevelPct: num(r.tank),
      tdsPpm: num(r.tds),
      coldWaterTempC: num(r.temp),
      coinBoxPct: num(r.coin),
      errorCode: r.error_code,
    }));
  }

  /** When machines came online (one statement for a batch; rows written in ESP ID order). */
  async noteOnline(m: EntityManager, since: Map<string, Date>): Promise<void> {
    if (since.size === 0) return;
    const entries = [...since];
    await m.query(
      `INSERT INTO machine_health (esp_id, online_since)
       SELECT t.esp_id, t.at FROM unnest($1::text[], $2::timestamptz[]) AS t(esp_id, at)
       JOIN devices d ON d.esp_id = t.esp_id
       ORDER BY t.esp_id
       ON CONFLICT (esp_id) DO UPDATE SET online_since = excluded.online_since`,
      [entries.map(([espId]) => espId), entries.map(([, at]) => at.toISOString())],
    );
  }

  /**
   * Moves each machine's last sale forward (never back), in one statement for a whole batch. Rows are
   * written in ESP ID order, so two batches sharing machines never wait on each other in a cycle.
   */
  async noteLastSales(m: EntityManager, last: Map<string, Date>): Promise<void> {
    if (last.size === 0) return;
    const entries = [...last];
    await m.query(
      `INSERT INTO machine_health (esp_id, last_sale_at)
       SELECT t.esp_id, t.at FROM unnest($1::text[], $2::timestamptz[]) AS t(esp_id, at)
       JOIN devices d ON d.esp_id = t.esp_id
       ORDER BY t.esp_id
       ON CONFLICT (esp_id) DO UPDATE
         SET last_sale_at = greatest(machine_health.last_sale_at, excluded.last_sale_at)
         WHERE machine_health.last_sale_at IS NULL OR machine_health.last_sale_at < excluded.last_sale_at`,
      [entries.map(([espId]) => espId), entries.map(([, at]) => at.toISOString())],
    );
  }

  /** The newest stored sale of each machine, read from the sales themselves (both kinds use the page index). */
  async lastSaleTimes(m: EntityManager, espIds: string[]): Promise<Map<string, Date | null>> {
    const rows: { esp_id: string; at: Date | null }[] = await m.query(
      `SELECT d.esp_id, greatest(
         (SELECT max(sold_at) FROM sales s WHERE s.esp_id = d.esp_id AND s.kind = 'coin'),
         (SELECT max(sold_at) FROM sales s WHERE s.esp_id = d.esp_id AND s.kind = 'card')) AS at
       FROM devices d WHERE d.esp_id = ANY($1::text[])`,
      [espIds],
    );
    return new Map(rows.map((r) => [r.esp_id, r.at]));
  }

  /**
   * Makes the day partitions from yesterday to `aheadDays` ahead and drops those wholly older than the
   * retention, under an advisory lock so that two workers never race on the same DDL. Readings that
   * landed in the default partition past the retention are deleted there.
   */
  async maintainPartitions(now: Date, retentionDays: number, aheadDays: number): Promise<{ dropped: string[] }> {
    return this.dataSource.transaction(async (m) => {
      await m.query(`SELECT pg_advisory_xact_lock(hashtext('telemetry-partitions'))`);
      const today = Math.floor(now.getTime() / DAY_MS) * DAY_MS;
      const existing = new Set(
        (
          (await m.query(
            `SELECT c.relname FROM pg_inherits i JOIN pg_class c ON c.oid = i.inhrelid
             WHERE i.inhparent = 'telemetry'::regclass`,
          )) as { relname: string }[]
        ).map((r) => r.relname),
      );
      for (let d = -1; d <= aheadDays; d++) {
        const from = new Date(today + d * DAY_MS);
        const name = partitionName(from);
        if (existing.has(name)) continue;
        const to = new Date(today + (d + 1) * DAY_MS);
        await m.query(
          `CREATE TABLE IF NOT EXISTS ${name} PARTITION OF telemetry
           FOR VALUES FROM ('${from.toISOString()}') TO ('${to.toISOString()}')`,
        );
      }
      const cutoff = new Date(today - retentionDays * DAY_MS);
      const dropped: string[] = [];
      for (const name of existing) {
        const match = /^telemetry_p(\d{4})(\d{2})(\d{2})$/.exec(name);
        if (!match) continue;
        const dayEnd = Date.UTC(Number(match[1]), Number(match[2]) - 1, Number(match[3])) + DAY_MS;
        if (dayEnd > cutoff.getTime()) continue;
        await m.query(`DROP TABLE ${name}`);
        dropped.push(name);
      }
      await m.query(`DELETE FROM telemetry_default WHERE at < $1`, [cutoff.toISOString()]);
      return { dropped };
    });
  }

  async partitions(): Promise<string[]> {
    const rows: { relname: string }[] = await this.dataSource.query(
      `SELECT c.relname FROM pg_inherits i JOIN pg_class c ON c.oid = i.inhrelid
       WHERE i.inhparent = 'telemetry'::regclass ORDER BY 1`,
    );
    return rows.map((r) => r.relname);
  }
}
