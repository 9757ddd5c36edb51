import type { Random } from './prng.js';

export interface MachineTimersOptions {
  rng: Random;
  offlineProbability: number;
  offlineCheckMs: number;
  offlineDurationMs: readonly [number, number];
  /** 0 disables the ack timeout. */
  resendAfterMs: number;
  isOnline: () => boolean;
  goOffline: (durationMs: number) => void;
  resendStale: (sentBefore: number) => void;
}

/**
 * The machine's background chores: random outages and the sales/ack timeout. Every timer is owned
 * here so that `stop()` leaves nothing behind (Jest must exit on its own).
 */
export class MachineTimers {
  private readonly intervals: NodeJS.Timeout[] = [];
  private outageTimer: NodeJS.Timeout | null = null;
  private readonly timeouts = new Set<NodeJS.Timeout>();

  constructor(private readonly o: MachineTimersOptions) {}

  start(): void {
    if (this.intervals.length || this.outageTimer) return;
    if (this.o.offlineProbability > 0) {
      this.outageTimer = setInterval(() => this.maybeGoOffline(), this.o.offlineCheckMs);
    }
    if (this.o.resendAfterMs > 0) {
      const every = Math.max(250, Math.floor(this.o.resendAfterMs / 4));
      this.intervals.push(setInterval(() => this.o.resendStale(Date.now() - this.o.resendAfterMs), every));
    }
  }

  /** A one-shot timer that `stop()` cancels. */
  after(ms: number, fn: () => void): void {
    const t = setTimeout(() => {
      this.timeouts.delete(t);
      fn();
    }, ms);
    this.timeouts.add(t);
  }

  /** No more random outages, and pending comebacks are cancelled (the caller reconnects itself). */
  stopOutages(): void {
    if (this.outageTimer) clearInterval(this.outageTimer);
    this.outageTimer = null;
    for (const t of this.timeouts) clearTimeout(t);
    this.timeouts.clear();
  }

  stop(): void {
    this.stopOutages();
    for (const i of this.intervals) clearInterval(i);
    this.intervals.length = 0;
  }

  private maybeGoOffline(): void {
    if (!this.o.isOnline() || this.o.rng.next() >= this.o.offlineProbability) return;
    const [min, max] = this.o.offlineDurationMs;
    this.o.goOffline(min + this.o.rng.next() * (max - min));
  }
}
