import { Inject, Injectable, OnModuleDestroy } from '@nestjs/common';
import { Queue } from 'bullmq';
import type { Redis } from 'ioredis';
import { APP_CONFIG, type AppConfig } from '../config/app-config.js';
import { bullPrefix, createQueueConnection, SALES_QUEUE } from '../queue/queue-connection.js';
import { IngestBackpressure, parseMemoryInfo } from './ingest-backpressure.js';
import type { RawSalesMessage, SalesIngestJob } from './sale-ingest.types.js';

/** Messages per job: a worker writes one job as one multi-row insert. */
const MESSAGES_PER_JOB = 250;

/**
 * BullMQ takes every job without a priority before any prioritized one, so a backlog of sales made
 * offline waits behind live sales instead of in front of them (docs/architecture.md, "Backfill and
 * live sales").
 */
export const BACKFILL_PRIORITY = 10;

/**
 * Whether a payload carries sales made offline. Only a look at the text: the broker never parses a
 * payload (the worker validates it); a wrong guess changes only which sales wait first, never what
 * is stored.
 */
export function isBackfill(payload: string): boolean {
  return /"offline"\s*:\s*true/.test(payload);
}

/**
 * Makes sales durable in Redis before they are acknowledged: one `addBulk` (one MULTI round trip)
 * per micro-batch of the broker, however many machines it holds.
 */
@Injectable()
export class SaleIngestQueue implements OnModuleDestroy {
  private readonly queue: Queue<SalesIngestJob>;
  private readonly connection: Redis;
  private readonly backpressure: IngestBackpressure;

  constructor(@Inject(APP_CONFIG) config: AppConfig) {
    this.connection = createQueueConnection(config, 'sales-queue');
    this.queue = new Queue<SalesIngestJob>(SALES_QUEUE, {
      connection: this.connection,
      prefix: bullPrefix(config),
      defaultJobOptions: {
        // Spent only by failures of the batch itself: an unavailable database holds the queue off
        // without taking attempts (see SaleIngestProcessor).
        attempts: config.salesRetry.attempts,
        backoff: { type: 'exponential', delay: config.salesRetry.delayMs },
        removeOnComplete: { count: 1000 },
        removeOnFail: false,
      },
    });
    this.backpressure = new IngestBackpressure(async () => {
      const [backlog, info] = await Promise.all([this.depth(), this.connection.info('memory')]);
      return { backlog, ...parseMemoryInfo(info) };
    }, config.ingestMaxBacklog);
  }

  /** Throws IngestBacklogFull (nothing queued) while the backlog or Redis memory is past its bound. */
  async enqueue(messages: RawSalesMessage[]): Promise<void> {
    if (messages.length === 0) return;
    this.backpressure.assertOpen();
    const live = messages.filter((m) => !isBackfill(m.payload));
    const backfill = messages.filter((m) => isBackfill(m.payload));
    const jobs = [];
    for (const [group, opts] of [
      [live, undefined],
      [backfill, { priority: BACKFILL_PRIORITY }],
    ] as const) {
      for (let i = 0; i < group.length; i += MESSAGES_PER_JOB) {
        jobs.push({ name: 'batch', data: { messages: group.slice(i, i + MESSAGES_PER_JOB) }, opts });
      }
    }
    await this.queue.addBulk(jobs);
  }

  /** Workers take no job for `ms` (the queue's rate limiter); used while PostgreSQL is unreachable. */
  async holdOff(ms: number): Promise<void> {
    await this.queue.rateLimit(ms);
  }

  async depth(): Promise<number> {
    const counts = await this.queue.getJobCounts('waiting', 'active', 'delayed', 'prioritized');
    return Object.values(counts).reduce((a, b) => a + b, 0);
  }

  async onModuleDestroy(): Promise<void> {
    await this.queue.close();
    // BullMQ leaves a connection it was given open.
    await this.connection.quit().catch(() => undefined);
  }
}
