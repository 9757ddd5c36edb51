import { carriesOfflineSales } from '@wv/contracts';
import { Inject, Injectable, Logger, OnApplicationShutdown, OnApplicationBootstrap } from '@nestjs/common';
import { SaleBatcher } from '@wv/broker';
import { Worker, type Job } from 'bullmq';
import type { Redis } from 'ioredis';
import { mustWaitForDatabase } from '../common/pg-errors.js';
import { WorkerPriority } from '../common/process-priority.js';
import { APP_CONFIG, type AppConfig } from '../config/app-config.js';
import { bullPrefix, createQueueConnection, SALES_QUEUE } from '../queue/queue-connection.js';
import { SaleIngestQueue } from './sale-ingest.queue.js';
import { SaleIngestService, type QueuedSalesMessage } from './sale-ingest.service.js';
import type { SalesIngestJob } from './sale-ingest.types.js';

/** How long the queue holds off while PostgreSQL cannot take writes, before a batch is tried again. */
const DATABASE_RETRY_MS = 1_000;
const UNAVAILABLE_LOG_EVERY_MS = 10_000;
/**
 * Live jobs a worker takes in a row while live jobs still wait, before it lets one backfill job go
 * ahead of them: strict priority would leave a backlog waiting for as long as live sales keep the
 * workers busy (docs/architecture.md, "Backfill and live sales").
 */
export const LIVE_JOBS_PER_BACKFILL_JOB = 3;

/**
 * Jobs written in one transaction at most. A job is one flush of the broker, made for PUBACK latency:
 * under load a few dozen sales. Written one transaction each, the per-transaction work (the round trips,
 * the card lock, the commit) cost more than the rows, and the worker fell behind at half the plain
 * insert rate (docs/performance.md). Jobs now wait while a transaction is in flight and go together in
 * the next. Backfill jobs, each about as long to write as a full live one, are written one per
 * transaction beside them, so a live job never shares a transaction with a backlog (docs/architecture.md,
 * "Backfill and live sales").
 */
const JOBS_PER_WRITE = 16;
/** Transactions in flight at once, when they are full: the next one is prepared while one commits. */
const WRITES_IN_FLIGHT = 2;
/** Jobs a worker holds at once: enough to fill the transactions in flight and the next one. */
const ACTIVE_JOBS = JOBS_PER_WRITE * (WRITES_IN_FLIGHT + 1);

/** Thin: a job is one batch, written by SaleIngestService; errors propagate so BullMQ retries. */
@Injectable()
export class SaleIngestProcessor implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger(SaleIngestProcessor.name);
  private worker?: Worker<SalesIngestJob>;
  private connection?: Redis;
  private unavailableLoggedAt = 0;
  private liveInARow = 0;
  /** Live jobs: the ones that wait together go in one transaction. */
  private readonly liveWrites = this.writer(JOBS_PER_WRITE);
  /** Backfill jobs, each already about as long to write as a full live one: one per transaction. */
  private readonly backfillWrites = this.writer(1);

  constructor(
    private readonly ingest: SaleIngestService,
    private readonly queue: SaleIngestQueue,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly priority: WorkerPriority,
  ) {}

  onApplicationBootstrap(): void {
    this.connection = createQueueConnection(this.config, 'sales-worker');
    this.worker = new Worker<SalesIngestJob>(SALES_QUEUE, (job) => this.process(job), {
      connection: this.connection,
      prefix: bullPrefix(this.config, SALES_QUEUE),
      concurrency: ACTIVE_JOBS,
      // A batch takes well under a second; a crashed worker's active jobs are taken over within ~15 s.
      lockDuration: 10_000,
      stalledInterval: 5_000,
      maxStalledCount: 1000,
    });
    this.worker.on('failed', (job, error) =>
      this.logger.warn(`Sales batch ${job?.id} failed (attempt ${job?.attemptsMade}): ${error.message}`),
    );
    this.worker.on('error', (error) => this.logger.error(`Sales worker: ${error.message}`));
  }

  private writer(jobsPerWrite: number): SaleBatcher<QueuedSalesMessage[]> {
    return new SaleBatcher<QueuedSalesMessage[]>({
      persist: async (jobs) => {
        await this.ingest.ingestQueued(jobs.flat());
      },
      maxBatch: jobsPerWrite,
      // Nothing in flight: a job is written at once (a timer of 0 lets jobs fetched together go together).
      lingerMs: 0,
      maxInFlight: WRITES_IN_FLIGHT,
      timeoutMs: 0,
    });
  }

  async process(job: Job<SalesIngestJob>): Promise<void> {
    const backfill = this.shareWithBackfill(job);
    try {
      const batchKey = `job-${job.id}`;
      const messages = job.data.messages.map((message, index) => ({ message, batchKey, index }));
      await (backfill ? this.backfillWrites : this.liveWrites).add(messages);
      // Backfill jobs wait behind live ones on purpose: only a live job's wait says the worker is behind.
      if (!backfill) this.priority.observeCommit(Date.now() - job.timestamp);
    } catch (error) {
      if (!mustWaitForDatabase(error)) throw error;
      // Not this batch's fault (down, read-only, out of resources, shutting down): hold the whole
      // queue off for a second and put the job back without spending an attempt, for as long as it
      // takes. These sales were acknowledged to their machines, which then forgot them: spending
      // attempts would fail valid batches, and the exponential backoff would leave the backlog waiting
      // about as long again after PostgreSQL is back.
      this.logUnavailable(error as Error);
      await this.queue.holdOff(DATABASE_RETRY_MS);
      throw Worker.RateLimitError();
    }
  }

  /**
   * Fair share for the backfill lane: after LIVE_JOBS_PER_BACKFILL_JOB live jobs in a row, the oldest
   * backfill job goes next if live jobs are waiting. Only the order of work changes: every job is
   * stored exactly once whichever lane it waits in.
   */
  private shareWithBackfill(job: Job<SalesIngestJob>): boolean {
    if (job.data.messages.some((m) => carriesOfflineSales(m.payload))) {
      this.liveInARow = 0;
      return true;
    }
    if (++this.liveInARow < LIVE_JOBS_PER_BACKFILL_JOB) return false;
    this.liveInARow = 0;
    void this.queue.letBackfillThrough().catch((error: unknown) => {
      this.logger.warn(`Could not let a backfill job through: ${(error as Error).message}`);
    });
    return false;
  }

  private logUnavailable(error: Error): void {
    if (Date.now() - this.unavailableLoggedAt < UNAVAILABLE_LOG_EVERY_MS) return;
    this.unavailableLoggedAt = Date.now();
    this.logger.warn(`PostgreSQL unavailable (${error.message}): sales batches wait in the queue and are retried`);
  }

  async onApplicationShutdown(): Promise<void> {
    await this.worker?.close();
    await this.connection?.quit().catch(() => undefined);
  }
}
