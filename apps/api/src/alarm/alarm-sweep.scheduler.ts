import { Inject, Injectable, Logger, OnApplicationBootstrap, OnApplicationShutdown } from '@nestjs/common';
import { Queue, Worker } from 'bullmq';
import type { Redis } from 'ioredis';
import { APP_CONFIG, type AppConfig } from '../config/app-config.js';
import { bullPrefix, createQueueConnection } from '../queue/queue-connection.js';
import { AlarmSweepService } from './alarm-sweep.service.js';

export const ALARM_SWEEP_QUEUE = 'alarm-sweep';
const SCHEDULER_ID = 'alarm-sweep';

/**
 * Ticks the sweep (docs/alarms.md, "The sweep") with a BullMQ job scheduler: every worker process
 * upserts the same scheduler, BullMQ makes one job per interval, and one worker takes it.
 */
@Injectable()
export class AlarmSweepScheduler implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger('Alarms');
  private queue?: Queue;
  private worker?: Worker;
  private connections: Redis[] = [];

  constructor(
    private readonly sweeps: AlarmSweepService,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  async onApplicationBootstrap(): Promise<void> {
    // ALARMS_ENABLED=false: no sweep from this process (docs/alarms.md, "Configuration").
    if (!this.config.alarms.enabled) return;
    const queueConnection = createQueueConnection(this.config, 'alarm-sweep-queue');
    const workerConnection = createQueueConnection(this.config, 'alarm-sweep-worker');
    this.connections = [queueConnection, workerConnection];
    const prefix = bullPrefix(this.config, ALARM_SWEEP_QUEUE);
    this.queue = new Queue(ALARM_SWEEP_QUEUE, {
      connection: queueConnection,
      prefix,
      defaultJobOptions: { removeOnComplete: { count: 10 }, removeOnFail: { count: 100 }, attempts: 1 },
    });
    await this.queue.upsertJobScheduler(SCHEDULER_ID, { every: this.config.alarms.sweepIntervalMs }, { name: 'sweep' });
    this.worker = new Worker(ALARM_SWEEP_QUEUE, () => this.sweeps.sweep(), {
      connection: workerConnection,
      prefix,
      concurrency: 1,
    });
    this.worker.on('failed', (_job, error) => this.logger.warn(`Alarm sweep failed: ${error.message}`));
    this.worker.on('error', (error) => this.logger.error(`Alarm sweep worker: ${error.message}`));
  }

  async onApplicationShutdown(): Promise<void> {
    await this.worker?.close();
    await this.queue?.close();
    await Promise.all(this.connections.map((c) => c.quit().catch(() => undefined)));
  }
}
