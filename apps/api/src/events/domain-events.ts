import { Injectable } from '@nestjs/common';
import { EventEmitter } from 'node:events';
import type { Alarm, FloatRequestedEvent, FloatUpdatedEvent, PaymentUpdatedEvent } from '@wv/contracts';

/** A sale just committed (numeric columns as PostgreSQL returns them). */
export interface CommittedSale {
  id: string;
  espId: string;
  eventId: string;
  kind: 'coin' | 'card';
  price: string;
  volume: string;
  waterType: string;
  cardId: string | null;
  soldAt: Date;
  localDate: string;
  /** The machine's sale counter, when it sent one. */
  seq: number | null;
  /** Made while the machine was disconnected (sent later from its flash). */
  offline: boolean;
  /** Litres the flow meter measured, when the machine sent it (numeric text). */
  dispensed: string | null;
}

/** In-process domain events, emitted after the database commit that made them true. */
export interface DomainEventMap {
  'device.key-rotated': { espId: string };
  /** A MAC address joined the list of machines waiting for an ESP ID (sent live to admins). */
  'device.announced': { macAddress: string; at: string };
  'user.removed': { userId: string };
  'user.password-changed': { userId: string };
  'user.deactivated': { userId: string };
  /** A machine given to a user, or taken from users (its owner and attendant): their live rooms follow. */
  'user.device-assigned': { userId: string; espId: string };
  'user.device-unassigned': { userIds: string[]; espId: string };
  'sales.committed': { sales: CommittedSale[] };
  'machine.status': { espId: string; online: boolean; lastSeen: string };
  'config.applied': { espId: string; version: number };
  /** Cards whose status, balance or limit a machine's card list must reflect (docs/device-protocol.md, "Card lists"). */
  'cards.changed': { cardIds: string[] };
  'float.requested': { managerId: string; event: FloatRequestedEvent };
  'float.updated': { attendantId: string; managerId: string; event: FloatUpdatedEvent };
  /** docs/alarms.md: sent live to the machine's scope as `alarm.opened` / `alarm.updated`. */
  'alarm.opened': { alarm: Alarm };
  'alarm.updated': { alarm: Alarm };
  /** docs/live-events.md: sent live as `payment.updated` to the rooms of `espIds` and to admins. */
  'payment.updated': { event: PaymentUpdatedEvent; espIds: string[] };
}

@Injectable()
export class DomainEvents {
  private readonly emitter = new EventEmitter({ captureRejections: true });

  emit<K extends keyof DomainEventMap>(event: K, payload: DomainEventMap[K]): void {
    this.emitter.emit(event, payload);
  }

  on<K extends keyof DomainEventMap>(
    event: K,
    listener: (payload: DomainEventMap[K]) => void | Promise<void>,
  ): () => void {
    this.emitter.on(event, listener);
    return () => this.emitter.off(event, listener);
  }
}
