import { Inject, Injectable, Logger, OnApplicationBootstrap, OnModuleDestroy } from '@nestjs/common';
import { APP_CONFIG, type AppConfig } from '../config/app-config.js';
import type { EntityManager } from 'typeorm';
import { DomainEvents, type CommittedSale } from '../events/domain-events.js';
import { TelemetryStore } from '../telemetry/telemetry-store.js';
import { AlarmEngine } from './alarm-engine.js';
import { AlarmRepository } from './alarm.repository.js';
import { AlarmChanges, SHORT_DISPENSE_COUNT, SHORT_DISPENSE_RATIO, SHORT_DISPENSE_WINDOW_MS } from './alarm.types.js';

/**
 * A machine's last sale is written to its health row at most this often (sale time). The row only
 * narrows the sweep's no_sales candidates, which it then checks against the sales themselves, so a
 * value up to this old changes no decision; at 2,000 sales/s over 10,000 machines it saves a row
 * update per sale (docs/alarms.md, "Benchmark").
 */
const LAST_SALE_EVERY_MS = 60_000;
/**
 * Runs start at most this often, each taking every sale committed since the last: at 2,000 sales/s two
 * short transactions a second, not one per sales batch. A no_sales alarm clears this much later at most.
 */
export const SALE_RULES_EVERY_MS = 500;

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
 * time per process, at most every SALE_RULES_EVERY_MS, taking everything committed meanwhile, so a
 * busy ingest costs a few statements a second, not a transaction per batch. A failure here leaves the sales stored, and the sweep reads the
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
  private timer?: NodeJS.Timeout;
  private lastRunAt = 0;
  /** The last sale time this process wrote for each machine. */
  private readonly written = new Map<string, number>();

  constructor(
    private readonly events: DomainEvents,
    private readonly store: TelemetryStore,
    private readonly alarms: AlarmRepository,
    private readonly engine: AlarmEngine,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  onApplicationBootstrap(): void {
    if (!this.config.alarms.enabled) return;
    this.off = this.events.on('sales.committed', ({ sales }) => this.collect(sales));
  }

  onModuleDestroy(): void {
    this.off?.();
    clearTimeout(this.timer);
  }

  /** Sales of any batch that commits meanwhile; one run at a time per process, which takes all of them. */
  private collect(sales: CommittedSale[]): void {
    merge(this.pendingNewest, this.pendingShort, sales);
    this.schedule();
  }

  /** The next run: at once after a quiet spell, else SALE_RULES_EVERY_MS after the previous one started. */
  private schedule(): void {
    if (this.running || this.timer || this.pendingNewest.size === 0) return;
    const wait = Math.max(0, this.lastRunAt + SALE_RULES_EVERY_MS - Date.now());
    this.timer = setTimeout(() => {
      this.timer = undefined;
      this.lastRunAt = Date.now();
      this.running = this.runOnce().finally(() => {
        this.running = undefined;
        this.schedule();
      });
    }, wait);
  }

  private async runOnce(): Promise<void> {
    const newest = this.pendingNewest;
    const short = this.pendingShort;
    this.pendingNewest = new Map();
    this.pendingShort = new Map();
    await this.apply(newest, short, new Date()).catch((error: Error) =>
      this.logger.warn(`Sale alarm rules failed for ${newest.size} machine(s): ${error.message}`),
    );
  }

  /**
   * Batched for the ingest's rate: one statement moves the machines' last sale, one clears their
   * no_sales alarms; only machines with a short sale (few) take the per-machine path.
   */
  private async apply(newest: Map<string, Date>, short: Map<string, CommittedSale[]>, now: Date): Promise<void> {
    if (newest.size === 0) return;
    const stale = new Map(
      [...newest].filter(([espId, at]) => at.getTime() >= (this.written.get(espId) ?? -Infinity) + LAST_SALE_EVERY_MS),
    );
    await this.engine.run(async (m, changes) => {
      await this.store.noteLastSales(m, stale);
      changes.updated.push(...(await this.alarms.clearActiveMany(m, [...newest.keys()], 'no_sales', now)));
    });
    for (const [espId, at] of stale) this.written.set(espId, at.getTime());
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
