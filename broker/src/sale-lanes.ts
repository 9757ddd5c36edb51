import { SaleBatcher, type SaleBatcherOptions } from './sale-batcher.js';

/**
 * Publishes per backlog flush. A backlog publish is an array of dozens of sales (kilobytes each): flushes of a few
 * hundred kilobytes keep each Redis round trip short, so the live lane's flushes slip in between.
 */
const BACKFILL_BATCH = 16;

/**
 * Two batchers in front of `persistSales`: one for live sales and one for backlogs of sales made offline
 * (docs/architecture.md, "Backfill and live sales"). A machine back from hours offline publishes arrays of dozens of
 * sales; in one batcher they would share each flush with the live sales of every other machine and hold their PUBACKs
 * while megabytes are made durable. Here live sales never wait behind a backlog's flush, and backlogs take at most one
 * flush at a time, so a fleet coming back cannot fill every flight.
 */
export class SaleLanes<T> {
  private readonly live: SaleBatcher<T>;
  private readonly backfill: SaleBatcher<T>;

  constructor(
    options: SaleBatcherOptions<T>,
    private readonly isBackfill: (item: T) => boolean,
  ) {
    this.live = new SaleBatcher(options);
    this.backfill = new SaleBatcher({
      ...options,
      maxBatch: Math.min(options.maxBatch, BACKFILL_BATCH),
      maxInFlight: 1,
    });
  }

  get pendingCount(): number {
    return this.live.pendingCount + this.backfill.pendingCount;
  }

  get inFlightCount(): number {
    return this.live.inFlightCount + this.backfill.inFlightCount;
  }

  /** Resolves once the item's batch is persisted; rejects when that batch failed. */
  add(item: T): Promise<void> {
    return (this.isBackfill(item) ? this.backfill : this.live).add(item);
  }

  /** Stops taking items and resolves when both lanes are empty. */
  async drain(): Promise<void> {
    await Promise.all([this.live.drain(), this.backfill.drain()]);
  }

  /** Fails everything still waiting or in flight in both lanes. */
  abort(error: Error): void {
    this.live.abort(error);
    this.backfill.abort(error);
  }
}
