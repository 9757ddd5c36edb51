import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';

/** A machine's coin and card figures for one local day, numeric text as the rollup holds them. */
export interface DailyFiguresRow {
  espId: string;
  day: string;
  coinPrice: string;
  coinVolume: string;
  cardPrice: string;
  cardVolume: string;
}

/** The live events' reads. Rooms do the scoping here: these feed broadcasts, not one caller. */
@Injectable()
export class LiveRepository {
  constructor(private readonly dataSource: DataSource) {}

  /** The daily rollup of each (machine, day) pair, zeros for a pair without a row. */
  dailyFigures(pairs: { espId: string; day: string }[]): Promise<DailyFiguresRow[]> {
    if (pairs.length === 0) return Promise.resolve([]);
    // LATERAL: one index lookup per pair, whatever the table's statistics say. As a plain join, statistics taken while
    // the rollup was small (a new database) made the planner hash all of it for every live batch of a few dozen pairs:
    // in a reconnect storm of 20,000 machines, 4.2 ms a call against 0.8 ms now (docs/performance.md, "Reconnect
    // storms").
    return this.dataSource.query(
      `SELECT p.esp_id AS "espId", to_char(p.day, 'YYYY-MM-DD') AS day,
              f."coinPrice", f."coinVolume", f."cardPrice", f."cardVolume"
       FROM (SELECT DISTINCT esp_id, day FROM unnest($1::text[], $2::date[]) AS u(esp_id, day)) AS p
       CROSS JOIN LATERAL (
         SELECT coalesce(sum(r.price_total) FILTER (WHERE r.kind = 'coin'), 0)::text AS "coinPrice",
                coalesce(sum(r.volume_total) FILTER (WHERE r.kind = 'coin'), 0)::text AS "coinVolume",
                coalesce(sum(r.price_total) FILTER (WHERE r.kind = 'card'), 0)::text AS "cardPrice",
                coalesce(sum(r.volume_total) FILTER (WHERE r.kind = 'card'), 0)::text AS "cardVolume"
         FROM sales_daily r WHERE r.esp_id = p.esp_id AND r.day = p.day
       ) AS f`,
      [pairs.map((p) => p.espId), pairs.map((p) => p.day)],
    );
  }
}
