import type { Random } from './prng.js';

export interface SaleSchedulerOptions {
  rng: Random;
  /** Sales per second right now (it may follow the day curve). */
  rate: () => number;
  onSale: () => void;
}

/** While the rate is 0, look again this often: the day curve or `setRate` may raise it. */
const IDLE_RECHECK_MS = 1_000;
/** After an event-loop stall, at most this many sales are caught up at once. */
const MAX_BURST = 1_000;

/**
 * Poisson arrivals: exponential gaps at the current rate. Arrival times are absolute, and every
 * timer tick emits all the sales that fell due, so rates above 1 000/s per machine (timers fire
 * at best every millisecond) still come out right on average.
 */
export class SaleScheduler {
  private timer: NodeJS.Timeout | null = null;
  private nextAt = 0;

  constructor(private readonly options: SaleSchedulerOptions) {}

  get running(): boolean {
    return this.timer !== null;
  }

  start(): void {
    this.stop();
    this.nextAt = this.drawNext(Date.now());
    this.arm();
  }

  stop(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
  }

  private drawNext(from: number): number {
    const rate = this.options.rate();
    return rate > 0 ? from + this.options.rng.exponential(rate) * 1000 : Number.POSITIVE_INFINITY;
  }

  private arm(): void {
    const now = Date.now();
    const delay = Number.isFinite(this.nextAt) ? Math.max(0, this.nextAt - now) : IDLE_RECHECK_MS;
    this.timer = setTimeout(() => this.tick(), Math.min(delay, IDLE_RECHECK_MS));
  }

  private tick(): void {
    const now = Date.now();
    if (!Number.isFinite(this.nextAt)) this.nextAt = this.drawNext(now);
    let burst = 0;
    while (this.nextAt <= now && burst < MAX_BURST) {
      this.options.onSale();
      burst++;
      this.nextAt = this.drawNext(this.nextAt);
    }
    if (burst === MAX_BURST) this.nextAt = this.drawNext(now);
    // onSale may have stopped us (e.g. the machine was stopped from a listener).
    if (this.timer) this.arm();
  }
}
