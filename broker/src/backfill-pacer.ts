/**
 * Paces the backfill lane by how long live sales wait for their PUBACK (docs/architecture.md, "Backfill and live
 * sales"). A fleet back from an outage can offer its backlog faster than one machine can store it beside the live
 * sales; unpaced, the backlog takes the CPU that the live sales of other machines need, and their PUBACKs slow down.
 * A returning machine sends its next array only after the PUBACK of the previous one, so holding the backlog's flushes
 * slows the whole backlog down at its source: the broker's parsing, Redis, the worker and PostgreSQL alike.
 *
 * The pace is multiplicative-increase, multiplicative-decrease on the backlog's payload bytes per second, decided once
 * per window: when more than `slowShare` of the window's live flushes made their oldest sale wait more than `targetMs`
 * (a lone pause of the garbage collector is not a trend), the rate halves, from what the backlog actually got if it was
 * unpaced; otherwise it grows by half, and past `maxBytesPerSecond` the lane is unpaced again. Without live sales
 * nothing waits, so a backlog alone goes as fast as it can. The rate never falls below `minBytesPerSecond` and a pause
 * never exceeds `maxPauseMs`, so a backlog always drains, however busy the live lane stays.
 *
 * A backlog that starts while live sales flow starts at `startBytesPerSecond` and grows from there, as TCP's slow
 * start does: started unpaced, a thousand machines that came back together flushed their first arrays all at once,
 * and the live sales of that first window paid for it before the pacer could react.
 */
export interface BackfillPacerOptions {
  /** The live wait above which the backlog yields. */
  targetMs: number;
  /** The share of a window's live flushes that may wait longer than `targetMs`. */
  slowShare: number;
  windowMs: number;
  /** The rate is never cut below this (payload bytes per second). */
  minBytesPerSecond: number;
  /** Above this the lane is unpaced. */
  maxBytesPerSecond: number;
  /** The longest one flush of the backlog is held. */
  maxPauseMs: number;
  /** Where a backlog that starts beside live sales begins. */
  startBytesPerSecond: number;
  /** A backlog lane idle this long starts again from `startBytesPerSecond`; live sales seen this recently count. */
  idleMs: number;
  now?: () => number;
  sleep?: (ms: number) => Promise<void>;
}

export const DEFAULT_BACKFILL_PACING: BackfillPacerOptions = {
  targetMs: 25,
  slowShare: 0.05,
  windowMs: 500,
  // About 2,000 sales a second of a backlog's compact arrays: 120,000 sales in a minute.
  minBytesPerSecond: 160 * 1024,
  maxBytesPerSecond: 64 * 1024 * 1024,
  maxPauseMs: 1000,
  startBytesPerSecond: 160 * 1024,
  idleMs: 5000,
};

export class BackfillPacer {
  /** Payload bytes per second the backlog may take; Infinity while unpaced. */
  private rate = Infinity;
  private windowStart: number;
  private windowFlushes = 0;
  private windowSlow = 0;
  private windowBytes = 0;
  private nextStart = 0;
  private stopped = false;
  private lastLiveAt = -Infinity;
  private lastBackfillAt = -Infinity;
  private readonly now: () => number;
  private readonly sleep: (ms: number) => Promise<void>;

  constructor(private readonly options: BackfillPacerOptions) {
    this.now = options.now ?? (() => performance.now());
    this.sleep = options.sleep ?? ((ms) => new Promise((resolve) => setTimeout(resolve, ms)));
    this.windowStart = this.now();
  }

  /** Bytes per second the backlog may take now (Infinity: unpaced). */
  get bytesPerSecond(): number {
    this.roll();
    return this.rate;
  }

  /** A live flush landed; its oldest sale had waited `waitedMs` for it. */
  observeLive(waitedMs: number): void {
    this.roll();
    this.lastLiveAt = this.now();
    this.windowFlushes++;
    if (waitedMs > this.options.targetMs) this.windowSlow++;
  }

  /** Resolves when a backlog flush of `bytes` may start. */
  async admit(bytes: number): Promise<void> {
    this.roll();
    const now = this.now();
    const { idleMs, startBytesPerSecond } = this.options;
    if (now - this.lastBackfillAt > idleMs && now - this.lastLiveAt < idleMs && this.rate > startBytesPerSecond) {
      this.rate = startBytesPerSecond;
      this.nextStart = now;
    }
    this.lastBackfillAt = now;
    this.windowBytes += bytes;
    if (this.stopped || this.rate === Infinity) return;
    const start = Math.max(now, this.nextStart);
    this.nextStart = start + (bytes / this.rate) * 1000;
    const pause = Math.min(start - now, this.options.maxPauseMs);
    if (pause > 0) await this.sleep(pause);
  }

  /** No more pauses: a closing broker flushes what it holds at once. */
  stop(): void {
    this.stopped = true;
  }

  private roll(): void {
    const { windowMs, slowShare, minBytesPerSecond, maxBytesPerSecond } = this.options;
    const now = this.now();
    if (now - this.windowStart < windowMs) return;
    const elapsed = now - this.windowStart;
    if (this.windowSlow > this.windowFlushes * slowShare) {
      // From what the backlog got in this window when it was unpaced: halving Infinity would change nothing.
      const got = (this.windowBytes / elapsed) * 1000;
      const from = this.rate === Infinity ? got : Math.min(this.rate, Math.max(got, minBytesPerSecond));
      this.rate = Math.max(minBytesPerSecond, from / 2);
    } else if (this.rate !== Infinity) {
      this.rate *= 1.5;
      if (this.rate > maxBytesPerSecond) this.rate = Infinity;
    }
    if (this.rate === Infinity) this.nextStart = 0;
    // Windows with nothing in them (an idle broker) count as one: their silence says the live lane is fine.
    this.windowStart = now;
    this.windowFlushes = 0;
    this.windowSlow = 0;
    this.windowBytes = 0;
  }
}
