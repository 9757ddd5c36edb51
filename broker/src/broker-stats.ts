/** Counters behind `stats()`: cheap increments on the hot path, a fresh snapshot on read. */
import type { BrokerStats, RefusalReason } from './broker.types.js';
import { REFUSAL_REASONS } from './refusal.js';

export class BrokerStatsRecorder {
  connectionsOpened = 0;
  connectionsAccepted = 0;
  connectionsCurrent = 0;
  publishesAccepted = 0;
  salesPersisted = 0;
  saleBatches = 0;
  failedSaleBatches = 0;
  private readonly refusals = new Map<RefusalReason, number>();

  refused(reason: RefusalReason): void {
    this.refusals.set(reason, (this.refusals.get(reason) ?? 0) + 1);
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
      },
    };
  }
}
