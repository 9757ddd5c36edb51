import { Injectable } from '@nestjs/common';
import type { UserLanguage } from '@wv/contracts';
import { DataSource, type EntityManager } from 'typeorm';
import { nextAttemptAfterFailure } from '../common/backoff-sql.js';
import type { AlarmDelivery, AlarmNotice } from '../alarm-notice/alarm-notifier.port.js';
import { returningRows } from '../common/returning-rows.js';
import { messageLanguage } from './message-texts.js';

export type Channel = 'email' | 'sms';

/** One alarm event of a claimed message, for its text. */
export interface BatchLine {
  id: string;
  event: 'opened' | 'escalated';
  espId: string;
  kind: string;
  severity: 'critical' | 'major' | 'minor';
  openedAt: Date;
  location: string | null;
  details: Record<string, unknown>;
}

/** A claimed message: the outbox rows that go to one address as one message. */
export interface ClaimedBatch {
  batchId: string;
  messageId: string;
  channel: Channel;
  address: string;
  /** True when this is an email sent again after its sender stopped before recording it. */
  resend: boolean;
  lines: BatchLine[];
}

/**
 * What a claim found: a message to send, a batch given up (outcome unknown), an SMS released because its sender
 * stopped before handing it over (it is claimed again as a new message), or nothing due.
 */
export type ClaimResult =
  | { kind: 'batch'; batch: ClaimedBatch }
  | { kind: 'given-up'; channel: Channel; rows: number }
  | { kind: 'released'; rows: number }
  | { kind: 'throttled' }
  | { kind: 'none' };

export interface EnqueueOptions {
  channels: Channel[];
  timezone: string;
}

const SEVERITY_RANK = `ARRAY['minor', 'major', 'critical']`;

/**
 * The durable outbox of alarm messages (docs/alarms.md, "Notifications"): every statement on
 * `alarm_notices`, `notification_outbox` and `notification_windows`. Recipients and their addresses are
 * read from `users` and `notification_preferences` when a message is queued.
 */
@Injectable()
export class NotificationOutboxRepository {
  constructor(private readonly dataSource: DataSource) {}

  /**
   * Records the alarm events and queues one row per event, channel and recipient, in the caller's
   * transaction. A recipient's preferences decide the channels and the least severity; quiet hours
   * (in `timezone`) defer what is not critical to their end. Queuing the same event again adds nothing.
   */
  async enqueue(manager: EntityManager, notices: AlarmNotice[], options: EnqueueOptions): Promise<number> {
    if (notices.length === 0 || options.channels.length === 0) {
      if (notices.length > 0) await this.insertNotices(manager, notices);
      return 0;
    }
    await this.insertNotices(manager, notices);
    const alarmIds: string[] = [];
    const events: string[] = [];
    const recipients: (string | null)[] = [];
    for (const n of notices) {
      const ids = n.event === 'escalated' ? [null] : [...new Set([n.ownerId, n.attendantId])].filter((x) => x !== null);
      for (const id of ids) {
        alarmIds.push(n.alarmId);
        events.push(n.event);
        recipients.push(id);
      }
    }
    if (alarmIds.length === 0) return 0;
    const rows: unknown[] = await manager.query(
      `WITH n AS (
         SELECT c.alarm_id, c.event, c.recipient_id, a.severity
         FROM unnest($1::uuid[], $2::text[], $3::uuid[]) AS c(alarm_id, event, recipient_id)
         JOIN alarm_notices a ON a.alarm_id = c.alarm_id AND a.event = c.event
       ), r AS (
         SELECT n.alarm_id, n.event, n.severity, u.id AS recipient_id, u.email, u.phone_number
         FROM n JOIN users u ON u.id = n.recipient_id AND u.deleted_at IS NULL
         UNION
         SELECT n.alarm_id, n.event, n.severity, u.id, u.email, u.phone_number
         FROM n JOIN users u ON n.recipient_id IS NULL AND u.role = 'admin' AND u.deleted_at IS NULL
       ), p AS (
         SELECT r.*, coalesce(p.email, true) AS want_email, coalesce(p.sms, true) AS want_sms,
                coalesce(p.min_severity, 'major') AS min_severity, p.quiet_from, p.quiet_to,
                (now() AT TIME ZONE $4) AS local_now
         FROM r LEFT JOIN notification_preferences p ON p.user_id = r.recipient_id
       ), c AS (
         SELECT p.*, ch.channel,
                CASE ch.channel WHEN 'email' THEN p.email ELSE p.phone_number END AS address,
                p.severity <> 'critical' AND p.quiet_from IS NOT NULL AND CASE
                  WHEN p.quiet_from < p.quiet_to THEN p.local_now::time >= p.quiet_from AND p.local_now::time < p.quiet_to
                  ELSE p.local_now::time >= p.quiet_from OR p.local_now::time < p.quiet_to
                END AS quiet
         FROM p CROSS JOIN unnest($5::text[]) AS ch(channel)
         WHERE array_position(${SEVERITY_RANK}, p.severity) >= array_position(${SEVERITY_RANK}, p.min_severity)
           AND ((ch.channel = 'email' AND p.want_email AND p.email IS NOT NULL)
             -- An all-zero subscriber number is a placeholder (the first admin's), never a phone.
             OR (ch.channel = 'sms' AND p.want_sms AND p.phone_number !~ '^\\+[0-9]{1,3}0+$'))
       )
       INSERT INTO notification_outbox (alarm_id, event, channel, recipient_id, address, status, next_attempt_at)
       SELECT alarm_id, event, channel, recipient_id, address,
              CASE WHEN quiet THEN 'deferred' ELSE 'pending' END,
              CASE WHEN quiet THEN (
                date_trunc('day', local_now) + quiet_to
                + CASE WHEN date_trunc('day', local_now) + quiet_to <= local_now THEN interval '1 day' ELSE interval '0' END
              ) AT TIME ZONE $4 ELSE now() END
       FROM c
       ON CONFLICT ON CONSTRAINT notification_outbox_once_uq DO NOTHING
       RETURNING id`,
      [alarmIds, events, recipients, options.timezone, options.channels],
    );
    return rows.length;
  }

  private async insertNotices(manager: EntityManager, notices: AlarmNotice[]): Promise<void> {
    await manager.query(
      `INSERT INTO alarm_notices (alarm_id, event, esp_id, kind, severity, opened_at, location, details)
       SELECT * FROM unnest($1::uuid[], $2::text[], $3::text[], $4::text[], $5::text[], $6::timestamptz[], $7::text[], $8::jsonb[])
       ON CONFLICT (alarm_id, event) DO NOTHING`,
      [
        notices.map((n) => n.alarmId),
        notices.map((n) => n.event),
        notices.map((n) => n.espId),
        notices.map((n) => n.kind),
        notices.map((n) => n.severity),
        notices.map((n) => n.openedAt.toISOString()),
        notices.map((n) => n.location),
        notices.map((n) => JSON.stringify(n.details ?? {})),
      ],
    );
  }

  async deliveries(alarmId: string): Promise<AlarmDelivery[]> {
    const rows: { channel: Channel; to: string; status: AlarmDelivery['status']; attempts: number; at: Date }[] =
      await this.dataSource.query(
        `SELECT channel, address AS "to", status, attempts, updated_at AS at
         FROM notification_outbox WHERE alarm_id = $1 ORDER BY id`,
        [alarmId],
      );
    return rows.map((r) => ({ ...r, at: new Date(r.at).toISOString() }));
  }

  /**
   * Claims the next message in one transaction: the oldest due row decides the address, and every due
   * row of that address and channel joins it (a digest), up to `maxRows`. A row whose lease expired
   * while it still carried a batch was claimed when its sender stopped (docs/alarms.md, "What is guaranteed
   * when a process dies"): email is sent again as the same message (same batch, same Message-ID); an SMS,
   * which carries no such identity, is released to be sent as a new message if it was never handed to the
   * SMS API (`handed_at` unset), and given up if it was, since the API may have taken it. A known refusal
   * clears the batch (markFailed), except an email's sent again, which stays that message.
   */
  claim(opts: {
    leaseSeconds: number;
    digestSeconds: number;
    maxRows: number;
    newBatchId: string;
    messageId: (batchId: string) => string;
  }): Promise<ClaimResult> {
    return this.dataSource.transaction(async (m) => {
      const [head]: {
        id: string;
        channel: Channel;
        address: string;
        batch_id: string | null;
        message_id: string | null;
      }[] = await m.query(
        `SELECT id, channel, address, batch_id, message_id FROM notification_outbox
           WHERE status IN ('pending', 'deferred') AND next_attempt_at <= now()
             AND (lease_until IS NULL OR lease_until < now())
           ORDER BY next_attempt_at, id LIMIT 1 FOR UPDATE SKIP LOCKED`,
      );
      if (!head) return { kind: 'none' } as const;

      if (head.batch_id && head.channel === 'email') {
        // Email carries its identity: the same message again (same batch, same Message-ID), which mail
        // programs recognise as one message (RFC 5322, 3.6.4).
        await m.query(
          `UPDATE notification_outbox SET lease_until = now() + $2 * interval '1 second', attempts = attempts + 1, updated_at = now()
           WHERE batch_id = $1 AND status IN ('pending', 'deferred')`,
          [head.batch_id, opts.leaseSeconds],
        );
        return {
          kind: 'batch',
          batch: await this.batch(m, head.batch_id, head.message_id!, head.channel, head.address, true),
        } as const;
      }
      if (head.batch_id) {
        // The rows of one batch are handed over together (markHanded), so one row answers for all.
        const released: unknown = await m.query(
          `UPDATE notification_outbox SET batch_id = NULL, message_id = NULL, lease_until = NULL, updated_at = now()
           WHERE batch_id = $1 AND status IN ('pending', 'deferred') AND handed_at IS NULL RETURNING id`,
          [head.batch_id],
        );
        const given: unknown = await m.query(
          `UPDATE notification_outbox SET status = 'failed', lease_until = NULL, updated_at = now(),
                  last_error = 'outcome unknown: the sender stopped after handing the message to the SMS API; not sent again'
           WHERE batch_id = $1 AND status IN ('pending', 'deferred') RETURNING id`,
          [head.batch_id],
        );
        await m.query(`UPDATE notification_windows SET busy_until = NULL WHERE channel = $1 AND address = $2`, [
          head.channel,
          head.address,
        ]);
        const releasedRows = returningRows(released).length;
        return releasedRows > 0
          ? ({ kind: 'released', rows: releasedRows } as const)
          : ({ kind: 'given-up', channel: head.channel, rows: returningRows(given).length } as const);
      }

      const window: unknown[] = await m.query(
        `INSERT INTO notification_windows AS w (channel, address, busy_until)
         VALUES ($1, $2, now() + $3 * interval '1 second')
         ON CONFLICT (channel, address) DO UPDATE SET busy_until = EXCLUDED.busy_until
         WHERE (w.busy_until IS NULL OR w.busy_until < now())
           AND (w.last_sent_at IS NULL OR w.last_sent_at <= now() - $4 * interval '1 second')
         RETURNING channel`,
        [head.channel, head.address, opts.leaseSeconds, opts.digestSeconds],
      );
      if (window.length === 0) {
        // A message went to this address moments ago (or is going): what is due waits for the window's
        // end and then goes as one digest.
        await m.query(
          `UPDATE notification_outbox o SET next_attempt_at = greatest(
             coalesce(w.last_sent_at + $3 * interval '1 second', now()), coalesce(w.busy_until, now()), now() + interval '1 second')
           FROM notification_windows w
           WHERE w.channel = $1 AND w.address = $2 AND o.channel = $1 AND o.address = $2
             AND o.status IN ('pending', 'deferred') AND o.batch_id IS NULL AND o.next_attempt_at <= now()`,
          [head.channel, head.address, opts.digestSeconds],
        );
        return { kind: 'throttled' } as const;
      }

      const messageId = opts.messageId(opts.newBatchId);
      await m.query(
        `UPDATE notification_outbox SET lease_until = now() + $4 * interval '1 second', attempts = attempts + 1,
                batch_id = $3, message_id = $5, handed_at = NULL, updated_at = now()
         WHERE id IN (
           SELECT id FROM notification_outbox
           WHERE channel = $1 AND address = $2 AND status IN ('pending', 'deferred') AND next_attempt_at <= now()
             AND batch_id IS NULL
           ORDER BY id LIMIT $6 FOR UPDATE SKIP LOCKED)`,
        [head.channel, head.address, opts.newBatchId, opts.leaseSeconds, messageId, opts.maxRows],
      );
      return {
        kind: 'batch',
        batch: await this.batch(m, opts.newBatchId, messageId, head.channel, head.address, false),
      } as const;
    });
  }

  private async batch(
    m: EntityManager,
    batchId: string,
    messageId: string,
    channel: Channel,
    address: string,
    resend: boolean,
  ): Promise<ClaimedBatch> {
    const lines: BatchLine[] = await m.query(
      `SELECT o.id, o.event, n.esp_id AS "espId", n.kind, n.severity, n.opened_at AS "openedAt", n.location, n.details
       FROM notification_outbox o JOIN alarm_notices n ON n.alarm_id = o.alarm_id AND n.event = o.event
       WHERE o.batch_id = $1 AND o.status IN ('pending', 'deferred') ORDER BY o.id`,
      [batchId],
    );
    return { batchId, messageId, channel, address, resend, lines };
  }

  /**
   * The language of a claimed message (docs/alarms.md, "Languages"): its recipient's, read when it is sent
   * so that a change of language applies to what is still queued. Rows of one address normally share
   * one recipient; when several users share an address, the newest row's recipient decides.
   */
  async language(batchId: string): Promise<UserLanguage> {
    const rows: { language: string }[] = await this.dataSource.query(
      `SELECT u.language FROM notification_outbox o JOIN users u ON u.id = o.recipient_id
       WHERE o.batch_id = $1 ORDER BY o.id DESC LIMIT 1`,
      [batchId],
    );
    return messageLanguage(rows[0]?.language);
  }

  /**
   * An SMS is about to be handed to the SMS API: recorded (committed) before its request is written, so that a
   * sender that stops before this point leaves an SMS that is sent again, and one that stops after it leaves an SMS
   * that may have arrived (given up). Answers false if the claim was lost meanwhile (its lease expired and another
   * sender took the rows): the SMS must not be sent.
   */
  async markHanded(batch: ClaimedBatch): Promise<boolean> {
    const rows: unknown = await this.dataSource.query(
      `UPDATE notification_outbox SET handed_at = now(), updated_at = now()
       WHERE batch_id = $1 AND status IN ('pending', 'deferred') AND lease_until > now() RETURNING id`,
      [batch.batchId],
    );
    return returningRows(rows).length > 0;
  }

  /** The message was accepted by the mail server or the SMS API. */
  async markSent(batch: ClaimedBatch): Promise<void> {
    await this.dataSource.transaction(async (m) => {
      await m.query(
        `UPDATE notification_outbox SET status = 'sent', sent_at = now(), updated_at = now(), lease_until = NULL, last_error = NULL
         WHERE batch_id = $1 AND status IN ('pending', 'deferred')`,
        [batch.batchId],
      );
      await m.query(
        `UPDATE notification_windows SET last_sent_at = now(), busy_until = NULL WHERE channel = $1 AND address = $2`,
        [batch.channel, batch.address],
      );
    });
  }

  /** The server may have taken the message and its answer was lost: given up, never sent twice. */
  async giveUp(batch: ClaimedBatch, error: string): Promise<void> {
    await this.dataSource.transaction(async (m) => {
      await m.query(
        `UPDATE notification_outbox SET status = 'failed', lease_until = NULL, updated_at = now(),
                last_error = left('outcome unknown: ' || $2 || '; not sent again', 500)
         WHERE batch_id = $1 AND status IN ('pending', 'deferred')`,
        [batch.batchId, error],
      );
      await m.query(`UPDATE notification_windows SET busy_until = NULL WHERE channel = $1 AND address = $2`, [
        batch.channel,
        batch.address,
      ]);
    });
  }

  /**
   * The message was not accepted. `permanent` (or the last attempt) marks its rows failed; otherwise they
   * wait an exponential backoff (with jitter) and may join other rows of the address in the next message.
   */
  async markFailed(
    batch: ClaimedBatch,
    error: string,
    opts: { permanent: boolean; retryDelayMs: number; maxAttempts: number },
  ): Promise<void> {
    await this.dataSource.transaction(async (m) => {
      await m.query(
        `UPDATE notification_outbox SET
           status = CASE WHEN $3 OR attempts >= $5 THEN 'failed' ELSE 'pending' END,
           next_attempt_at = ${nextAttemptAfterFailure('$4')},
           -- An email sent again after a crash keeps its batch and Message-ID: the first copy may have arrived.
           batch_id = CASE WHEN $6 THEN batch_id END, message_id = CASE WHEN $6 THEN message_id END, handed_at = NULL,
           lease_until = NULL, last_error = left($2, 500), updated_at = now()
         WHERE batch_id = $1 AND status IN ('pending', 'deferred')`,
        [batch.batchId, error, opts.permanent, opts.retryDelayMs, opts.maxAttempts, batch.resend],
      );
      await m.query(`UPDATE notification_windows SET busy_until = NULL WHERE channel = $1 AND address = $2`, [
        batch.channel,
        batch.address,
      ]);
    });
  }

  /**
   * Deletes settled messages (sent or failed) and alarm events last changed before `before`, at most
   * `limit` rows of each per call; answers how many rows went.
   */
  async purge(before: Date, limit: number): Promise<number> {
    const messages: unknown = await this.dataSource.query(
      `DELETE FROM notification_outbox WHERE id IN (
         SELECT id FROM notification_outbox
         WHERE status IN ('sent', 'failed') AND updated_at < $1 ORDER BY id LIMIT $2)
       RETURNING id`,
      [before, limit],
    );
    const notices: unknown = await this.dataSource.query(
      `DELETE FROM alarm_notices n WHERE (n.alarm_id, n.event) IN (
         SELECT a.alarm_id, a.event FROM alarm_notices a
         WHERE a.noticed_at < $1
           AND NOT EXISTS (SELECT 1 FROM notification_outbox o WHERE o.alarm_id = a.alarm_id AND o.event = a.event)
         LIMIT $2)
       RETURNING alarm_id`,
      [before, limit],
    );
    await this.dataSource.query(
      `DELETE FROM daily_reports WHERE status IN ('sent', 'failed') AND day < ($1::timestamptz)::date`,
      [before],
    );
    return returningRows(messages).length + returningRows(notices).length;
  }
}
