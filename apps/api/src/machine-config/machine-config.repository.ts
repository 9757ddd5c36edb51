import { Injectable } from '@nestjs/common';
import { DataSource, EntityManager } from 'typeorm';
import { returningRows } from '../common/returning-rows.js';

export interface StoredTariffs {
  cold: number;
  fresh: number;
  coldCalb: number;
  freshCalb: number;
}

/** The only place that builds queries on Wi-Fi and tariff history and config versions. */
@Injectable()
export class MachineConfigRepository {
  constructor(private readonly dataSource: DataSource) {}

  async latestWifi(
    espId: string,
    m: EntityManager = this.dataSource.manager,
  ): Promise<{ ssid: string; password: string } | null> {
    const rows = await m.query(
      `SELECT ssid, password FROM wifi_credentials WHERE esp_id = $1 ORDER BY id DESC LIMIT 1`,
      [espId],
    );
    return rows[0] ?? null;
  }

  async latestTariffs(espId: string, m: EntityManager = this.dataSource.manager): Promise<StoredTariffs | null> {
    const rows = await m.query(
      `SELECT cold_tariff::float8 AS cold, fresh_tariff::float8 AS fresh, cold_calb::float8 AS "coldCalb", fresh_calb::float8 AS "freshCalb"
       FROM tariffs WHERE esp_id = $1 ORDER BY id DESC LIMIT 1`,
      [espId],
    );
    return rows[0] ?? null;
  }

  async insertWifi(m: EntityManager, espId: string, ssid: string, password: string, actorId: string): Promise<void> {
    await m.query(`INSERT INTO wifi_credentials (esp_id, ssid, password, created_by) VALUES ($1, $2, $3, $4)`, [
      espId,
      ssid,
      password,
      actorId,
    ]);
  }

  async insertTariffs(m: EntityManager, espId: string, t: StoredTariffs, actorId: string): Promise<void> {
    await m.query(
      `INSERT INTO tariffs (esp_id, cold_tariff, fresh_tariff, cold_calb, fresh_calb, created_by) VALUES ($1, $2, $3, $4, $5, $6)`,
      [espId, t.cold, t.fresh, t.coldCalb, t.freshCalb, actorId],
    );
  }

  /** A new config version; only grows per machine (docs/device-protocol.md, "Configuration"). */
  async bumpVersion(m: EntityManager, espId: string): Promise<number> {
    const rows = await m.query(
      `UPDATE devices SET config_version = config_version + 1 WHERE esp_id = $1 RETURNING config_version`,
      [espId],
    );
    return returningRows<{ config_version: number }>(rows)[0]!.config_version;
  }

  async state(espId: string): Promise<{ version: number; appliedVersion: number; appliedAt: Date | null } | null> {
    const rows = await this.dataSource.query(
      `SELECT config_version AS version, config_applied_version AS "appliedVersion", config_applied_at AS "appliedAt" FROM devices WHERE esp_id = $1`,
      [espId],
    );
    return rows[0] ?? null;
  }

  /** The config versions of many machines (unknown ids are left out). */
  async versions(espIds: string[]): Promise<{ espId: string; version: number }[]> {
    return this.dataSource.query(
      `SELECT esp_id AS "espId", config_version AS version FROM devices WHERE esp_id = ANY($1::text[])`,
      [espIds],
    );
  }

  /** Marks a version applied when it exists and is newer than the applied one; true when it changed. */
  async markApplied(espId: string, version: number): Promise<boolean> {
    const rows = await this.dataSource.query(
      `UPDATE devices SET config_applied_version = $2, config_applied_at = now()
       WHERE esp_id = $1 AND $2 <= config_version AND $2 > config_applied_version RETURNING esp_id`,
      [espId, version],
    );
    return returningRows(rows).length > 0;
  }
}
