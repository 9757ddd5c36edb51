/** Counters behind `stats()`: cheap increments on the hot path, a fresh snapshot on read. */
import type { BrokerStats, RefusalReason } from './broker.types.js';
import { REFUSAL_REASONS } from './refusal.js';

/**
 * Upper bounds (ms) of the buckets of a live sale's wait in the broker, from its PUBLISH being handed to the batcher
 * to its batch made durable; its PUBACK is written right after. Fine around the ingest target (a PUBACK p99 under
 * 100 ms, docs/performance.md), coarse beyond; the last bucket (+Inf) holds the rest.
 */
export const SALE_WAIT_BOUNDS_MS = [
  1, 2.5, 5, 7.5, 10, 15, 20, 30, 50, 75, 100, 150, 200, 300, 500, 1000, 2500, 5000, 10000,
] as const;

export class BrokerStatsRecorder {
  connectionsOpened = 0;
  connectionsAccepted = 0;
  connectionsCurrent = 0;
  publishesAccepted = 0;
  salesPersisted = 0;
  saleBatches = 0;
  failedSaleBatches = 0;
  private readonly refusals = new Map<RefusalReason, number>();
  /** Live sales per bucket of SALE_WAIT_BOUNDS_MS, and one more for longer waits. */
  private readonly saleWaitCounts: number[] = new Array<number>(SALE_WAIT_BOUNDS_MS.length + 1).fill(0);
  private saleWaitSumMs = 0;

  refused(reason: RefusalReason): void {
    this.refusals.set(reason, (this.refusals.get(reason) ?? 0) + 1);
  }

  /** A live sale made durable after waiting `ms` in the broker. */
  saleWaited(ms: number): void {
    let i = 0;
    while (i < SALE_WAIT_BOUNDS_MS.length && ms > SALE_WAIT_BOUNDS_MS[i]!) i++;
    this.saleWaitCounts[i]!++;
    this.saleWaitSumMs += ms;
  }

  batchFlushed(size: number, failed: boolean): void {
    this.saleBatches++;
    if (failed) this.failedSaleBatches++;
    else this.salesPersisted += size;
  }

  snapshot(sales: { pending: number; inFlight: number }): BrokerStats {
    const refusals = Object.fromEntries(REFUSAL_REASONS.map((r) => [r, this.refusals.get(r) ?? 0]));
    return {
      connections: {
        opened: this.connectionsOpened,
        accepted: this.connectionsAccepted,
        current: this.connectionsCurrent,
      },
      refusals: refusals as Record<RefusalReason, number>,
      publishes: { accepted: this.publishesAccepted },
      sales: {
        persisted: this.salesPersisted,
        batches: this.saleBatches,
        failedBatches: this.failedSaleBatches,
        ...sales,
        liveWait: {
          boundsMs: SALE_WAIT_BOUNDS_MS,
          counts: [...this.saleWaitCounts],
          sumMs: this.saleWaitSumMs,
        },
      },
    };
  }
}
