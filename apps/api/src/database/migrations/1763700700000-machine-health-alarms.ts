import type { MigrationInterface, QueryRunner } from 'typeorm';

const DAY_MS = 24 * 3600 * 1000;

/**
 * Machine health and alarms (docs/alarms.md): telemetry partitioned by day, the latest values per
 * machine, per-machine alarm settings, alarms with at most one active per machine and kind, and notes.
 */
export class MachineHealthAlarms1763700700000 implements MigrationInterface {
  name = 'MachineHealthAlarms1763700700000';

  async up(q: QueryRunner): Promise<void> {
    // Declarative range partitions by UTC day: the retention drops whole days (DROP TABLE) instead of
    // deleting rows. The default partition takes readings no day partition covers yet.
    await q.query(`
      CREATE TABLE telemetry (
        esp_id text NOT NULL,
        at timestamptz NOT NULL,
        received_at timestamptz NOT NULL DEFAULT now(),
        tank_level_pct numeric(5, 2),
        tds_ppm numeric(9, 2),
        cold_water_temp_c numeric(5, 2),
        coin_box_pct numeric(5, 2),
        error_code text
      ) PARTITION BY RANGE (at)`);
    await q.query(`CREATE INDEX telemetry_esp_at_idx ON telemetry (esp_id, at)`);
    await q.query(`CREATE TABLE telemetry_default PARTITION OF telemetry DEFAULT`);
    const today = Math.floor(Date.now() / DAY_MS) * DAY_MS;
    for (let d = -1; d <= 7; d++) {
      const from = new Date(today + d * DAY_MS);
      const to = new Date(today + (d + 1) * DAY_MS);
      const name = `telemetry_p${from.toISOString().slice(0, 10).replace(/-/g, '')}`;
      await q.query(
        `CREATE TABLE IF NOT EXISTS ${name} PARTITION OF telemetry
         FOR VALUES FROM ('${from.toISOString()}') TO ('${to.toISOString()}')`,
      );
    }

    await q.query(`
      CREATE TABLE machine_health (
        esp_id text PRIMARY KEY REFERENCES devices (esp_id) ON DELETE CASCADE,
        at timestamptz,
        tank_level_pct numeric(5, 2),
        tds_ppm numeric(9, 2),
        cold_water_temp_c numeric(5, 2),
        coin_box_pct numeric(5, 2),
        error_code text,
        last_sale_at timestamptz,
        -- when the machine last went from offline to online: the no_sales clock starts no earlier
        online_since timestamptz,
        temp_high_streak integer NOT NULL DEFAULT 0,
        short_dispense_times timestamptz[] NOT NULL DEFAULT '{}'
      )`);

    await q.query(`
      CREATE TABLE alarm_settings (
        esp_id text PRIMARY KEY REFERENCES devices (esp_id) ON DELETE CASCADE,
        offline_after_minutes integer NOT NULL DEFAULT 10 CHECK (offline_after_minutes BETWEEN 1 AND 10080),
        no_sales_after_minutes integer NOT NULL DEFAULT 120 CHECK (no_sales_after_minutes BETWEEN 1 AND 10080),
        sales_gap_after_minutes integer NOT NULL DEFAULT 30 CHECK (sales_gap_after_minutes BETWEEN 1 AND 10080),
        business_hours_from text NOT NULL DEFAULT '06:00' CHECK (business_hours_from ~ '^([01][0-9]|2[0-3]):[0-5][0-9]$'),
        business_hours_to text NOT NULL DEFAULT '22:00' CHECK (business_hours_to ~ '^([01][0-9]|2[0-3]):[0-5][0-9]$'),
        low_tank_pct numeric(5, 2) NOT NULL DEFAULT 15,
        max_tds_ppm numeric(9, 2) NOT NULL DEFAULT 500,
        max_cold_water_temp_c numeric(5, 2) NOT NULL DEFAULT 12,
        maintenance_until timestamptz,
        updated_at timestamptz NOT NULL DEFAULT now(),
        updated_by uuid
      )`);

    await q.query(`
      CREATE TABLE alarms (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        esp_id text NOT NULL REFERENCES devices (esp_id) ON DELETE CASCADE,
        kind text NOT NULL CHECK (kind IN ('offline', 'no_sales', 'short_dispense', 'low_tank', 'water_quality',
          'water_temperature', 'coin_box_full', 'device_error', 'sales_gap')),
        severity text NOT NULL CHECK (severity IN ('critical', 'major', 'minor')),
        status text NOT NULL DEFAULT 'open' CHECK (status IN ('open', 'acknowledged', 'cleared')),
        opened_at timestamptz NOT NULL DEFAULT now(),
        acknowledged_at timestamptz,
        acknowledged_by uuid,
        assignee_id uuid,
        cleared_at timestamptz,
        cleared_by text,
        escalated boolean NOT NULL DEFAULT false,
        escalated_at timestamptz,
        details jsonb NOT NULL DEFAULT '{}'::jsonb,
        updated_at timestamptz NOT NULL DEFAULT now()
      )`);
    // At most one active alarm per machine and kind, whatever the number of workers evaluating rules.
    await q.query(`CREATE UNIQUE INDEX alarms_active_uq ON alarms (esp_id, kind) WHERE status <> 'cleared'`);
    await q.query(`CREATE INDEX alarms_opened_idx ON alarms (opened_at DESC, id DESC)`);
    await q.query(`CREATE INDEX alarms_machine_idx ON alarms (esp_id, opened_at DESC, id DESC)`);
    await q.query(`CREATE INDEX alarms_escalation_idx ON alarms (opened_at) WHERE status = 'open' AND NOT escalated`);
    await q.query(
      `CREATE INDEX alarms_recent_cleared_idx ON alarms (esp_id, kind, cleared_at DESC) WHERE status = 'cleared'`,
    );

    await q.query(`
      CREATE TABLE alarm_notes (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        alarm_id uuid NOT NULL REFERENCES alarms (id) ON DELETE CASCADE,
        user_id uuid NOT NULL,
        text text NOT NULL,
        at timestamptz NOT NULL DEFAULT now()
      )`);
    await q.query(`CREATE INDEX alarm_notes_alarm_idx ON alarm_notes (alarm_id, at)`);

    await q.query(`ALTER TABLE audit_log DROP CONSTRAINT audit_log_entity_check`);
    await q.query(
      `ALTER TABLE audit_log ADD CONSTRAINT audit_log_entity_check CHECK (entity IN
       ('user', 'device', 'tariffs', 'wifi', 'card', 'float_request', 'float', 'alarm', 'alarm_settings'))`,
    );
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DELETE FROM audit_log WHERE entity IN ('alarm', 'alarm_settings')`);
    await q.query(`ALTER TABLE audit_log DROP CONSTRAINT audit_log_entity_check`);
    await q.query(
      `ALTER TABLE audit_log ADD CONSTRAINT audit_log_entity_check CHECK (entity IN
       ('user', 'device', 'tariffs', 'wifi', 'card', 'float_request', 'float'))`,
    );
    await q.query(`DROP TABLE alarm_notes`);
    await q.query(`DROP TABLE alarms`);
    await q.query(`DROP TABLE alarm_settings`);
    await q.query(`DROP TABLE machine_health`);
    await q.query(`DROP TABLE telemetry`);
  }
}
