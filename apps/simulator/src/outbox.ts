import type { Sale } from '@wv/contracts';

/**
 * - `pending`: not yet sent on the current connection;
 * - `sent`: published, PUBACK not yet seen;
 * - `delivered`: the broker PUBACKed it; still kept until the server's sales/ack says it is committed.
 */
export type OutboxState = 'pending' | 'sent' | 'delivered';

export interface OutboxEntry {
  readonly sale: Sale;
  state: OutboxState;
  sends: number;
  lastSentAt: number;
}

/**
 * The firmware's flash queue: every sale stays here until a sales/ack names its eventId (docs/device-protocol.md,
 * "Acknowledgements and durability": a machine keeps a sale in flash until it sees this). Insertion order is sale
 * order, so a backlog is replayed oldest first. Flash is finite: past `limit` the oldest sale is overwritten, as a ring
 * buffer in firmware would do.
 */
export class Outbox {
  private readonly entries = new Map<string, OutboxEntry>();
  /** Kept apart so that sending one live sale never scans a large backlog awaiting its sales/ack. */
  private readonly toSend = new Set<OutboxEntry>();
  private droppedCount = 0;

  constructor(private readonly limit = 100_000) {}

  get size(): number {
    return this.entries.size;
  }

  get dropped(): number {
    return this.droppedCount;
  }

  /** Adds a sale; returns the oldest sale when the flash was full and it was overwritten. */
  add(sale: Sale): Sale | undefined {
    let overwritten: Sale | undefined;
    if (this.entries.size >= this.limit && !this.entries.has(sale.eventId)) {
      const oldest = this.entries.values().next().value as OutboxEntry;
      this.entries.delete(oldest.sale.eventId);
      this.toSend.delete(oldest);
      this.droppedCount++;
      overwritten = oldest.sale;
    }
    const previous = this.entries.get(sale.eventId);
    if (previous) this.toSend.delete(previous);
    const entry: OutboxEntry = { sale, state: 'pending', sends: 0, lastSentAt: 0 };
    this.entries.set(sale.eventId, entry);
    this.toSend.add(entry);
    return overwritten;
  }

  has(eventId: string): boolean {
    return this.entries.has(eventId);
  }

  get(eventId: string): OutboxEntry | undefined {
    return this.entries.get(eventId);
  }

  /** Removes the acknowledged sales; returns how many were still here (acks may repeat). */
  ack(eventIds: readonly string[]): number {
    let removed = 0;
    for (const id of eventIds) {
      const entry = this.entries.get(id);
      if (!entry) continue;
      this.entries.delete(id);
      this.toSend.delete(entry);
      removed++;
    }
    return removed;
  }

  /** The sales to send now, oldest first. */
  pending(): OutboxEntry[] {
    return [...this.toSend];
  }

  /** After a reconnect nothing sent before is known to be committed: send the whole backlog again. */
  requeueAll(): number {
    let n = 0;
    this.toSend.clear();
    for (const e of this.entries.values()) {
      if (e.state !== 'pending') n++;
      e.state = 'pending';
      this.toSend.add(e);
    }
    return n;
  }

  /** Requeues sales sent before `sentBefore` (epoch ms) whose sales/ack never came; returns how many. */
  requeueStale(sentBefore: number): number {
    let n = 0;
    for (const e of this.entries.values()) {
      if (e.state !== 'pending' && e.lastSentAt < sentBefore) {
        e.state = 'pending';
        this.toSend.add(e);
        n++;
      }
    }
    return n;
  }

  markSent(entries: readonly OutboxEntry[], now: number): void {
    for (const e of entries) {
      e.state = 'sent';
      this.toSend.delete(e);
      e.sends++;
      e.lastSentAt = now;
    }
  }

  /** Marks PUBACKed entries that are still in the outbox; returns how many. */
  markDelivered(entries: readonly OutboxEntry[]): number {
    let n = 0;
    for (const e of entries) {
      if (this.entries.get(e.sale.eventId) === e && e.state === 'sent') {
        e.state = 'delivered';
        n++;
      }
    }
    return n;
  }
}
