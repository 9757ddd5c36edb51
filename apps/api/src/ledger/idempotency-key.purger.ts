import { Injectable, Logger, OnApplicationBootstrap, OnModuleDestroy } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { IdempotencyRepository } from './idempotency.repository.js';

/** A client retries a money call within minutes; a week leaves room for a phone that was offline. */
export const IDEMPOTENCY_KEY_RETENTION_MS = 7 * 24 * 3600 * 1000;
const PURGE_EVERY_MS = 3600 * 1000;
const PURGE_BATCH = 10_000;

/**
 * Runs in the worker role: every hour, deletes idempotency keys older than the retention, in small
 * batches so that no statement holds many locks. Without it the table grows with every money call.
 */
@Injectable()
export class IdempotencyKeyPurger implements OnApplicationBootstrap, OnModuleDestroy {
  private readonly logger = new Logger('IdempotencyKeys');
  private timer?: NodeJS.Timeout;

  constructor(
    private readonly dataSource: DataSource,
    private readonly keys: IdempotencyRepository,
  ) {}

  onApplicationBootstrap(): void {
    this.timer = setInterval(() => {
      this.purge().catch((error: Error) => this.logger.warn(`Purge of old idempotency keys failed: ${error.message}`));
    }, PURGE_EVERY_MS);
    this.timer.unref();
  }

  onModuleDestroy(): void {
    clearInterval(this.timer);
  }

  /** Deletes every key older than the retention at `now`; returns how many. */
  async purge(now = new Date()): Promise<number> {
    const cutoff = new Date(now.getTime() - IDEMPOTENCY_KEY_RETENTION_MS);
    let total = 0;
    for (;;) {
      const deleted = await this.keys.purgeBefore(this.dataSource.manager, cutoff, PURGE_BATCH);
      total += deleted;
      if (deleted < PURGE_BATCH) break;
    }
    if (total > 0) this.logger.log(`Purged ${total} idempotency key(s) older than ${cutoff.toISOString()}`);
    return total;
  }
}
