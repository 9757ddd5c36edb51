import type pg from 'pg';
import type { ReceivedSms } from '../../../demo/src/outside/sms-sink.js';
import type { CaughtMail } from '../../../demo/src/outside/smtp-catcher.js';
import { composeSms } from '../../src/notification/notification-message.js';
import type { BatchLine } from '../../src/notification/notification-outbox.repository.js';

/** Someone who hears of alarms, with the addresses the fixtures gave them. */
export interface Recipient {
  userId: string;
  email?: string;
  /** A real phone (not the first admin's all-zero placeholder). */
  phone?: string;
}

export interface NotificationExpectations {
  /** Who hears of an opening on each machine (docs/alarms.md: the owner manager and the attendant). */
  openingRecipients: ReadonlyMap<string, Recipient[]>;
  timezone: string;
  /** When the run killed a worker process (epoch milliseconds). */
  workerKills: readonly number[];
  /** When the run stopped the SMS API, cutting the requests it was taking (fail-sms, stopped; epoch milliseconds). */
  smsCuts: readonly number[];
  /**
   * When the run's tables were emptied (epoch milliseconds). The servers were cleared just before, so a message
   * they took before this moment that no row of this run knows was sent for the run before (its rows are gone).
   */
  since: number;
}

/**
 * How long before a worker kill an SMS may have been handed over and still not have left the process: from the
 * hand-over's commit to its request's write (milliseconds on an idle machine; the soak's load stretches it).
 */
const HANDOVER_WINDOW_MS = 1_000;
/** How long after the SMS API cut a request its sender records the SMS as of unknown outcome, at most. */
const CUT_WINDOW_MS = 5_000;

export interface NotificationVerdict {
  openings: number;
  escalations: number;
  /** Messages owed: one per alarm event, channel and recipient. */
  expected: number;
  /** Owed and received in exactly one message. */
  delivered: number;
  /** Owed and never received (no row queued, never sent, given up unsent), one sentence each. */
  lost: string[];
  /**
   * SMS owed and never received because a worker was killed between handing the SMS over and its request
   * leaving the process (docs/alarms.md, "What is guaranteed when a process dies": SMS is at most once, and this
   * is its one window): its rows were given up as of unknown outcome, handed over at most HANDOVER_WINDOW_MS
   * before a worker kill. Also SMS whose request the SMS API cut when it was stopped: docs/alarms.md, "a connection
   * cut after sending" is given up the same way, recorded at most CUT_WINDOW_MS after the cut. Any other SMS not
   * received is lost.
   */
  lostInHandover: string[];
  /** Received in more than one distinct message, or a message that carries no owed alarm event. */
  duplicated: string[];
  /**
   * Emails that arrived more than once as the same message (one Message-ID), sent again after their sender died
   * between the server taking them and the outbox recording it: counted as one message above, told here.
   */
  emailCopies: number;
  /** Rows marked failed as "outcome unknown" after a crash, per channel (delivered or lost is judged above). */
  outcomeUnknown: { email: number; sms: number };
  /** Rows still pending or deferred when the checks ran. */
  unsettled: number;
  /** Messages the servers took while the run's tables were being emptied that belong to the run before. */
  stale: number;
}

/** What the SMTP server and the SMS API took, read when asked. */
export interface ReceivedMessages {
  mails(): CaughtMail[];
  sms(): ReceivedSms[];
}

interface OutboxRow {
  alarm_id: string;
  event: 'opened' | 'escalated';
  channel: 'email' | 'sms';
  recipient_id: string;
  address: string;
  status: string;
  batch_id: string | null;
  message_id: string | null;
  last_error: string | null;
  handed_at: Date | null;
  updated_at: Date;
}

/**
 * Every alarm opening and escalation in the database reached each of its recipients exactly once per
 * channel (docs/alarms.md, "Notifications"). What is owed comes from the alarms and the fixtures'
 * people, not from the outbox, so a message never queued counts as lost. Email is matched by its
 * Message-ID (the outbox row's); an SMS carries no id, so each sent batch's text is composed again
 * from its rows and matched against what the SMS API took for that number.
 *
 * The workers keep running meanwhile, so the servers are read twice: before the database, for what arrived
 * without a row (a message's row, with its Message-ID, is written before it is sent), and after it, for what a
 * row calls sent (its server took it before the row said so).
 */
export async function checkNotifications(
  db: pg.Pool,
  received: ReceivedMessages,
  expect: NotificationExpectations,
): Promise<NotificationVerdict> {
  const before = { mails: received.mails(), sms: received.sms() };
  const alarms = (
    await db.query<{ id: string; esp_id: string; escalated: boolean }>(`SELECT id, esp_id, escalated FROM alarms`)
  ).rows;
  const rows = (
    await db.query<OutboxRow>(
      `SELECT alarm_id, event, channel, recipient_id, address, status, batch_id, message_id, last_error, handed_at,
              updated_at
       FROM notification_outbox ORDER BY id`,
    )
  ).rows;
  // An escalation goes to every admin; an all-zero subscriber number is a placeholder, not a phone.
  const admins: Recipient[] = (
    await db.query<{ id: string; email: string | null; phone_number: string | null }>(
      `SELECT id, email, phone_number FROM users WHERE role = 'admin' AND deleted_at IS NULL`,
    )
  ).rows.map((u) => ({
    userId: u.id,
    email: u.email ?? undefined,
    phone: u.phone_number && !/^\+\d{1,3}0+$/.test(u.phone_number) ? u.phone_number : undefined,
  }));
  // The daily report goes out through its own outbox once a run passes DAILY_REPORT_TIME (docs/alarms.md,
  // "Notifications"): each one the database calls sent must have arrived, and it is a queued message too.
  const reports = (
    await db.query<{ day: string; address: string; status: string; message_id: string }>(
      `SELECT to_char(day, 'YYYY-MM-DD') AS day, address, status, message_id FROM daily_reports`,
    )
  ).rows;
  const smsBatches = new Map<string, OutboxRow[]>();
  for (const r of rows) {
    if (r.channel === 'sms' && r.batch_id) smsBatches.set(r.batch_id, [...(smsBatches.get(r.batch_id) ?? []), r]);
  }
  const lines = await batchLines(db, [...smsBatches.keys()]);
  // Everything read above as sent has arrived by now.
  const after = { mails: received.mails(), sms: received.sms() };
  const earlierRun = (m: { receivedAt: Date }) => m.receivedAt.getTime() < expect.since;
  let stale = 0;

  const key = (alarmId: string, event: string, channel: string, userId: string) =>
    `${alarmId}/${event}/${channel}/${userId}`;
  const rowOf = new Map(rows.map((r) => [key(r.alarm_id, r.event, r.channel, r.recipient_id), r]));

  const owed: { key: string; alarmId: string; event: string; channel: 'email' | 'sms'; address: string }[] = [];
  for (const a of alarms) {
    const events: [string, Recipient[]][] = [['opened', expect.openingRecipients.get(a.esp_id) ?? []]];
    if (a.escalated) events.push(['escalated', admins]);
    for (const [event, people] of events) {
      for (const p of people) {
        if (p.email)
          owed.push({
            key: key(a.id, event, 'email', p.userId),
            alarmId: a.id,
            event,
            channel: 'email',
            address: p.email,
          });
        if (p.phone)
          owed.push({ key: key(a.id, event, 'sms', p.userId), alarmId: a.id, event, channel: 'sms', address: p.phone });
      }
    }
  }

  const lost: string[] = [];
  const lostInHandover: string[] = [];
  const duplicated: string[] = [];
  let delivered = 0;

  // Email: by Message-ID.
  const byId = (mails: CaughtMail[]) => {
    const out = new Map<string, CaughtMail[]>();
    for (const m of mails) out.set(m.messageId, [...(out.get(m.messageId) ?? []), m]);
    return out;
  };
  const mailsById = byId(after.mails);
  const knownIds = new Set(rows.filter((r) => r.channel === 'email' && r.message_id).map((r) => r.message_id!));
  for (const r of reports) {
    knownIds.add(r.message_id);
    const arrived = (mailsById.get(r.message_id) ?? []).some((m) => m.to.includes(r.address));
    if (r.status === 'sent' && !arrived) lost.push(`daily report ${r.day} to ${r.address}: sent, not received`);
  }
  for (const [id, copies] of byId(before.mails)) {
    if (knownIds.has(id)) continue;
    if (copies.every(earlierRun)) stale += copies.length;
    else duplicated.push(`email ${id} to ${copies[0]!.to.join(',')} ("${copies[0]!.subject}") is no queued message's`);
    // An email sent again after its sender died carries the same Message-ID: one message (docs/alarms.md).
  }

  // SMS: each sent batch's text, per number.
  /** (number, text) → the batches that should have produced it. */
  const wanted = new Map<string, string[]>();
  const smsTexts = new Map<string, string>();
  for (const [batchId, batchRows] of smsBatches) {
    const text = composeSms(lines.get(batchId) ?? [], expect.timezone);
    smsTexts.set(batchId, text);
    const k = `${batchRows[0]!.address}\n${text}`;
    wanted.set(k, [...(wanted.get(k) ?? []), batchId]);
  }
  // Alarm SMS only: the SMS API also carries the payers' M-Pesa receipts (docs/mobile-money.md, "Receipt by
  // SMS"), which payment-workload.ts counts.
  const alarmNumbers = new Set([
    ...owed.filter((o) => o.channel === 'sms').map((o) => o.address),
    ...rows.filter((r) => r.channel === 'sms').map((r) => r.address),
  ]);
  /** (number, text) → how many the SMS API took; what only the earlier run owed is left out and counted apart. */
  const counted = (sms: ReceivedSms[]) => {
    const got = new Map<string, number>();
    let earlier = 0;
    for (const m of sms.filter((x) => alarmNumbers.has(x.to))) {
      const k = `${m.to}\n${m.message}`;
      if (!wanted.has(k) && earlierRun(m)) earlier++;
      else got.set(k, (got.get(k) ?? 0) + 1);
    }
    return { got, earlier };
  };
  const smsBefore = counted(before.sms);
  stale += smsBefore.earlier;
  const gotBefore = smsBefore.got;
  const gotAfter = counted(after.sms).got;
  const undelivered = new Set<string>();
  for (const [k, batches] of wanted) {
    // Equal texts to one number (one machine and kind, the same minute) are told apart by count only.
    for (const b of batches.slice(gotAfter.get(k) ?? 0)) undelivered.add(b);
    const received = gotBefore.get(k) ?? 0;
    if (received > batches.length)
      duplicated.push(`SMS to ${k.replace('\n', ': "')}" received ${received} times, sent as ${batches.length}`);
  }
  for (const [k, n] of gotBefore) {
    if (!wanted.has(k)) duplicated.push(`SMS to ${k.replace('\n', ': "')}" (×${n}) is no queued message's`);
  }

  for (const o of owed) {
    const r = rowOf.get(o.key);
    const what = `${o.channel} of alarm ${o.alarmId} (${o.event}) to ${o.address}`;
    if (!r) {
      lost.push(`${what}: never queued`);
      continue;
    }
    if (r.address !== o.address) {
      lost.push(`${what}: queued to ${r.address}`);
      continue;
    }
    const arrived =
      o.channel === 'email'
        ? r.message_id !== null && (mailsById.get(r.message_id) ?? []).some((m) => m.to.includes(o.address))
        : r.batch_id !== null && !undelivered.has(r.batch_id);
    if (arrived) delivered++;
    else if (o.channel === 'sms' && unknownOutcome(r) && handedJustBeforeKill(r.handed_at, expect.workerKills))
      lostInHandover.push(`${what}: handed over at ${r.handed_at!.toISOString()}, the worker killed just after`);
    else if (o.channel === 'sms' && unknownOutcome(r) && cutJustBefore(r, expect.smsCuts))
      lostInHandover.push(`${what}: its request cut by the SMS API's stop, given up at ${r.updated_at.toISOString()}`);
    else
      lost.push(
        `${what}: ${r.status}${r.last_error ? ` (${r.last_error})` : ''}, not received` +
          (o.channel === 'sms' && r.batch_id ? smsEvidence(r, smsTexts.get(r.batch_id), after.sms) : ''),
      );
  }

  return {
    openings: alarms.length,
    escalations: alarms.filter((a) => a.escalated).length,
    expected: owed.length,
    delivered,
    lost,
    lostInHandover,
    duplicated,
    emailCopies: [...mailsById.values()].reduce((n, copies) => n + copies.length - 1, 0),
    outcomeUnknown: {
      email: rows.filter((r) => r.channel === 'email' && unknownOutcome(r)).length,
      sms: rows.filter((r) => r.channel === 'sms' && unknownOutcome(r)).length,
    },
    unsettled: rows.filter((r) => r.status === 'pending' || r.status === 'deferred').length,
    stale,
  };
}

/**
 * What a lost SMS's row says and what the SMS API took for its number around then, so that a failing run explains
 * itself: the batch's text as composed again here, its hand-over and last change, and the texts taken within a minute.
 */
function smsEvidence(r: OutboxRow, text: string | undefined, taken: ReceivedSms[]): string {
  const at = r.updated_at.getTime();
  const near = taken
    .filter((m) => m.to === r.address && Math.abs(m.receivedAt.getTime() - at) <= 60_000)
    .map((m) => `${m.receivedAt.toISOString()} "${m.message}"`);
  return (
    ` [batch ${r.batch_id}, text "${text ?? '?'}", handed ${r.handed_at?.toISOString() ?? 'never'},` +
    ` changed ${r.updated_at.toISOString()}; the SMS API took for ${r.address} within a minute: ` +
    `${near.length ? near.join(' | ') : 'nothing'}]`
  );
}

const handedJustBeforeKill = (handedAt: Date | null, kills: readonly number[]) =>
  handedAt !== null && kills.some((k) => k >= handedAt.getTime() && k - handedAt.getTime() <= HANDOVER_WINDOW_MS);

const cutJustBefore = (r: OutboxRow, cuts: readonly number[]) =>
  r.last_error?.includes('SMS API did not answer') === true &&
  cuts.some((c) => r.updated_at.getTime() >= c && r.updated_at.getTime() - c <= CUT_WINDOW_MS);

const unknownOutcome = (r: OutboxRow) => r.status === 'failed' && r.last_error?.startsWith('outcome unknown') === true;

/** The lines of each batch as the dispatcher read them when it claimed the batch (its rows, by id). */
async function batchLines(db: pg.Pool, batchIds: string[]): Promise<Map<string, BatchLine[]>> {
  const { rows } = await db.query<BatchLine & { batchId: string }>(
    `SELECT o.batch_id AS "batchId", o.id, o.event, n.esp_id AS "espId", n.kind, n.severity, n.opened_at AS "openedAt",
            n.location, n.details
     FROM notification_outbox o JOIN alarm_notices n ON n.alarm_id = o.alarm_id AND n.event = o.event
     WHERE o.batch_id = ANY($1::uuid[]) ORDER BY o.id`,
    [batchIds],
  );
  const out = new Map<string, BatchLine[]>();
  for (const { batchId, ...line } of rows) out.set(batchId, [...(out.get(batchId) ?? []), line]);
  return out;
}

/** Waits until no message is due or being sent and the telemetry that could open more is worked off. */
export async function waitNotificationsSettled(
  db: pg.Pool,
  telemetryBacklog: () => Promise<number>,
  timeoutMs: number,
): Promise<boolean> {
  const deadline = Date.now() + timeoutMs;
  let quietSince = 0;
  for (;;) {
    const [{ n }] = (
      await db.query<{ n: number }>(
        `SELECT count(*)::int AS n FROM notification_outbox WHERE status IN ('pending', 'deferred')`,
      )
    ).rows as [{ n: number }];
    const backlog = await telemetryBacklog().catch(() => 1);
    if (n === 0 && backlog === 0) {
      quietSince ||= Date.now();
      // Quiet for two dispatcher ticks: nothing more is on its way.
      if (Date.now() - quietSince >= 2_500) return true;
    } else quietSince = 0;
    if (Date.now() > deadline) return false;
    await new Promise((r) => setTimeout(r, 250));
  }
}
