import { Inject, Injectable, Logger, OnApplicationBootstrap, OnModuleDestroy } from '@nestjs/common';
import { RepeatingRound } from '../common/repeating-round.js';
import { APP_CONFIG, type AppConfig } from '../config/app-config.js';
import { SalePartitionRepository, type PartitionMaintenance } from './sale-partition.repository.js';

const EVERY_MS = 3600 * 1000;
/** Month partitions made after the current one, so that a sale never waits for DDL. */
export const SALE_PARTITIONS_AHEAD_MONTHS = 3;

/**
 * Runs in the worker role (docs/partitions.md): at start and every hour, makes the month partitions of
 * `sales` for the current month and the next SALE_PARTITIONS_AHEAD_MONTHS, moves sales that waited in the
 * catch-all partitions into theirs, and drops whole months older than SALES_RETENTION_MONTHS (when set).
 */
@Injectable()
export class SalePartitions implements OnApplicationBootstrap, OnModuleDestroy {
  private readonly logger = new Logger('Sales');
  private readonly rounds = new RepeatingRound(
    EVERY_MS,
    async () => {
      await this.maintain();
    },
    (error) => this.logger.warn(`Sales partition maintenance failed (tried again within the hour): ${error.message}`),
  );

  constructor(
    private readonly partitions: SalePartitionRepository,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  onApplicationBootstrap(): void {
    this.rounds.startNow();
  }

  /** A round in progress finishes before the database connection closes. */
  async onModuleDestroy(): Promise<void> {
    await this.rounds.stop();
  }

  async maintain(now = new Date()): Promise<PartitionMaintenance> {
    const done = await this.partitions.maintain(now, this.config.salesRetentionMonths, SALE_PARTITIONS_AHEAD_MONTHS);
    if (done.created.length > 0) {
      this.logger.log(
        `Made sales partitions ${done.created.join(', ')}` +
          (done.moved > 0 ? ` (${done.moved} sales moved in from sales_before or sales_after)` : ''),
      );
    }
    if (done.dropped.length > 0 || done.deletedOld > 0) {
      this.logger.log(
        `Dropped sales past SALES_RETENTION_MONTHS: ${done.dropped.join(', ') || 'no partition'}` +
          (done.deletedOld > 0 ? `, ${done.deletedOld} older sales from sales_before` : ''),
      );
    }
    return done;
  }
}
