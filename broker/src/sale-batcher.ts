/**
 * Groups sale publishes into few `persistSales` calls (docs/operations.md, "Toolchain notes": one round trip per sale
 * caps ingest at a few thousand per second; batches of hundreds reach tens of thousands).
 *
 * A batch leaves when `maxBatch` items wait, when the first waiting item has lingered `lingerMs`
 * with nothing in flight, or as soon as the previous flush finishes: whatever arrived during a flight
 * goes out together in the next one, so batches grow by themselves when the database slows down.
 * With `idleLingerMs` set, the linger follows the flow: an item that arrives after a quiet spell
 * (nothing added for `lingerMs`) lingers `idleLingerMs` (with 0, it leaves at the end of the event
 * loop's turn, with the items of that turn); while items keep coming, the first of a batch waits for
 * about `COMPANY` more at the recent pace, at most `lingerMs`. A trickle of a few hundred a second then
 * makes batches of several items, while a fast flow, whose batches grow during the flights anyway,
 * waits a millisecond or so.
 */
export interface SaleBatcherOptions<T> {
  persist: (batch: T[]) => Promise<void>;
  maxBatch: number;
  /** How long the first waiting item waits for company; with `idleLingerMs`, the most it waits. */
  lingerMs: number;
  /**
   * Makes the linger follow the flow: how long an item waits that came after a quiet spell. 0 waits for
   * no timer: the batch leaves when the turn's I/O is handled (`setImmediate`). Unset: always `lingerMs`.
   */
  idleLingerMs?: number;
  /** Batches that may be persisted at once. */
  maxInFlight: number;
  /**
   * Of those, how many may be partial (fewer than `maxBatch` items); default `maxInFlight`. With 1, a partial
   * batch waits for every flight to land, so batches grow with the load, while full batches still go out beside
   * the flights: when more than a batch arrives per flight, the backlog leaves in parallel instead of one
   * batch per round trip.
   */
  maxPartialInFlight?: number;
  /** A flush not settled by then fails; 0 waits forever. */
  timeoutMs: number;
  /** `waitedMs`: how long the batch's oldest item waited from `add` until its flush landed. */
  onFlushed?: (outcome: { size: number; durationMs: number; waitedMs: number; error?: unknown }) => void;
  /** Each item of a batch that was persisted, with how long it waited from `add` until then. */
  onItemPersisted?: (waitedMs: number) => void;
}

interface Waiter<T> {
  item: T;
  addedAt: number;
  resolve: () => void;
  reject: (error: Error) => void;
}

/**
 * How sales are flushed to durable storage before their PUBACK, by the embedded broker and by the external-MQTT
 * consumer alike: up to 500 sales a flush; one partial batch at a time, so that batches grow with the load, and
 * up to four full ones at once, so that the rate is not one batch per round trip. A sale on an idle queue
 * leaves at once (with the sales of its turn); while sales keep coming (one within 10 ms of the last), the first
 * of a batch waits for about eight more at the recent pace, at most 10 ms, so that a steady trickle, such as a
 * fleet reconnecting, makes batches of several sales instead of one each (docs/architecture.md, "The path of
 * a sale").
 */
export const SALE_FLUSH = {
  maxBatch: 500,
  lingerMs: 10,
  idleLingerMs: 0,
  maxInFlight: 4,
  maxPartialInFlight: 1,
} as const;

/** With a linger that follows the flow, how many more items the first of a batch waits for, at the recent pace. */
export const COMPANY = 8;
/** Weight of the newest gap between two items in their running average. */
const GAP_WEIGHT = 0.25;

export class SaleBatcher<T> {
  private pending: Waiter<T>[] = [];
  private flights = new Set<Waiter<T>[]>();
  /** Cancels the waiting batch's linger; null when none runs. */
  private cancelLinger: (() => void) | null = null;
  /** When the latest item was added: the gap before the next one tells a quiet spell from a steady flow. */
  private lastAddedAt = Number.NEGATIVE_INFINITY;
  /** Running average of the gaps between items that kept coming (ms); null after a quiet spell. */
  private gapMs: number | null = null;
  private idleWaiters: Array<() => void> = [];
  private closed = false;

  private readonly options: Required<Omit<SaleBatcherOptions<T>, 'onFlushed' | 'onItemPersisted' | 'idleLingerMs'>> &
    Pick<SaleBatcherOptions<T>, 'onFlushed' | 'onItemPersisted' | 'idleLingerMs'>;

  constructor(options: SaleBatcherOptions<T>) {
    const maxInFlight = Math.max(1, options.maxInFlight);
    this.options = {
      ...options,
      maxBatch: Math.max(1, options.maxBatch),
      maxInFlight,
      maxPartialInFlight: Math.min(maxInFlight, Math.max(1, options.maxPartialInFlight ?? maxInFlight)),
    };
  }

  get pendingCount(): number {
    return this.pending.length;
  }

  get inFlightCount(): number {
    let n = 0;
    for (const flight of this.flights) n += flight.length;
    return n;
  }

  /** Resolves once the item's batch is persisted; rejects when that batch failed. */
  add(item: T): Promise<void> {
    if (this.closed) return Promise.reject(new Error('sale batcher is closed'));
    return new Promise<void>((resolve, reject) => {
      const now = Date.now();
      const gap = now - this.lastAddedAt;
      const quiet = gap >= this.options.lingerMs;
      this.gapMs = quiet ? null : this.gapMs === null ? gap : this.gapMs + GAP_WEIGHT * (gap - this.gapMs);
      this.lastAddedAt = now;
      this.pending.push({ item, addedAt: now, resolve, reject });
      this.schedule(quiet);
    });
  }

  /** Stops taking items, flushes what waits without lingering, and resolves when nothing is left. */
  drain(): Promise<void> {
    this.closed = true;
    this.clearLinger();
    this.flushWhileRoom();
    return this.idle();
  }

  /** Fails everything still waiting or in flight (their PUBACKs will never be sent). */
  abort(error: Error): void {
    this.closed = true;
    this.clearLinger();
    const waiters = [...this.pending, ...[...this.flights].flat()];
    this.pending = [];
    this.flights.clear();
    for (const waiter of waiters) waiter.reject(error);
    this.notifyIdle();
  }

  private idle(): Promise<void> {
    if (this.pending.length === 0 && this.flights.size === 0) return Promise.resolve();
    return new Promise((resolve) => this.idleWaiters.push(resolve));
  }

  /** `quiet`: the newest item came after a quiet spell. */
  private schedule(quiet: boolean): void {
    const { maxBatch, maxInFlight, lingerMs, idleLingerMs } = this.options;
    while (this.pending.length >= maxBatch && this.flights.size < maxInFlight) this.flush();
    if (this.pending.length === 0 || this.flights.size > 0 || this.cancelLinger) return;
    const lingered = () => {
      this.cancelLinger = null;
      if (this.flights.size === 0 && this.pending.length > 0) this.flush();
    };
    // Unset, the linger is fixed: `lingerMs` on a timer, as the worker's writes use it.
    const adaptive = idleLingerMs !== undefined;
    const wait = !adaptive ? lingerMs : quiet ? idleLingerMs : Math.min(lingerMs, COMPANY * (this.gapMs ?? 0));
    if (adaptive && wait === 0) {
      const immediate = setImmediate(lingered);
      this.cancelLinger = () => clearImmediate(immediate);
    } else {
      const timer = setTimeout(lingered, wait);
      this.cancelLinger = () => clearTimeout(timer);
    }
  }

  private flush(): void {
    const batch = this.pending.splice(0, this.options.maxBatch);
    if (this.pending.length === 0) this.clearLinger();
    this.flights.add(batch);
    const started = Date.now();
    // Called inside a promise executor so that a synchronous throw fails the batch like a rejection.
    const persisted = new Promise<void>((resolve) => resolve(this.options.persist(batch.map((w) => w.item))));
    withTimeout(persisted, this.options.timeoutMs).then(
      () => this.land(batch, started),
      (error: unknown) => this.land(batch, started, error),
    );
  }

  private land(batch: Waiter<T>[], started: number, error?: unknown): void {
    // An aborted flight was already failed; a late answer from the database must not settle it twice.
    if (!this.flights.delete(batch)) return;
    const now = Date.now();
    const waitedMs = now - (batch[0]?.addedAt ?? started);
    this.options.onFlushed?.({ size: batch.length, durationMs: now - started, waitedMs, error });
    const failure = error instanceof Error ? error : new Error(`persistSales failed: ${String(error)}`);
    const { onItemPersisted } = this.options;
    for (const waiter of batch) {
      if (error === undefined) {
        onItemPersisted?.(now - waiter.addedAt);
        waiter.resolve();
      } else waiter.reject(failure);
    }
    // What arrived during the flight has already waited long enough: send it now, unlingered.
    this.flushWhileRoom();
    this.notifyIdle();
  }

  /** Flushes full batches while a flight is free, and then a partial one if a partial flight is free. */
  private flushWhileRoom(): void {
    const { maxBatch, maxInFlight, maxPartialInFlight } = this.options;
    while (this.pending.length > 0) {
      const limit = this.pending.length >= maxBatch ? maxInFlight : maxPartialInFlight;
      if (this.flights.size >= limit) return;
      this.flush();
    }
  }

  private notifyIdle(): void {
    if (this.pending.length > 0 || this.flights.size > 0) return;
    const waiters = this.idleWaiters;
    this.idleWaiters = [];
    for (const resolve of waiters) resolve();
  }

  private clearLinger(): void {
    this.cancelLinger?.();
    this.cancelLinger = null;
  }
}

/** Bounds how long a flush may take: without a PUBACK the device redelivers, and dedup absorbs a late commit. */
function withTimeout(promise: Promise<void>, timeoutMs: number): Promise<void> {
  if (timeoutMs <= 0) return promise;
  return new Promise<void>((resolve, reject) => {
    // unref: a hung database must not keep a closing process alive
    const timer = setTimeout(() => reject(new Error(`persistSales timed out after ${timeoutMs} ms`)), timeoutMs);
    timer.unref();
    promise.then(
      () => {
        clearTimeout(timer);
        resolve();
      },
      (error: unknown) => {
        clearTimeout(timer);
        reject(error);
      },
    );
  });
}
