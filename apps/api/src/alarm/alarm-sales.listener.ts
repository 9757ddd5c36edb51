import { Injectable, Logger, OnApplicationBootstrap, OnModuleDestroy } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { DomainEvents, type CommittedSale } from '../events/domain-events.js';
import { TelemetryStore } from '../telemetry/telemetry-store.js';
import { AlarmEngine } from './alarm-engine.js';
import { AlarmRepository } from './alarm.repository.js';
import { AlarmChanges, SHORT_DISPENSE_COUNT, SHORT_DISPENSE_RATIO, SHORT_DISPENSE_WINDOW_MS } from './alarm.types.js';

/** A sale whose flow meter measured under 90 % of its volume (docs/alarms.md, "short_dispense"). */
export function isShortDispense(sale: Pick<CommittedSale, 'volume' | 'dispensed'>): boolean {
  if (sale.dispensed === null || sale.dispensed === undefined) return false;
  const volume = Number(sale.volume);
  return volume > 0 && Number(sale.dispensed) < SHORT_DISPENSE_RATIO * volume;
}

/**
 * The sale rules, in the worker that committed the sales (docs/alarms.md, "The alarms"): a sale clears
 * no_sales and moves the machine's last sale; short dispenses are counted per machine over the last
 * hour of sale time, and the third opens short_dispense. Runs after the sales' commit, one run at a
 * time per process taking everything committed meanwhile, so a busy ingest costs a few statements a
 * second, not a transaction per batch. A failure here leaves the sales stored, and the sweep reads the
 * last sale from the sales themselves.
 */
@Injectable()
export class AlarmSalesListener implements OnApplicationBootstrap, OnModuleDestroy {
  private readonly logger = new Logger('Alarms');
  private off?: () => void;
  /** What arrived while a run was in flight: the newest sale and the short sales per machine. */
  private pendingNewest = new Map<string, Date>();
  private pendingShort = new Map<string, CommittedSale[]>();
  private running?: Promise<void>;

  constructor(
    private readonly events: DomainEvents,
    private readonly store: TelemetryStore,
    private readonly alarms: AlarmRepository,
    private readonly engine: AlarmEngine,
  ) {}

  onApplicationBootstrap(): void {
    this.off = this.events.on('sales.committed', ({ sales }) => this.collect(sales));
  }

  onModuleDestroy(): void {
    this.off?.();
  }

  /** Sales of any batch that commits meanwhile; one run at a time per process, which takes all of them. */
  private collect(sales: CommittedSale[]): void {
    merge(this.pendingNewest, this.pendingShort, sales);
    this.running ??= this.drain().finally(() => (this.running = undefined));
  }

  private async drain(): Promise<void> {
    while (this.pendingNewest.size > 0) {
      const newest = this.pendingNewest;
      const short = this.pendingShort;
      this.pendingNewest = new Map();
      this.pendingShort = new Map();
      await this.apply(newest, short, new Date()).catch((error: Error) =>
        this.logger.warn(`Sale alarm rules failed for ${newest.size} machine(s): ${error.message}`),
      );
    }
  }

  /**
   * Batched for the ingest's rate: one statement moves the machines' last sale, one clears their
   * no_sales alarms; only machines with a short sale (few) take the per-machine path.
   */
  private async apply(newest: Map<string, Date>, short: Map<string, CommittedSale[]>, now: Date): Promise<void> {
    if (newest.size === 0) return;
    await this.engine.run(async (m, changes) => {
      await this.store.noteLastSales(m, newest);
      changes.updated.push(...(await this.alarms.clearActiveMany(m, [...newest.keys()], 'no_sales', now)));
    });
    if (short.size > 0) await this.engine.run((m, changes) => this.countShortDispenses(m, changes, short, now));
  }

  private async countShortDispenses(
    m: EntityManager,
    changes: AlarmChanges,
    short: Map<string, CommittedSale[]>,
    now: Date,
  ): Promise<void> {
    const health = await this.store.lockHealth(m, [...short.keys()]);
    for (const [espId, h] of [...health].sort(([a], [b]) => a.localeCompare(b))) {
      const mine = short.get(espId)!;
      const all = [...h.shortDispenseTimes, ...mine.map((s) => s.soldAt)].sort((a, b) => a.getTime() - b.getTime());
      const latest = all[all.length - 1]!.getTime();
      h.shortDispenseTimes = all.filter((t) => t.getTime() > latest - SHORT_DISPENSE_WINDOW_MS);
      await this.store.saveHealth(m, h);
      if (h.shortDispenseTimes.length < SHORT_DISPENSE_COUNT) continue;
      const last = mine[mine.length - 1]!;
      await this.engine.open(m, changes, {
        espId,
        kind: 'short_dispense',
        details: {
          shortSales: h.shortDispenseTimes.length,
          windowMinutes: SHORT_DISPENSE_WINDOW_MS / 60_000,
          lastEventId: last.eventId,
          volume: Number(last.volume),
          dispensed: Number(last.dispensed),
        },
        now,
      });
    }
  }
}

function merge(newest: Map<string, Date>, short: Map<string, CommittedSale[]>, sales: CommittedSale[]): void {
  for (const s of sales) {
    const seen = newest.get(s.espId);
    if (!seen || s.soldAt > seen) newest.set(s.espId, s.soldAt);
    if (isShortDispense(s)) short.set(s.espId, [...(short.get(s.espId) ?? []), s]);
  }
}
