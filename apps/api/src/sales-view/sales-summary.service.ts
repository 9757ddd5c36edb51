import { Inject, Injectable } from '@nestjs/common';
import {
  WATER_TYPES,
  type DailySummaryResponse,
  type FleetOverview,
  type MonthlySummaryResponse,
  type RecentSale,
} from '@wv/contracts';
import type { Actor } from '../common/actor.js';
import { APP_CONFIG, type AppConfig } from '../config/app-config.js';
import { monthOf, num, todayIn } from './local-day.js';
import { SalesSummaryRepository } from './sales-summary.repository.js';

/** Up to this many machines, the activity feed walks each machine's own index (see the repository). */
const FEW_MACHINES = 50;

/** Summaries, the dashboard's day and the activity feed, for the machines in the caller's scope. */
@Injectable()
export class SalesSummaryService {
  constructor(
    private readonly summaries: SalesSummaryRepository,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  async daily(actor: Actor, date?: string): Promise<DailySummaryResponse> {
    const rows = await this.summaries.totals(actor, 'daily', date ?? todayIn(this.config.timezone));
    return {
      dailyData: rows.map((r) => ({
        machineId: r.espId,
        coinBased: { dailyPriceCollected: num(r.coinPrice), volumeSold: num(r.coinVolume) },
        cardBased: { dailyPriceCollected: num(r.cardPrice), volumeSold: num(r.cardVolume) },
      })),
    };
  }

  async monthly(actor: Actor, date?: string): Promise<MonthlySummaryResponse> {
    const rows = await this.summaries.totals(actor, 'monthly', monthOf(date ?? todayIn(this.config.timezone)));
    return {
      monthlyData: rows.map((r) => ({
        machineId: r.espId,
        coinBased: { monthlyPriceCollected: num(r.coinPrice), volumeSold: num(r.coinVolume) },
        cardBased: { monthlyPriceCollected: num(r.cardPrice), volumeSold: num(r.cardVolume) },
      })),
    };
  }

  async overview(actor: Actor, date?: string): Promise<FleetOverview> {
    const day = date ?? todayIn(this.config.timezone);
    const [cells, machines] = await Promise.all([this.summaries.hourly(actor, day), this.summaries.machines(actor)]);
    const hourly = Array.from({ length: 24 }, (_, hour) => ({ hour, coin: 0, card: 0, volume: 0, sales: 0 }));
    const byType = new Map(WATER_TYPES.map((waterType) => [waterType, { waterType, volume: 0, price: 0 }]));
    for (const c of cells) {
      const bucket = hourly[c.hour]!;
      bucket[c.kind] += num(c.price);
      bucket.volume += num(c.volume);
      bucket.sales += c.sales;
      const type = byType.get(c.waterType as (typeof WATER_TYPES)[number]);
      if (type) {
        type.volume += num(c.volume);
        type.price += num(c.price);
      }
    }
    // Sums of 2- and 3-decimal numbers in floating point: round back to what the contract promises.
    const round = (n: number, digits: number) => Number(n.toFixed(digits));
    return {
      date: day,
      hourly: hourly.map((h) => ({ ...h, coin: round(h.coin, 2), card: round(h.card, 2), volume: round(h.volume, 3) })),
      byWaterType: [...byType.values()].map((t) => ({ ...t, volume: round(t.volume, 3), price: round(t.price, 2) })),
      machines: machines.map((m) => ({
        machineId: m.espId,
        location: m.location,
        online: m.online,
        lastSeen: m.lastSeen ? m.lastSeen.toISOString() : null,
        attendant:
          m.attendantFirstName !== null
            ? { firstName: m.attendantFirstName, lastName: m.attendantLastName ?? '' }
            : null,
        config: { version: m.configVersion, appliedVersion: m.configAppliedVersion },
      })),
    };
  }

  async recentSales(actor: Actor, limit: number): Promise<RecentSale[]> {
    const few = actor.role !== 'admin' && (await this.summaries.countMachines(actor)) <= FEW_MACHINES;
    const rows = await this.summaries.recent(actor, limit, few);
    return rows.map((r) => ({
      id: r.id,
      machineId: r.espId,
      kind: r.kind,
      price: num(r.price),
      volume: num(r.volume),
      waterType: r.waterType as RecentSale['waterType'],
      cardId: r.cardId,
      time: r.soldAt.toISOString(),
    }));
  }
}
