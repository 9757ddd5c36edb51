import { Inject, Injectable, Logger, OnApplicationBootstrap, OnApplicationShutdown } from '@nestjs/common';
import { Worker, type Job } from 'bullmq';
import type { Redis } from 'ioredis';
import { APP_CONFIG, type AppConfig } from '../config/app-config.js';
import { bullPrefix, createQueueConnection } from '../queue/queue-connection.js';
import { TELEMETRY_QUEUE, type TelemetryIngestJob } from '../telemetry/telemetry.types.js';
import { TelemetryIngestService } from './telemetry-ingest.service.js';

/** Thin: a job is one batch of telemetry publishes; errors propagate so BullMQ retries. */
@Injectable()
export class TelemetryIngestProcessor implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger('Telemetry');
  private worker?: Worker<TelemetryIngestJob>;
  private connection?: Redis;

  constructor(
    private readonly ingest: TelemetryIngestService,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  onApplicationBootstrap(): void {
    // ALARMS_ENABLED=false: the broker drops telemetry on arrival, so there is nothing to take.
    if (!this.config.alarms.enabled) return;
    this.connection = createQueueConnection(this.config, 'telemetry-worker');
    this.worker = new Worker<TelemetryIngestJob>(TELEMETRY_QUEUE, (job) => this.process(job), {
      connection: this.connection,
      prefix: bullPrefix(this.config, TELEMETRY_QUEUE),
      concurrency: 2,
    });
    this.worker.on('failed', (job, error) =>
      this.logger.warn(`Telemetry batch ${job?.id} failed (attempt ${job?.attemptsMade}): ${error.message}`),
    );
    this.worker.on('error', (error) => this.logger.error(`Telemetry worker: ${error.message}`));
  }

  async process(job: Job<TelemetryIngestJob>): Promise<void> {
    await this.ingest.ingest(job.data.messages);
  }

  async onApplicationShutdown(): Promise<void> {
    await this.worker?.close();
    await this.connection?.quit().catch(() => undefined);
  }
}
