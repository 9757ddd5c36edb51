import { Injectable, type OnApplicationShutdown } from '@nestjs/common';
import { CONNECTION_WORK_LINGER_MS, KeyedBatch } from '../common/keyed-batch.js';
import { SequenceRepository } from './sequence.repository.js';

/**
 * What the broker role records of a machine's status payload: the sales it still holds in flash. Every machine of a
 * reconnect storm reports it (docs/device-protocol.md, "Boot, offline and reconnect"), so the reports are written
 * in batches, the newest of each machine winning (docs/architecture.md, "Connections"); a failed batch is tried
 * again unless a newer report replaced it.
 */
@Injectable()
export class SequenceRecords implements OnApplicationShutdown {
  private readonly queued = new KeyedBatch<string, number>((batch) => this.sequences.setQueued(batch), {
    lingerMs: CONNECTION_WORK_LINGER_MS,
    maxBatch: 1000,
    retryMs: 500,
  });

  constructor(private readonly sequences: SequenceRepository) {}

  async setQueued(espId: string, queued: number): Promise<void> {
    await this.queued.add(espId, queued);
  }

  /** Writes what waits now (the broker role calls this after its broker closed, before the database pool closes). */
  async drain(): Promise<void> {
    await this.queued.drain().catch(() => undefined);
  }

  onApplicationShutdown(): void {
    this.queued.close();
  }
}
