/**
 * The port between the alarm engine and the notifications (docs/alarms.md, "Notifications"). A leaf
 * folder, so that the alarm module can use the notification module without either importing the
 * other's files: the alarm engine calls `enqueue` inside the transaction that opens or escalates an
 * alarm, and the notification module implements it by writing its durable outbox in that same
 * transaction. An opening that commits therefore always has its messages queued, and one that rolls
 * back has none.
 */
import type { EntityManager } from 'typeorm';

export type AlarmSeverity = 'critical' | 'major' | 'minor';

/** What a message about an alarm needs to say, and to whom it may go. */
export interface AlarmNotice {
  /** `opened`: the owner manager and the machine's attendant; `escalated`: every admin. */
  event: 'opened' | 'escalated';
  alarmId: string;
  espId: string;
  kind: string;
  severity: AlarmSeverity;
  openedAt: Date;
  details: Record<string, unknown>;
  /** The machine's location, for the message text. */
  location: string | null;
  ownerId: string | null;
  attendantId: string | null;
}

/** One delivery of one message, as `GET /alarms/{id}` lists it. */
export interface AlarmDelivery {
  channel: 'email' | 'sms';
  to: string;
  status: 'pending' | 'sent' | 'failed' | 'deferred';
  attempts: number;
  at: string;
}

export interface AlarmNotifier {
  /** Queues the messages of an alarm event in the caller's transaction (`manager`). */
  enqueue(manager: EntityManager, notices: AlarmNotice[]): Promise<void>;
  /** The deliveries queued for an alarm, oldest first. */
  deliveries(alarmId: string): Promise<AlarmDelivery[]>;
}

export const ALARM_NOTIFIER = Symbol('ALARM_NOTIFIER');
