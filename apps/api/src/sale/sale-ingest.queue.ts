import { carriesOfflineSales } from '@wv/contracts';
import { Inject, Injectable, OnModuleDestroy } from '@nestjs/common';
import { Queue } from 'bullmq';
import type { Redis } from 'ioredis';
import { APP_CONFIG, type AppConfig } from '../config/app-config.js';
import { bullPrefix, createQueueConnection, SALES_QUEUE } from '../queue/queue-connection.js';
import { masterNodes } from '../redis/redis-connection.js';
import { IngestBackpressure, parseMemoryInfo } from './ingest-backpressure.js';
import type { RawSalesMessage, SalesIngestJob } from './sale-ingest.types.js';

const NO_LIMIT = { usedMemory: 0, maxMemory: 0 };

/** Messages per job: a worker writes one job as one multi-row insert. */
const MESSAGES_PER_JOB = 250;
/**
 * Payload characters per job (about 600 sales). A backlog arrives in arrays of up to 1000 sales, and 250
 * such messages made one job of tens of thousands of sales: one transaction of seconds that kept a
 * worker's slot from the live sales queued behind it. Capped by size, a backfill job takes about as
 * long as a full live one, so a live job waits at most that long for a slot (docs/architecture.md,
 * "Backfill and live sales").
 */
const CHARS_PER_JOB = 128 * 1024;

/**
 * BullMQ takes every job without a priority before any prioritized one, so a backlog of sales made
 * offline waits behind live sales instead of in front of them (docs/architecture.md, "Backfill and
 * live sales").
 */
export const BACKFILL_PRIORITY = 10;

/**
 * Cuts messages into jobs of at most `maxMessages` messages and `maxChars` payload characters, in
 * order; a message larger than `maxChars` is a job of its own.
 */
export function packJobs<T extends { payload: string }>(
  messages: T[],
  maxMessages = MESSAGES_PER_JOB,
  maxChars = CHARS_PER_JOB,
): T[][] {
  const jobs: T[][] = [];
  let job: T[] = [];
  let chars = 0;
  for (const message of messages) {
    if (job.length > 0 && (job.length >= maxMessages || chars + message.payload.length > maxChars)) {
      jobs.push(job);
      job = [];
      chars = 0;
    }
    job.push(message);
    chars += message.payload.length;
  }
  if (job.length > 0) jobs.push(job);
  return jobs;
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
      prefix: bullPrefix(config, SALES_QUEUE),
      defaultJobOptions: {
        // Spent only by failures of the batch itself: an unavailable database holds the queue off
        // without taking attempts (see SaleIngestProcessor).
        attempts: config.salesRetry.attempts,
        backoff: { type: 'exponential', delay: config.salesRetry.delayMs },
        // A stored job is of no further use (its sales are in PostgreSQL): deleted at once, instead of
        // trimming a list of the last thousand at every completion (docs/performance.md).
        removeOnComplete: true,
        removeOnFail: false,
      },
    });
    this.backpressure = new IngestBackpressure(async () => {
      // Over a Redis Cluster every master is asked and the fullest counts (docs/redis-cluster.md).
      const [backlog, infos] = await Promise.all([
        this.depth(),
        Promise.all(masterNodes(this.connection).map((node) => node.info('memory'))),
      ]);
      const fill = (m: { usedMemory: number; maxMemory: number }) => (m.maxMemory > 0 ? m.usedMemory / m.maxMemory : 0);
      const memory = infos.map(parseMemoryInfo).reduce((a, b) => (fill(b) >= fill(a) ? b : a), NO_LIMIT);
      return { backlog, ...memory };
    }, config.ingestMaxBacklog);
  }

  /** Throws IngestBacklogFull (nothing queued) while the backlog or Redis memory is past its bound. */
  async enqueue(messages: RawSalesMessage[]): Promise<void> {
    if (messages.length === 0) return;
    this.backpressure.assertOpen();
    const live: RawSalesMessage[] = [];
    const backfill: RawSalesMessage[] = [];
    for (const m of messages) (carriesOfflineSales(m.payload) ? backfill : live).push(m);
    await this.queue.addBulk([
      ...packJobs(live).map((group) => ({ name: 'batch', data: { messages: group } })),
      ...packJobs(backfill).map((group) => ({
        name: 'batch',
        data: { messages: group },
        opts: { priority: BACKFILL_PRIORITY },
      })),
    ]);
  }

  /** Workers take no job for `ms` (the queue's rate limiter); used while PostgreSQL is unreachable. */
  async holdOff(ms: number): Promise<void> {
    await this.queue.rateLimit(ms);
  }

  /**
   * Lets the oldest backfill job go next, ahead of the live jobs waiting (see SaleIngestProcessor):
   * only while live jobs wait, since otherwise a worker takes it next anyway. A job another worker
   * took meanwhile is left as it is. Resolves whether a job was moved.
   */
  async letBackfillThrough(): Promise<boolean> {
    if ((await this.queue.getWaitingCount()) === 0) return false;
    const [oldest] = await this.queue.getPrioritized(0, 0);
    if (!oldest) return false;
    // Priority 0 and lifo: to the end of the wait list that workers take from next.
    await oldest.changePriority({ priority: 0, lifo: true });
    return true;
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
