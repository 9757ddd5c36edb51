import { Inject, Injectable, Logger } from '@nestjs/common';
import type { AlarmKind } from '@wv/contracts';
import { DataSource } from 'typeorm';
import { APP_CONFIG, type AppConfig } from '../config/app-config.js';
import { TelemetryStore } from '../telemetry/telemetry-store.js';
import { AlarmEngine } from './alarm-engine.js';
import { AlarmRepository } from './alarm.repository.js';
import { SHORT_DISPENSE_WINDOW_MS } from './alarm.types.js';
import { businessWindowStart } from './business-hours.js';

export interface SweepReport {
  opened: number;
  cleared: number;
  escalated: number;
}

/**
 * The time-driven rules (docs/alarms.md, "The sweep"): offline, no_sales, the end of short_dispense,
 * sales_gap, and escalation. One worker runs each tick (a BullMQ job scheduler), but nothing depends
 * on that: every opening goes through the engine's lock and the unique index, every clearing and
 * escalation is a conditional UPDATE, so two sweeps at once change each alarm once. Each machine's
 * change is its own short transaction: one failing machine does not hold the others back.
 */
@Injectable()
export class AlarmSweepService {
  private readonly logger = new Logger('Alarms');

  constructor(
    private readonly dataSource: DataSource,
    private readonly alarms: AlarmRepository,
    private readonly engine: AlarmEngine,
    private readonly store: TelemetryStore,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  async sweep(now = new Date()): Promise<SweepReport> {
    const report: SweepReport = { opened: 0, cleared: 0, escalated: 0 };
    const open = (espId: string, kind: AlarmKind, details: Record<string, unknown>) =>
      this.each(espId, kind, async () => {
        const changes = await this.engine.run(async (m, c) => {
          await this.engine.open(m, c, { espId, kind, details, now });
          return c;
        });
        report.opened += changes.opened.length + changes.updated.length;
      });
    const clear = (espId: string, kind: AlarmKind) =>
      this.each(espId, kind, async () => {
        const changes = await this.engine.run(async (m, c) => {
          await this.engine.clear(m, c, espId, kind, now);
          return c;
        });
        report.cleared += changes.updated.length;
      });

    for (const c of await this.alarms.offlineCandidates(now)) {
      await open(c.espId, 'offline', { lastSeen: c.lastSeen.toISOString() });
    }
    for (const espId of await this.alarms.offlineButConnected()) await clear(espId, 'offline');

    await this.noSales(now, open);

    for (const espId of await this.alarms.shortDispenseOver(new Date(now.getTime() - SHORT_DISPENSE_WINDOW_MS))) {
      await clear(espId, 'short_dispense');
    }

    for (const c of await this.alarms.salesGapCandidates(now)) {
      await open(c.espId, 'sales_gap', {
        gaps: c.gaps,
        missing: c.missing,
        firstSeenAt: c.firstSeenAt.toISOString(),
      });
    }
    for (const espId of await this.alarms.salesGapsFilled()) await clear(espId, 'sales_gap');

    report.escalated = await this.engine.escalate(now, this.config.alarms.escalateAfterMinutes);
    return report;
  }

  /**
   * no_sales counts connected business time only: the clock starts at the latest of the last sale, the
   * opening of the current business-hours window and the machine's last connect, so a machine that
   * opens at 06:00 has until 08:00 (default), and one that returns at noon until 14:00.
   */
  private async noSales(
    now: Date,
    open: (espId: string, kind: AlarmKind, details: Record<string, unknown>) => Promise<void>,
  ): Promise<void> {
    const candidates = await this.alarms.noSalesCandidates(now);
    if (candidates.length === 0) return;
    const lastSales = await this.store.lastSaleTimes(
      this.dataSource.manager,
      candidates.map((c) => c.espId),
    );
    for (const c of candidates) {
      const windowStart = businessWindowStart(now, c.businessHours, this.config.timezone);
      if (!windowStart) continue;
      const lastSaleAt = lastSales.get(c.espId) ?? c.lastSaleAt;
      const since = [lastSaleAt, c.onlineSince].reduce<Date>((a, b) => (b && b > a ? b : a), windowStart);
      if (now.getTime() - since.getTime() < c.noSalesAfterMinutes * 60_000) continue;
      await open(c.espId, 'no_sales', {
        lastSaleAt: lastSaleAt?.toISOString() ?? null,
        since: since.toISOString(),
        noSalesAfterMinutes: c.noSalesAfterMinutes,
        businessHours: c.businessHours,
      });
    }
  }

  private async each(espId: string, kind: AlarmKind, work: () => Promise<void>): Promise<void> {
    try {
      await work();
    } catch (error) {
      this.logger.warn(`Sweep: ${kind} of ${espId} not evaluated: ${(error as Error).message}`);
    }
  }
}
