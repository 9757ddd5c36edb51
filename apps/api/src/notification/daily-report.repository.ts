import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { nextAttemptAfterFailure } from '../common/backoff-sql.js';
import { returningRows } from '../common/returning-rows.js';

/** One machine's line of a daily report: numeric text as PostgreSQL returns it. */
export interface DailyReportRow {
  espId: string;
  location: string | null;
  coinRevenue: string;
  coinLitres: string;
  cardRevenue: string;
  cardLitres: string;
  alarmsOpened: number;
}

export interface ClaimedReport {
  managerId: string;
  day: string;
  address: string;
  messageId: string;
  attempts: number;
  /** The manager's language, read when the report is sent (docs/alarms.md, "Languages"). */
  language: string;
}

/**
 * The daily reports (docs/alarms.md, "Notifications"): one row per manager and day, made once by
 * whichever worker gets there first, then sent with a lease like the alarm messages.
 */
@Injectable()
export class DailyReportRepository {
  constructor(private readonly dataSource: DataSource) {}

  /**
   * Queues `day`'s report for every active manager whose email is on and who has an address;
   * a report already queued for that day is left alone. Answers how many were queued.
   */
  async queueForDay(day: string, messageDomain: string): Promise<number> {
    const rows: unknown[] = await this.dataSource.query(
      `INSERT INTO daily_reports (manager_id, day, address, status, message_id)
       SELECT u.id, $1::date, u.email, 'pending', '<daily-report-' || $1 || '-' || u.id || '@' || $2 || '>'
       FROM users u LEFT JOIN notification_preferences p ON p.user_id = u.id
       WHERE u.role = 'manager' AND u.deleted_at IS NULL AND u.email IS NOT NULL AND coalesce(p.email, true)
       ON CONFLICT (manager_id, day) DO NOTHING
       RETURNING manager_id`,
      [day, messageDomain],
    );
    return rows.length;
  }

  /** Claims one due report (a lease; a report whose sender stopped is taken again when it expires). */
  async claim(leaseSeconds: number): Promise<ClaimedReport | null> {
    const result: unknown = await this.dataSource.query(
      `UPDATE daily_reports SET lease_until = now() + $1 * interval '1 second', attempts = attempts + 1
       WHERE (manager_id, day) = (
         SELECT manager_id, day FROM daily_reports
         WHERE status = 'pending' AND next_attempt_at <= now() AND (lease_until IS NULL OR lease_until < now())
         ORDER BY next_attempt_at LIMIT 1 FOR UPDATE SKIP LOCKED)
       RETURNING manager_id AS "managerId", to_char(day, 'YYYY-MM-DD') AS day, address, message_id AS "messageId", attempts,
                 (SELECT u.language FROM users u WHERE u.id = manager_id) AS language`,
      [leaseSeconds],
    );
    return returningRows<ClaimedReport>(result)[0] ?? null;
  }

  /** Each machine the manager owns, with its coin and card figures and the alarms opened on `day` (local). */
  rows(managerId: string, day: string, timezone: string): Promise<DailyReportRow[]> {
    return this.dataSource.query(
      `SELECT d.esp_id AS "espId", d.location,
              coalesce(sum(s.price_total) FILTER (WHERE s.kind = 'coin'), 0)::text AS "coinRevenue",
              coalesce(sum(s.volume_total) FILTER (WHERE s.kind = 'coin'), 0)::text AS "coinLitres",
              coalesce(sum(s.price_total) FILTER (WHERE s.kind = 'card'), 0)::text AS "cardRevenue",
              coalesce(sum(s.volume_total) FILTER (WHERE s.kind = 'card'), 0)::text AS "cardLitres",
              (SELECT count(*) FROM alarm_notices a
                WHERE a.event = 'opened' AND a.esp_id = d.esp_id
                  AND a.opened_at >= ($2::date)::timestamp AT TIME ZONE $3
                  AND a.opened_at < ($2::date + 1)::timestamp AT TIME ZONE $3)::int AS "alarmsOpened"
       FROM devices d LEFT JOIN sales_daily s ON s.esp_id = d.esp_id AND s.day = $2::date
       WHERE d.owner_id = $1
       GROUP BY d.esp_id, d.location
       ORDER BY d.esp_id`,
      [managerId, day, timezone],
    );
  }

  async markSent(managerId: string, day: string): Promise<void> {
    await this.dataSource.query(
      `UPDATE daily_reports SET status = 'sent', sent_at = now(), lease_until = NULL, last_error = NULL
       WHERE manager_id = $1 AND day = $2::date`,
      [managerId, day],
    );
  }

  async markFailed(
    managerId: string,
    day: string,
    error: string,
    opts: { permanent: boolean; retryDelayMs: number; maxAttempts: number },
  ): Promise<void> {
    await this.dataSource.query(
      `UPDATE daily_reports SET
         status = CASE WHEN $4 OR attempts >= $6 THEN 'failed' ELSE 'pending' END,
         next_attempt_at = ${nextAttemptAfterFailure('$5')},
         lease_until = NULL, last_error = left($3, 500)
       WHERE manager_id = $1 AND day = $2::date`,
      [managerId, day, error, opts.permanent, opts.retryDelayMs, opts.maxAttempts],
    );
  }
}
