import { Injectable } from '@nestjs/common';
import {
  DEFAULT_ALARM_SETTINGS,
  type Alarm,
  type AlarmKind,
  type AlarmListQuery,
  type AlarmNote,
  type AlarmSettings,
} from '@wv/contracts';
import { DataSource, type EntityManager } from 'typeorm';
import type { Actor } from '../common/actor.js';
import { returningRows } from '../common/returning-rows.js';
import { scopeDevices } from '../common/scope.js';
import type { MachineAlarmSettings } from './alarm.types.js';

interface AlarmDbRow {
  id: string;
  esp_id: string;
  kind: Alarm['kind'];
  severity: Alarm['severity'];
  status: Alarm['status'];
  opened_at: Date;
  acknowledged_at: Date | null;
  acknowledged_by: string | null;
  assignee_id: string | null;
  cleared_at: Date | null;
  cleared_by: string | null;
  escalated: boolean;
  details: Record<string, unknown>;
}

interface SettingsDbRow {
  esp_id: string;
  offline_after_minutes: number | null;
  no_sales_after_minutes: number | null;
  sales_gap_after_minutes: number | null;
  business_hours_from: string | null;
  business_hours_to: string | null;
  low_tank_pct: string | null;
  max_tds_ppm: string | null;
  max_cold_water_temp_c: string | null;
  maintenance_until: Date | null;
}

export interface MachineContacts {
  espId: string;
  location: string | null;
  ownerId: string | null;
  attendantId: string | null;
}

const iso = (d: Date | null) => (d ? d.toISOString() : null);

export function toAlarm(r: AlarmDbRow): Alarm {
  return {
    id: r.id,
    machineId: r.esp_id,
    kind: r.kind,
    severity: r.severity,
    status: r.status,
    openedAt: r.opened_at.toISOString(),
    acknowledgedAt: iso(r.acknowledged_at),
    acknowledgedBy: r.acknowledged_by,
    assigneeId: r.assignee_id,
    clearedAt: iso(r.cleared_at),
    clearedBy: r.cleared_by,
    escalated: r.escalated,
    details: r.details ?? {},
  };
}

function toSettings(r: SettingsDbRow): MachineAlarmSettings {
  const d = DEFAULT_ALARM_SETTINGS;
  return {
    espId: r.esp_id,
    offlineAfterMinutes: r.offline_after_minutes ?? d.offlineAfterMinutes,
    noSalesAfterMinutes: r.no_sales_after_minutes ?? d.noSalesAfterMinutes,
    salesGapAfterMinutes: r.sales_gap_after_minutes ?? d.salesGapAfterMinutes,
    businessHours: {
      from: r.business_hours_from ?? d.businessHours.from,
      to: r.business_hours_to ?? d.businessHours.to,
    },
    lowTankPct: r.low_tank_pct === null ? d.lowTankPct : Number(r.low_tank_pct),
    maxTdsPpm: r.max_tds_ppm === null ? d.maxTdsPpm : Number(r.max_tds_ppm),
    maxColdWaterTempC: r.max_cold_water_temp_c === null ? d.maxColdWaterTempC : Number(r.max_cold_water_temp_c),
    maintenanceUntil: iso(r.maintenance_until),
  };
}

const SETTINGS_COLUMNS = `d.esp_id, s.offline_after_minutes, s.no_sales_after_minutes, s.sales_gap_after_minutes,
  s.business_hours_from, s.business_hours_to, s.low_tank_pct, s.max_tds_ppm, s.max_cold_water_temp_c, s.maintenance_until`;

/** Positional SQL `SELECT esp_id FROM devices` within the caller's tenant scope (scopeDevices). */
function visibleDevices(m: EntityManager, actor: Actor): { sql: string; params: unknown[] } {
  const [sql, params] = scopeDevices(
    m.createQueryBuilder().select('vd.esp_id').from('devices', 'vd'),
    actor,
    'vd',
  ).getQueryAndParameters();
  return { sql, params };
}

/** Every query on alarms, alarm notes and alarm settings (docs/alarms.md). */
@Injectable()
export class AlarmRepository {
  constructor(private readonly dataSource: DataSource) {}

  private m(m?: EntityManager): EntityManager {
    return m ?? this.dataSource.manager;
  }

  // --- the engine -------------------------------------------------------------------------------

  /** Serialises every decision about one machine and kind until the transaction ends. */
  async lock(m: EntityManager, espId: string, kind: AlarmKind): Promise<void> {
    await m.query(`SELECT pg_advisory_xact_lock(hashtext('alarm'), hashtext($1))`, [`${espId}/${kind}`]);
  }

  async findActive(m: EntityManager, espId: string, kind: AlarmKind): Promise<Alarm | null> {
    const rows: AlarmDbRow[] = await m.query(
      `SELECT * FROM alarms WHERE esp_id = $1 AND kind = $2 AND status <> 'cleared'`,
      [espId, kind],
    );
    return rows[0] ? toAlarm(rows[0]) : null;
  }

  async maintenanceUntil(m: EntityManager, espId: string): Promise<Date | null> {
    const rows: { maintenance_until: Date | null }[] = await m.query(
      `SELECT maintenance_until FROM alarm_settings WHERE esp_id = $1`,
      [espId],
    );
    return rows[0]?.maintenance_until ?? null;
  }

  /** The newest alarm of this kind cleared by itself after `since`. */
  async findAutoClearedSince(m: EntityManager, espId: string, kind: AlarmKind, since: Date): Promise<Alarm | null> {
    const rows: AlarmDbRow[] = await m.query(
      `SELECT * FROM alarms WHERE esp_id = $1 AND kind = $2 AND status = 'cleared' AND cleared_by = 'auto'
         AND cleared_at > $3
       ORDER BY cleared_at DESC LIMIT 1`,
      [espId, kind, since.toISOString()],
    );
    return rows[0] ? toAlarm(rows[0]) : null;
  }

  /** At most one active alarm per machine and kind: the partial unique index decides. */
  async insert(
    m: EntityManager,
    a: { espId: string; kind: AlarmKind; severity: Alarm['severity']; details: object; openedAt: Date },
  ): Promise<Alarm | null> {
    const rows: AlarmDbRow[] = await m.query(
      `INSERT INTO alarms (esp_id, kind, severity, details, opened_at) VALUES ($1, $2, $3, $4, $5)
       ON CONFLICT (esp_id, kind) WHERE status <> 'cleared' DO NOTHING
       RETURNING *`,
      [a.espId, a.kind, a.severity, JSON.stringify(a.details), a.openedAt.toISOString()],
    );
    return rows[0] ? toAlarm(rows[0]) : null;
  }

  /** The flap window: the same row opens again, counting how often in `details.reopened`. */
  async reopen(m: EntityManager, id: string, details: object, at: Date): Promise<Alarm | null> {
    const rows = returningRows<AlarmDbRow>(
      await m.query(
        `UPDATE alarms SET status = 'open', cleared_at = NULL, cleared_by = NULL,
           acknowledged_at = NULL, acknowledged_by = NULL, updated_at = $3,
           details = details || $2::jsonb
             || jsonb_build_object('reopened', coalesce((details->>'reopened')::int, 0) + 1,
                                   'reopenedAt', $3::timestamptz)
         WHERE id = $1 AND status = 'cleared'
         RETURNING *`,
        [id, JSON.stringify(details), at.toISOString()],
      ),
    );
    return rows[0] ? toAlarm(rows[0]) : null;
  }

  /** Clears the active alarm of this kind, if any; `by` is `auto` or a user id. */
  async clearActive(m: EntityManager, espId: string, kind: AlarmKind, at: Date, by: string): Promise<Alarm | null> {
    const rows = returningRows<AlarmDbRow>(
      await m.query(
        `UPDATE alarms SET status = 'cleared', cleared_at = $3, cleared_by = $4, updated_at = $3
         WHERE esp_id = $1 AND kind = $2 AND status <> 'cleared'
         RETURNING *`,
        [espId, kind, at.toISOString(), by],
      ),
    );
    return rows[0] ? toAlarm(rows[0]) : null;
  }

  // --- the engine, for many machines at once (the sweep) -----------------------------------------

  /** `lock` for many machines and one kind, in the order given (the caller sorts, so that lockers never wait in a cycle). */
  async lockMany(m: EntityManager, espIds: string[], kind: AlarmKind): Promise<void> {
    if (espIds.length === 0) return;
    await m.query(
      `SELECT count(pg_advisory_xact_lock(hashtext('alarm'), hashtext(k.esp_id || '/' || $2)))
       FROM unnest($1::text[]) WITH ORDINALITY AS k(esp_id, n)`,
      [espIds, kind],
    );
  }

  /** The machines in maintenance at `at`. */
  async inMaintenance(m: EntityManager, espIds: string[], at: Date): Promise<Set<string>> {
    const rows: { esp_id: string }[] = await m.query(
      `SELECT esp_id FROM alarm_settings WHERE esp_id = ANY($1::text[]) AND maintenance_until > $2`,
      [espIds, at.toISOString()],
    );
    return new Set(rows.map((r) => r.esp_id));
  }

  /** `findAutoClearedSince` for many machines: the newest such alarm of each. */
  async findAutoClearedSinceMany(
    m: EntityManager,
    espIds: string[],
    kind: AlarmKind,
    since: Date,
  ): Promise<Map<string, Alarm>> {
    const rows: AlarmDbRow[] = await m.query(
      `SELECT DISTINCT ON (esp_id) * FROM alarms
       WHERE esp_id = ANY($1::text[]) AND kind = $2 AND status = 'cleared' AND cleared_by = 'auto' AND cleared_at > $3
       ORDER BY esp_id, cleared_at DESC`,
      [espIds, kind, since.toISOString()],
    );
    return new Map(rows.map((r) => [r.esp_id, toAlarm(r)]));
  }

  /** `insert` for many alarms in one statement; returns those inserted (a machine with an active one is skipped). */
  async insertMany(
    m: EntityManager,
    rows: { espId: string; kind: AlarmKind; severity: Alarm['severity']; details: object; openedAt: Date }[],
  ): Promise<Alarm[]> {
    if (rows.length === 0) return [];
    const inserted: AlarmDbRow[] = await m.query(
      `INSERT INTO alarms (esp_id, kind, severity, details, opened_at)
       SELECT * FROM unnest($1::text[], $2::text[], $3::text[], $4::jsonb[], $5::timestamptz[])
       ON CONFLICT (esp_id, kind) WHERE status <> 'cleared' DO NOTHING
       RETURNING *`,
      [
        rows.map((r) => r.espId),
        rows.map((r) => r.kind),
        rows.map((r) => r.severity),
        rows.map((r) => JSON.stringify(r.details)),
        rows.map((r) => r.openedAt.toISOString()),
      ],
    );
    return inserted.map(toAlarm);
  }

  /** The kinds with an active alarm, per machine. */
  async activeKinds(m: EntityManager, espIds: string[]): Promise<Map<string, Set<AlarmKind>>> {
    const rows: { esp_id: string; kind: AlarmKind }[] = await m.query(
      `SELECT esp_id, kind FROM alarms WHERE esp_id = ANY($1::text[]) AND status <> 'cleared'`,
      [espIds],
    );
    const kinds = new Map<string, Set<AlarmKind>>();
    for (const r of rows) kinds.set(r.esp_id, (kinds.get(r.esp_id) ?? new Set()).add(r.kind));
    return kinds;
  }

  /** Clears the active alarms of this kind of many machines in one statement (rows locked in id order). */
  async clearActiveMany(m: EntityManager, espIds: string[], kind: AlarmKind, at: Date): Promise<Alarm[]> {
    if (espIds.length === 0) return [];
    return returningRows<AlarmDbRow>(
      await m.query(
        `UPDATE alarms SET status = 'cleared', cleared_at = $3, cleared_by = 'auto', updated_at = $3
         WHERE id IN (SELECT id FROM alarms WHERE esp_id = ANY($1::text[]) AND kind = $2 AND status <> 'cleared'
                      ORDER BY id FOR UPDATE)
           AND status <> 'cleared'
         RETURNING *`,
        [espIds, kind, at.toISOString()],
      ),
    ).map(toAlarm);
  }

  /** Marks due alarms escalated, each once, whichever worker gets there first. */
  async escalateDue(m: EntityManager, openedBefore: Date, at: Date, limit: number): Promise<Alarm[]> {
    return returningRows<AlarmDbRow>(
      await m.query(
        `UPDATE alarms SET escalated = true, escalated_at = $2, updated_at = $2
         WHERE id IN (
           SELECT id FROM alarms
           WHERE status = 'open' AND NOT escalated AND severity IN ('critical', 'major') AND opened_at <= $1
           ORDER BY opened_at LIMIT $3 FOR UPDATE SKIP LOCKED)
         AND status = 'open' AND NOT escalated
         RETURNING *`,
        [openedBefore.toISOString(), at.toISOString(), limit],
      ),
    ).map(toAlarm);
  }

  async contacts(m: EntityManager, espIds: string[]): Promise<Map<string, MachineContacts>> {
    const rows: { esp_id: string; location: string | null; owner_id: string | null; attendant_id: string | null }[] =
      await m.query(`SELECT esp_id, location, owner_id, attendant_id FROM devices WHERE esp_id = ANY($1::text[])`, [
        espIds,
      ]);
    return new Map(
      rows.map((r) => [
        r.esp_id,
        { espId: r.esp_id, location: r.location, ownerId: r.owner_id, attendantId: r.attendant_id },
      ]),
    );
  }

  // --- the sweep --------------------------------------------------------------------------------

  /** Machines disconnected for at least their offlineAfterMinutes, without an active offline alarm. */
  async offlineCandidates(now: Date): Promise<{ espId: string; lastSeen: Date }[]> {
    const rows: { esp_id: string; last_seen_at: Date }[] = await this.dataSource.query(
      `SELECT d.esp_id, d.last_seen_at FROM devices d
       LEFT JOIN alarm_settings s ON s.esp_id = d.esp_id
       WHERE NOT d.online AND d.last_seen_at IS NOT NULL
         AND d.last_seen_at <= $1::timestamptz - make_interval(mins => coalesce(s.offline_after_minutes, $2))
         AND (s.maintenance_until IS NULL OR s.maintenance_until <= $1)
         AND NOT EXISTS (SELECT 1 FROM alarms a WHERE a.esp_id = d.esp_id AND a.kind = 'offline' AND a.status <> 'cleared')`,
      [now.toISOString(), DEFAULT_ALARM_SETTINGS.offlineAfterMinutes],
    );
    return rows.map((r) => ({ espId: r.esp_id, lastSeen: r.last_seen_at }));
  }

  /** Active offline alarms of machines that are connected again (a missed connect event). */
  async offlineButConnected(): Promise<string[]> {
    const rows: { esp_id: string }[] = await this.dataSource.query(
      `SELECT a.esp_id FROM alarms a JOIN devices d ON d.esp_id = a.esp_id
       WHERE a.kind = 'offline' AND a.status <> 'cleared' AND d.online`,
    );
    return rows.map((r) => r.esp_id);
  }

  /** Connected machines without an active no_sales alarm whose last sale is older than their threshold. */
  async noSalesCandidates(
    now: Date,
  ): Promise<(MachineAlarmSettings & { lastSaleAt: Date | null; onlineSince: Date | null })[]> {
    const rows: (SettingsDbRow & { last_sale_at: Date | null; online_since: Date | null })[] =
      await this.dataSource.query(
        `SELECT ${SETTINGS_COLUMNS}, h.last_sale_at, h.online_since FROM devices d
       LEFT JOIN alarm_settings s ON s.esp_id = d.esp_id
       LEFT JOIN machine_health h ON h.esp_id = d.esp_id
       WHERE d.online
         AND (s.maintenance_until IS NULL OR s.maintenance_until <= $1)
         AND (h.last_sale_at IS NULL
              OR h.last_sale_at <= $1::timestamptz - make_interval(mins => coalesce(s.no_sales_after_minutes, $2)))
         AND NOT EXISTS (SELECT 1 FROM alarms a WHERE a.esp_id = d.esp_id AND a.kind = 'no_sales' AND a.status <> 'cleared')`,
        [now.toISOString(), DEFAULT_ALARM_SETTINGS.noSalesAfterMinutes],
      );
    return rows.map((r) => ({ ...toSettings(r), lastSaleAt: r.last_sale_at, onlineSince: r.online_since }));
  }

  /** Active short_dispense alarms of machines without a short sale in the window before `since`. */
  async shortDispenseOver(since: Date): Promise<string[]> {
    const rows: { esp_id: string }[] = await this.dataSource.query(
      `SELECT a.esp_id FROM alarms a LEFT JOIN machine_health h ON h.esp_id = a.esp_id
       WHERE a.kind = 'short_dispense' AND a.status <> 'cleared'
         AND NOT EXISTS (SELECT 1 FROM unnest(coalesce(h.short_dispense_times, '{}')) t WHERE t > $1)`,
      [since.toISOString()],
    );
    return rows.map((r) => r.esp_id);
  }

  /** Machines with a sequence gap first seen at least salesGapAfterMinutes ago and no active sales_gap alarm. */
  async salesGapCandidates(
    now: Date,
  ): Promise<{ espId: string; firstSeenAt: Date; gaps: number; missing: [number, number][] }[]> {
    const rows: { esp_id: string; first_seen_at: Date; gaps: number; missing: [number, number][] }[] =
      await this.dataSource.query(
        `SELECT g.esp_id, min(g.first_seen_at) AS first_seen_at, count(*)::int AS gaps,
                json_agg(json_build_array(g.from_seq, g.to_seq) ORDER BY g.from_seq) AS missing
         FROM machine_seq_gaps g
         JOIN devices d ON d.esp_id = g.esp_id
         LEFT JOIN alarm_settings s ON s.esp_id = g.esp_id
         WHERE g.first_seen_at <= $1::timestamptz - make_interval(mins => coalesce(s.sales_gap_after_minutes, $2))
           AND (s.maintenance_until IS NULL OR s.maintenance_until <= $1)
           AND NOT EXISTS (SELECT 1 FROM alarms a WHERE a.esp_id = g.esp_id AND a.kind = 'sales_gap' AND a.status <> 'cleared')
         GROUP BY g.esp_id`,
        [now.toISOString(), DEFAULT_ALARM_SETTINGS.salesGapAfterMinutes],
      );
    return rows.map((r) => ({
      espId: r.esp_id,
      firstSeenAt: r.first_seen_at,
      gaps: r.gaps,
      // The first 20 ranges are enough to say what is missing; GET /machines/{espId}/sync lists them all.
      missing: r.missing.slice(0, 20),
    }));
  }

  /** Active sales_gap alarms none of whose gaps (those seen by the time it opened) remain. */
  async salesGapsFilled(): Promise<string[]> {
    const rows: { esp_id: string }[] = await this.dataSource.query(
      `SELECT a.esp_id FROM alarms a
       WHERE a.kind = 'sales_gap' AND a.status <> 'cleared'
         AND NOT EXISTS (SELECT 1 FROM machine_seq_gaps g WHERE g.esp_id = a.esp_id AND g.first_seen_at <= a.opened_at)`,
    );
    return rows.map((r) => r.esp_id);
  }

  // --- settings ---------------------------------------------------------------------------------

  async settings(espId: string, m?: EntityManager): Promise<MachineAlarmSettings> {
    const rows: SettingsDbRow[] = await this.m(m).query(
      `SELECT ${SETTINGS_COLUMNS} FROM devices d LEFT JOIN alarm_settings s ON s.esp_id = d.esp_id WHERE d.esp_id = $1`,
      [espId],
    );
    return toSettings(rows[0] ?? ({ esp_id: espId } as SettingsDbRow));
  }

  async settingsFor(m: EntityManager, espIds: string[]): Promise<Map<string, MachineAlarmSettings>> {
    const rows: SettingsDbRow[] = await m.query(
      `SELECT ${SETTINGS_COLUMNS} FROM devices d LEFT JOIN alarm_settings s ON s.esp_id = d.esp_id
       WHERE d.esp_id = ANY($1::text[])`,
      [espIds],
    );
    return new Map(rows.map((r) => [r.esp_id, toSettings(r)]));
  }

  /** Locks the machine's settings row (made with the defaults when missing) for a change. */
  async lockSettings(m: EntityManager, espId: string): Promise<MachineAlarmSettings> {
    await m.query(`INSERT INTO alarm_settings (esp_id) VALUES ($1) ON CONFLICT (esp_id) DO NOTHING`, [espId]);
    const rows: SettingsDbRow[] = await m.query(
      `SELECT ${SETTINGS_COLUMNS} FROM alarm_settings s JOIN devices d ON d.esp_id = s.esp_id
       WHERE s.esp_id = $1 FOR UPDATE OF s`,
      [espId],
    );
    return toSettings(rows[0]!);
  }

  async saveSettings(m: EntityManager, espId: string, s: AlarmSettings, userId: string): Promise<void> {
    await m.query(
      `UPDATE alarm_settings SET offline_after_minutes = $2, no_sales_after_minutes = $3, sales_gap_after_minutes = $4,
         business_hours_from = $5, business_hours_to = $6, low_tank_pct = $7, max_tds_ppm = $8,
         max_cold_water_temp_c = $9, maintenance_until = $10, updated_at = now(), updated_by = $11
       WHERE esp_id = $1`,
      [
        espId,
        s.offlineAfterMinutes,
        s.noSalesAfterMinutes,
        s.salesGapAfterMinutes,
        s.businessHours.from,
        s.businessHours.to,
        s.lowTankPct,
        s.maxTdsPpm,
        s.maxColdWaterTempC,
        s.maintenanceUntil,
        userId,
      ],
    );
  }

  // --- the API ----------------------------------------------------------------------------------

  async list(actor: Actor, q: AlarmListQuery): Promise<{ data: Alarm[]; total: number }> {
    const m = this.dataSource.manager;
    const scope = visibleDevices(m, actor);
    const params: unknown[] = [...scope.params];
    const where = [`a.esp_id IN (${scope.sql})`];
    const param = (v: unknown) => `$${params.push(v)}`;
    if (q.status === 'active') where.push(`a.status <> 'cleared'`);
    else if (q.status !== 'all') where.push(`a.status = ${param(q.status)}`);
    if (q.machineId) where.push(`a.esp_id = ${param(q.machineId)}`);
    if (q.kind) where.push(`a.kind = ${param(q.kind)}`);
    const filter = where.join(' AND ');
    const [{ total }]: { total: number }[] = await m.query(
      `SELECT count(*)::int AS total FROM alarms a WHERE ${filter}`,
      params,
    );
    const limit = param(q.limit);
    const offset = param((q.page - 1) * q.limit);
    const rows: AlarmDbRow[] = await m.query(
      `SELECT a.* FROM alarms a WHERE ${filter} ORDER BY a.opened_at DESC, a.id DESC LIMIT ${limit} OFFSET ${offset}`,
      params,
    );
    return { data: rows.map(toAlarm), total };
  }

  /** The alarm when its machine is in the caller's scope; `lock` takes its row for a change. */
  async findVisible(actor: Actor, id: string, m?: EntityManager, lock = false): Promise<Alarm | null> {
    const scope = visibleDevices(this.m(m), actor);
    const rows: AlarmDbRow[] = await this.m(m).query(
      `SELECT a.* FROM alarms a WHERE a.id = $${scope.params.length + 1} AND a.esp_id IN (${scope.sql})
       ${lock ? 'FOR UPDATE OF a' : ''}`,
      [...scope.params, id],
    );
    return rows[0] ? toAlarm(rows[0]) : null;
  }

  async activeOf(espId: string): Promise<Alarm[]> {
    const rows: AlarmDbRow[] = await this.dataSource.query(
      `SELECT * FROM alarms WHERE esp_id = $1 AND status <> 'cleared' ORDER BY opened_at DESC, id DESC`,
      [espId],
    );
    return rows.map(toAlarm);
  }

  async update(
    m: EntityManager,
    id: string,
    change: Partial<{ status: Alarm['status']; acknowledgedBy: string; assigneeId: string; clearedBy: string }>,
  ): Promise<Alarm> {
    const rows = returningRows<AlarmDbRow>(
      await m.query(
        `UPDATE alarms SET
           status = coalesce($2, status),
           acknowledged_at = CASE WHEN $3::uuid IS NULL THEN acknowledged_at ELSE now() END,
           acknowledged_by = coalesce($3::uuid, acknowledged_by),
           assignee_id = coalesce($4::uuid, assignee_id),
           cleared_at = CASE WHEN $5::text IS NULL THEN cleared_at ELSE now() END,
           cleared_by = coalesce($5::text, cleared_by),
           updated_at = now()
         WHERE id = $1 RETURNING *`,
        [id, change.status ?? null, change.acknowledgedBy ?? null, change.assigneeId ?? null, change.clearedBy ?? null],
      ),
    );
    return toAlarm(rows[0]!);
  }

  async touch(m: EntityManager, id: string): Promise<Alarm> {
    const rows = returningRows<AlarmDbRow>(
      await m.query(`UPDATE alarms SET updated_at = now() WHERE id = $1 RETURNING *`, [id]),
    );
    return toAlarm(rows[0]!);
  }

  async addNote(m: EntityManager, alarmId: string, userId: string, text: string): Promise<AlarmNote> {
    const [row]: { id: string; at: Date }[] = await m.query(
      `INSERT INTO alarm_notes (alarm_id, user_id, text) VALUES ($1, $2, $3) RETURNING id, at`,
      [alarmId, userId, text],
    );
    return { id: row!.id, userId, text, at: row!.at.toISOString() };
  }

  async notes(alarmId: string): Promise<AlarmNote[]> {
    const rows: { id: string; user_id: string; text: string; at: Date }[] = await this.dataSource.query(
      `SELECT id, user_id, text, at FROM alarm_notes WHERE alarm_id = $1 ORDER BY at, id`,
      [alarmId],
    );
    return rows.map((r) => ({ id: r.id, userId: r.user_id, text: r.text, at: r.at.toISOString() }));
  }
}
