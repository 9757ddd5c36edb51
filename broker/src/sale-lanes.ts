import { BackfillPacer, type BackfillPacerOptions } from './backfill-pacer.js';
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
 * flush at a time, so a fleet coming back cannot fill every flight. That flush is paced by how long live sales wait
 * (`BackfillPacer`): a backlog may not take the CPU the live sales of other machines need.
 */
export class SaleLanes<T> {
  private readonly live: SaleBatcher<T>;
  private readonly backfill: SaleBatcher<T>;
  readonly pacer: BackfillPacer | null;

  /** `pacing`: how the backfill lane yields to live sales, and each item's weight (payload bytes); null: unpaced. */
  constructor(
    options: SaleBatcherOptions<T>,
    private readonly isBackfill: (item: T) => boolean,
    pacing: { options: BackfillPacerOptions; weigh: (item: T) => number } | null = null,
  ) {
    const pacer = pacing ? new BackfillPacer(pacing.options) : null;
    this.pacer = pacer;
    this.live = new SaleBatcher({
      ...options,
      onFlushed: (outcome) => {
        pacer?.observeLive(outcome.waitedMs);
        options.onFlushed?.(outcome);
      },
    });
    this.backfill = new SaleBatcher({
      ...options,
      // Backlogs wait on purpose (the pacer): their waits would hide the live sales' in the broker's figures.
      onItemPersisted: undefined,
      maxBatch: Math.min(options.maxBatch, BACKFILL_BATCH),
      maxInFlight: 1,
      persist: pacing
        ? async (batch) => {
            await pacer?.admit(batch.reduce((bytes, item) => bytes + pacing.weigh(item), 0));
            await options.persist(batch);
          }
        : options.persist,
    });
  }

  get pendingCount(): number {
    return this.live.pendingCount + this.backfill.pendingCount;
  }

  get inFlightCount(): number {
    return this.live.inFlightCount + this.backfill.inFlightCount;
  }

  /** Resolves once the item's batch is persisted; rejects when that batch failed. `onItemPersisted` sees live items only. */
  add(item: T): Promise<void> {
    return (this.isBackfill(item) ? this.backfill : this.live).add(item);
  }

  /** Stops taking items and resolves when both lanes are empty. */
  async drain(): Promise<void> {
    this.pacer?.stop();
    await Promise.all([this.live.drain(), this.backfill.drain()]);
  }

  /** Fails everything still waiting or in flight in both lanes. */
  abort(error: Error): void {
    this.pacer?.stop();
    this.live.abort(error);
    this.backfill.abort(error);
  }
}
