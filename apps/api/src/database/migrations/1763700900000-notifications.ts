import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Notifications (docs/alarms.md, "Notifications"): each user's preferences, the alarm events the engine
 * reported, the durable outbox of email and SMS messages (one row per alarm event, channel and
 * recipient), the per-address digest window, and the daily reports (one per manager and day).
 * Users already hold what messages need: `email` (nullable) and `phone_number` in E.164.
 */
export class Notifications1763700900000 implements MigrationInterface {
  name = 'Notifications1763700900000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE notification_preferences (
        user_id uuid PRIMARY KEY REFERENCES users(id),
        email boolean NOT NULL DEFAULT true,
        sms boolean NOT NULL DEFAULT true,
        min_severity text NOT NULL DEFAULT 'major' CHECK (min_severity IN ('critical', 'major', 'minor')),
        quiet_from time,
        quiet_to time,
        updated_at timestamptz NOT NULL DEFAULT now(),
        CHECK ((quiet_from IS NULL) = (quiet_to IS NULL)),
        CHECK (quiet_from IS NULL OR quiet_from <> quiet_to)
      )`);

    // What the alarm engine reported, whoever receives it: the text of the messages and the daily
    // report's count of alarms opened per machine.
    await q.query(`
      CREATE TABLE alarm_notices (
        alarm_id uuid NOT NULL,
        event text NOT NULL CHECK (event IN ('opened', 'escalated')),
        esp_id text NOT NULL,
        kind text NOT NULL,
        severity text NOT NULL CHECK (severity IN ('critical', 'major', 'minor')),
        opened_at timestamptz NOT NULL,
        location text,
        details jsonb NOT NULL DEFAULT '{}',
        noticed_at timestamptz NOT NULL DEFAULT now(),
        PRIMARY KEY (alarm_id, event)
      )`);
    await q.query(`CREATE INDEX alarm_notices_opened_idx ON alarm_notices (opened_at, esp_id) WHERE event = 'opened'`);
    await q.query(`CREATE INDEX alarm_notices_noticed_idx ON alarm_notices (noticed_at)`);

    // status: pending (due at next_attempt_at), deferred (quiet hours, due at their end), sent, failed.
    // A claimed row carries batch_id, message_id and lease_until; a lease that expires with the row
    // still pending means the sender stopped between sending and recording.
    await q.query(`
      CREATE TABLE notification_outbox (
        id bigserial PRIMARY KEY,
        alarm_id uuid NOT NULL,
        event text NOT NULL,
        channel text NOT NULL CHECK (channel IN ('email', 'sms')),
        recipient_id uuid NOT NULL REFERENCES users(id),
        address text NOT NULL,
        status text NOT NULL CHECK (status IN ('pending', 'deferred', 'sent', 'failed')),
        attempts integer NOT NULL DEFAULT 0,
        next_attempt_at timestamptz NOT NULL,
        lease_until timestamptz,
        batch_id uuid,
        message_id text,
        last_error text,
        created_at timestamptz NOT NULL DEFAULT now(),
        updated_at timestamptz NOT NULL DEFAULT now(),
        sent_at timestamptz,
        FOREIGN KEY (alarm_id, event) REFERENCES alarm_notices (alarm_id, event),
        CONSTRAINT notification_outbox_once_uq UNIQUE (alarm_id, event, channel, recipient_id)
      )`);
    await q.query(
      `CREATE INDEX notification_outbox_due_idx ON notification_outbox (next_attempt_at)
       WHERE status IN ('pending', 'deferred')`,
    );
    await q.query(
      `CREATE INDEX notification_outbox_address_idx ON notification_outbox (channel, address, next_attempt_at)
       WHERE status IN ('pending', 'deferred')`,
    );
    // The retention purge (docs/alarms.md, "Notifications").
    await q.query(
      `CREATE INDEX notification_outbox_settled_idx ON notification_outbox (updated_at) WHERE status IN ('sent', 'failed')`,
    );
    await q.query(`CREATE INDEX notification_outbox_recipient_idx ON notification_outbox (recipient_id)`);
    await q.query(
      `CREATE INDEX notification_outbox_batch_idx ON notification_outbox (batch_id) WHERE batch_id IS NOT NULL`,
    );

    // The digest window per address: at most one message per NOTIFICATION_DIGEST_SECONDS; busy_until
    // serialises the dispatchers of several processes on one address.
    await q.query(`
      CREATE TABLE notification_windows (
        channel text NOT NULL,
        address text NOT NULL,
        last_sent_at timestamptz,
        busy_until timestamptz,
        PRIMARY KEY (channel, address)
      )`);

    await q.query(`
      CREATE TABLE daily_reports (
        manager_id uuid NOT NULL REFERENCES users(id),
        day date NOT NULL,
        address text NOT NULL,
        status text NOT NULL CHECK (status IN ('pending', 'sent', 'failed')),
        attempts integer NOT NULL DEFAULT 0,
        next_attempt_at timestamptz NOT NULL DEFAULT now(),
        lease_until timestamptz,
        message_id text NOT NULL,
        last_error text,
        created_at timestamptz NOT NULL DEFAULT now(),
        sent_at timestamptz,
        PRIMARY KEY (manager_id, day)
      )`);
    await q.query(`CREATE INDEX daily_reports_due_idx ON daily_reports (next_attempt_at) WHERE status = 'pending'`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE daily_reports`);
    await q.query(`DROP TABLE notification_windows`);
    await q.query(`DROP TABLE notification_outbox`);
    await q.query(`DROP TABLE alarm_notices`);
    await q.query(`DROP TABLE notification_preferences`);
  }
}
