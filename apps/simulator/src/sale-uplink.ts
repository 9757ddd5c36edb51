import { buildSalesTopic, type Sale } from '@wv/contracts';
import type { MqttLink } from './mqtt-link.js';
import { Outbox, type OutboxEntry } from './outbox.js';
import type { Random } from './prng.js';

/** Duplicates are drawn from the last sales sent, as a retry bug in firmware would resend them. */
const RECENT_SALES = 32;
/** The contract accepts arrays of up to 1 000 sales. */
const MAX_BATCH = 1_000;

export interface SaleUplinkCounters {
  published: number;
  pubacked: number;
  acked: number;
  duplicatesSent: number;
  republished: number;
}

/**
 * The path of a sale from flash to the broker: the outbox, what to send when, and the counters.
 * Sales are sent while a connection is attached; a new connection replays the whole backlog.
 */
export class SaleUplink {
  readonly outbox: Outbox;
  readonly counters: SaleUplinkCounters = { published: 0, pubacked: 0, acked: 0, duplicatesSent: 0, republished: 0 };
  private readonly recent: Sale[] = [];
  private readonly batchSize: number;
  private link: MqttLink | null = null;
  private topic = '';

  constructor(
    private readonly rng: Random,
    options: { outboxLimit?: number; backlogBatchSize?: number },
    /** Told of every PUBACK: from then on the broker answers for these sales (fault tests use it). */
    private readonly onPuback: (eventIds: string[]) => void = () => undefined,
  ) {
    this.outbox = new Outbox(options.outboxLimit);
    this.batchSize = Math.max(1, Math.min(options.backlogBatchSize ?? 50, MAX_BATCH));
  }

  /** A connection is up and subscribed: nothing sent earlier is known to be committed, so resend all. */
  attach(link: MqttLink, espId: string): void {
    this.link = link;
    this.topic = buildSalesTopic(espId);
    this.counters.republished += this.outbox.requeueAll();
    this.flush();
  }

  detach(): void {
    this.link = null;
  }

  /** Writes the sale to flash and sends it when connected; returns the sale the full flash overwrote, if any. */
  add(sale: Sale): Sale | undefined {
    const overwritten = this.outbox.add(sale);
    this.flush();
    return overwritten;
  }

  /** Applies a sales/ack; returns how many sales left the outbox. */
  ack(eventIds: readonly string[]): number {
    const removed = this.outbox.ack(eventIds);
    this.counters.acked += removed;
    return removed;
  }

  /** Sends one recently sent sale again, same eventId; false when offline or nothing was sent yet. */
  sendDuplicate(): boolean {
    if (!this.link || !this.recent.length) return false;
    this.counters.duplicatesSent++;
    this.send(this.rng.pick(this.recent), []);
    return true;
  }

  /** The ack timeout: sales sent before `sentBefore` and still unacknowledged go out again. */
  resendStale(sentBefore: number): void {
    if (!this.link) return;
    this.counters.republished += this.outbox.requeueStale(sentBefore);
    this.flush();
  }

  /** Sends what this connection has not sent yet: a single sale alone, a backlog in arrays. */
  private flush(): void {
    if (!this.link) return;
    const pending = this.outbox.pending();
    if (!pending.length) return;
    for (let i = 0; i < pending.length; i += this.batchSize) {
      const chunk = pending.slice(i, i + this.batchSize);
      this.outbox.markSent(chunk, Date.now());
      this.send(chunk.length === 1 ? chunk[0]!.sale : chunk.map((e) => e.sale), chunk);
    }
    for (const e of pending) if (e.sends === 1) this.remember(e.sale);
  }

  private send(payload: Sale | Sale[], chunk: OutboxEntry[]): void {
    const n = Array.isArray(payload) ? payload.length : 1;
    this.counters.published += n;
    this.link!.publish(this.topic, JSON.stringify(payload)).then(
      () => {
        this.counters.pubacked += n;
        this.outbox.markDelivered(chunk);
        this.onPuback(Array.isArray(payload) ? payload.map((s) => s.eventId) : [payload.eventId]);
      },
      () => undefined, // The connection died before PUBACK: the next connection replays the backlog.
    );
  }

  private remember(sale: Sale): void {
    this.recent.push(sale);
    if (this.recent.length > RECENT_SALES) this.recent.shift();
  }
}
