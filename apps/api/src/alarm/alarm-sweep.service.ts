import { Inject, Injectable, Logger } from '@nestjs/common';
import type { AlarmKind } from '@wv/contracts';
import { DataSource } from 'typeorm';
import { APP_CONFIG, type AppConfig } from '../config/app-config.js';
import { TelemetryStore } from '../telemetry/telemetry-store.js';
import { AlarmEngine } from './alarm-engine.js';
import { AlarmRepository } from './alarm.repository.js';
import { SHORT_DISPENSE_WINDOW_MS } from './alarm.types.js';
import { businessWindowStart } from './business-hours.js';

/** Openings of one kind per transaction: a fleet-wide outage is a few transactions, not one per machine. */
const OPEN_CHUNK = 500;

export interface SweepReport {
  opened: number;
  cleared: number;
  escalated: number;
}

/**
 * The time-driven rules (docs/alarms.md, "The sweep"): offline, no_sales, the end of short_dispense,
 * sales_gap, and escalation. One worker runs each tick (a BullMQ job scheduler), but nothing depends
 * on that: every opening goes through the engine's lock and the unique index, every clearing and
 * escalation is a conditional UPDATE, so two sweeps at once change each alarm once. Openings go in
 * chunks of OPEN_CHUNK machines per transaction; a chunk that fails is tried again machine by machine,
 * so one failing machine does not hold the others back.
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
    const openOne = (espId: string, kind: AlarmKind, details: Record<string, unknown>) =>
      this.each(espId, kind, async () => {
        const changes = await this.engine.run(async (m, c) => {
          await this.engine.open(m, c, { espId, kind, details, now });
          return c;
        });
        report.opened += changes.opened.length + changes.updated.length;
      });
    const open = async (kind: AlarmKind, openings: { espId: string; details: Record<string, unknown> }[]) => {
      for (let i = 0; i < openings.length; i += OPEN_CHUNK) {
        const chunk = openings.slice(i, i + OPEN_CHUNK);
        try {
          report.opened += await this.engine.run((m, c) => this.engine.openMany(m, c, kind, chunk, now));
        } catch (error) {
          this.logger.warn(
            `Sweep: ${chunk.length} ${kind} alarm(s) at once failed (${(error as Error).message}); one by one`,
          );
          for (const o of chunk) await openOne(o.espId, kind, o.details);
        }
      }
    };
    const clear = (espId: string, kind: AlarmKind) =>
      this.each(espId, kind, async () => {
        const changes = await this.engine.run(async (m, c) => {
          await this.engine.clear(m, c, espId, kind, now);
          return c;
        });
        report.cleared += changes.updated.length;
      });

    await open(
      'offline',
      (await this.alarms.offlineCandidates(now)).map((c) => ({
        espId: c.espId,
        details: { lastSeen: c.lastSeen.toISOString() },
      })),
    );
    for (const espId of await this.alarms.offlineButConnected()) await clear(espId, 'offline');

    await this.noSales(now, open);

    for (const espId of await this.alarms.shortDispenseOver(new Date(now.getTime() - SHORT_DISPENSE_WINDOW_MS))) {
      await clear(espId, 'short_dispense');
    }

    await open(
      'sales_gap',
      (await this.alarms.salesGapCandidates(now)).map((c) => ({
        espId: c.espId,
        details: { gaps: c.gaps, missing: c.missing, firstSeenAt: c.firstSeenAt.toISOString() },
      })),
    );
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
    open: (kind: AlarmKind, openings: { espId: string; details: Record<string, unknown> }[]) => Promise<void>,
  ): Promise<void> {
    const latest = (dates: (Date | null)[], floor: Date) => dates.reduce<Date>((a, b) => (b && b > a ? b : a), floor);
    const due = (since: Date, minutes: number) => now.getTime() - since.getTime() >= minutes * 60_000;
    // The health row's last sale is never newer than the sales themselves: a machine it already shows as
    // not due (or outside its business hours) needs no look at the sales table.
    const candidates = (await this.alarms.noSalesCandidates(now))
      .map((c) => ({ ...c, windowStart: businessWindowStart(now, c.businessHours, this.config.timezone) }))
      .filter((c) => c.windowStart && due(latest([c.lastSaleAt, c.onlineSince], c.windowStart), c.noSalesAfterMinutes));
    if (candidates.length === 0) return;
    const lastSales = await this.store.lastSaleTimes(
      this.dataSource.manager,
      candidates.map((c) => c.espId),
    );
    const openings = [];
    for (const c of candidates) {
      const lastSaleAt = lastSales.get(c.espId) ?? c.lastSaleAt;
      const since = latest([lastSaleAt, c.onlineSince], c.windowStart!);
      if (!due(since, c.noSalesAfterMinutes)) continue;
      openings.push({
        espId: c.espId,
        details: {
          lastSaleAt: lastSaleAt?.toISOString() ?? null,
          since: since.toISOString(),
          noSalesAfterMinutes: c.noSalesAfterMinutes,
          businessHours: c.businessHours,
        },
      });
    }
    await open('no_sales', openings);
  }

  private async each(espId: string, kind: AlarmKind, work: () => Promise<void>): Promise<void> {
    try {
      await work();
    } catch (error) {
      this.logger.warn(`Sweep: ${kind} of ${espId} not evaluated: ${(error as Error).message}`);
    }
  }
}
