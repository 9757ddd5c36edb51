import { Inject, Injectable, Logger, OnApplicationBootstrap, OnModuleDestroy } from '@nestjs/common';
import { RepeatingRound } from '../common/repeating-round.js';
import { APP_CONFIG, type AppConfig } from '../config/app-config.js';
import { TelemetryRepository } from './telemetry.repository.js';

const EVERY_MS = 3600 * 1000;
/** Day partitions made ahead of time, so that a reading never waits for DDL. */
const AHEAD_DAYS = 7;

/**
 * Runs in the worker role (docs/alarms.md, "Telemetry"): at start and every hour, makes the day
 * partitions of the coming week and drops whole days older than TELEMETRY_RETENTION_DAYS.
 */
@Injectable()
export class TelemetryPartitions implements OnApplicationBootstrap, OnModuleDestroy {
  private readonly logger = new Logger('Telemetry');
  private readonly rounds = new RepeatingRound(
    EVERY_MS,
    async () => {
      await this.maintain();
    },
    (error) => this.logger.warn(`Telemetry partition maintenance failed: ${error.message}`),
  );

  constructor(
    private readonly telemetry: TelemetryRepository,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  onApplicationBootstrap(): void {
    this.rounds.startNow();
  }

  /** A round in progress finishes before the database connection closes. */
  async onModuleDestroy(): Promise<void> {
    await this.rounds.stop();
  }

  async maintain(now = new Date()): Promise<string[]> {
    const { dropped } = await this.telemetry.maintainPartitions(
      now,
      this.config.alarms.telemetryRetentionDays,
      AHEAD_DAYS,
    );
    if (dropped.length > 0) this.logger.log(`Dropped telemetry partitions past the retention: ${dropped.join(', ')}`);
    return dropped;
  }
}
