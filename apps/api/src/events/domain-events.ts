import { Injectable } from '@nestjs/common';
import { EventEmitter } from 'node:events';
import type { FloatRequestedEvent, FloatUpdatedEvent } from '@wv/contracts';

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
}

/** In-process domain events, emitted after the database commit that made them true. */
export interface DomainEventMap {
  'device.key-rotated': { espId: string };
  'user.removed': { userId: string };
  'user.password-changed': { userId: string };
  'sales.committed': { sales: CommittedSale[] };
  'machine.status': { espId: string; online: boolean; lastSeen: string };
  'config.applied': { espId: string; version: number };
  'float.requested': { managerId: string; event: FloatRequestedEvent };
  'float.updated': { attendantId: string; managerId: string; event: FloatUpdatedEvent };
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
