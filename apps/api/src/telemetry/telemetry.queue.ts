import { Inject, Injectable, Logger, OnModuleDestroy } from '@nestjs/common';
import { Queue } from 'bullmq';
import type { Redis } from 'ioredis';
import { APP_CONFIG, type AppConfig } from '../config/app-config.js';
import { bullPrefix, createQueueConnection } from '../queue/queue-connection.js';
import { TELEMETRY_QUEUE, type RawTelemetryMessage, type TelemetryIngestJob } from './telemetry.types.js';

/**
 * Publishes of all machines collected this long are queued as one job (one Redis round trip, and one
 * transaction in the worker): 10,000 machines reporting every 30 s make a couple of jobs a second,
 * not twenty (docs/alarms.md, "Benchmark"). Thresholds are minutes; half a second changes nothing.
 */
const FLUSH_AFTER_MS = 500;
const MESSAGES_PER_JOB = 500;
/** Jobs waiting past which new telemetry is dropped: it is a sample, and the next one follows. */
const MAX_BACKLOG_JOBS = 2000;

/**
 * The broker's side of telemetry (docs/alarms.md, "Telemetry"): publishes are batched in memory for a
 * few milliseconds and handed to the workers through a BullMQ queue; the broker never touches the
 * database. Telemetry is a sample, not money: a reading lost in a crash is replaced by the next one.
 */
@Injectable()
export class TelemetryQueue implements OnModuleDestroy {
  private readonly logger = new Logger('Telemetry');
  private readonly queue: Queue<TelemetryIngestJob>;
  private readonly connection: Redis;
  private buffer: RawTelemetryMessage[] = [];
  private timer?: NodeJS.Timeout;
  private backlog = 0;
  private backlogCheckedAt = 0;
  private readonly enabled: boolean;

  constructor(@Inject(APP_CONFIG) config: AppConfig) {
    this.enabled = config.alarms.enabled;
    this.connection = createQueueConnection(config, 'telemetry-queue');
    this.queue = new Queue<TelemetryIngestJob>(TELEMETRY_QUEUE, {
      connection: this.connection,
      prefix: bullPrefix(config, TELEMETRY_QUEUE),
      defaultJobOptions: {
        attempts: 10,
        backoff: { type: 'exponential', delay: 1000 },
        removeOnComplete: { count: 100 },
        removeOnFail: { count: 1000 },
      },
    });
  }

  add(message: RawTelemetryMessage): void {
    // ALARMS_ENABLED=false: nothing would read it (docs/alarms.md, "Configuration").
    if (!this.enabled) return;
    this.buffer.push(message);
    if (this.buffer.length >= MESSAGES_PER_JOB) void this.flush();
    else this.timer ??= setTimeout(() => void this.flush(), FLUSH_AFTER_MS);
  }

  async flush(): Promise<void> {
    clearTimeout(this.timer);
    this.timer = undefined;
    const messages = this.buffer.splice(0);
    if (messages.length === 0) return;
    try {
      if (await this.overloaded()) {
        this.logger.warn(`Telemetry backlog over ${MAX_BACKLOG_JOBS} jobs: ${messages.length} reading(s) dropped`);
        return;
      }
      const jobs = [];
      for (let i = 0; i < messages.length; i += MESSAGES_PER_JOB) {
        jobs.push({ name: 'batch', data: { messages: messages.slice(i, i + MESSAGES_PER_JOB) } });
      }
      await this.queue.addBulk(jobs);
    } catch (error) {
      this.logger.warn(`Telemetry not queued (${(error as Error).message}): ${messages.length} reading(s) lost`);
    }
  }

  private async overloaded(): Promise<boolean> {
    if (Date.now() - this.backlogCheckedAt > 1000) {
      this.backlogCheckedAt = Date.now();
      const counts = await this.queue.getJobCounts('waiting', 'delayed', 'prioritized');
      this.backlog = Object.values(counts).reduce((a, b) => a + b, 0);
    }
    return this.backlog > MAX_BACKLOG_JOBS;
  }

  async onModuleDestroy(): Promise<void> {
    await this.flush();
    await this.queue.close();
    await this.connection.quit().catch(() => undefined);
  }
}
