import type {
  DailySummaryResponse,
  FleetOverview,
  MachineStatusEvent,
  MonthlySummaryResponse,
  SaleEvent,
  SummaryEvent,
} from '@wv/contracts';
import { businessHour } from '@/lib/dates';

/** Pure cache updates for the live events (docs/live-events.md, "Events"); each returns a new object. */

type Figures = { price: number; volume: number };

const ZERO_DAY = { dailyPriceCollected: 0, volumeSold: 0 };
const ZERO_MONTH = { monthlyPriceCollected: 0, volumeSold: 0 };

/** `summary` carries the machine's day totals: they replace the cached ones (or add the machine). */
export function applySummary(data: DailySummaryResponse, event: SummaryEvent): DailySummaryResponse {
  const row = { machineId: event.machineId, coinBased: event.coinBased, cardBased: event.cardBased };
  const found = data.dailyData.some((r) => r.machineId === event.machineId);
  return {
    dailyData: found
      ? data.dailyData.map((r) => (r.machineId === event.machineId ? row : r))
      : [...data.dailyData, row],
  };
}

/** How much a `summary` event moved the machine's day, against the cached day (zeros when absent). */
export function summaryDelta(data: DailySummaryResponse, event: SummaryEvent): { coin: Figures; card: Figures } {
  const before = data.dailyData.find((r) => r.machineId === event.machineId);
  const coin = before?.coinBased ?? ZERO_DAY;
  const card = before?.cardBased ?? ZERO_DAY;
  return {
    coin: {
      price: event.coinBased.dailyPriceCollected - coin.dailyPriceCollected,
      volume: event.coinBased.volumeSold - coin.volumeSold,
    },
    card: {
      price: event.cardBased.dailyPriceCollected - card.dailyPriceCollected,
      volume: event.cardBased.volumeSold - card.volumeSold,
    },
  };
}

const round = (n: number, digits: number) => Math.round(n * 10 ** digits) / 10 ** digits;

/** The month moves by what the day moved. */
export function applyMonthlyDelta(
  data: MonthlySummaryResponse,
  machineId: string,
  delta: { coin: Figures; card: Figures },
): MonthlySummaryResponse {
  const add = (figures: typeof ZERO_MONTH, by: Figures) => ({
    monthlyPriceCollected: round(figures.monthlyPriceCollected + by.price, 2),
    volumeSold: round(figures.volumeSold + by.volume, 3),
  });
  const existing = data.monthlyData.find((r) => r.machineId === machineId);
  const base = existing ?? { machineId, coinBased: ZERO_MONTH, cardBased: ZERO_MONTH };
  const row = { machineId, coinBased: add(base.coinBased, delta.coin), cardBased: add(base.cardBased, delta.card) };
  return {
    monthlyData: existing
      ? data.monthlyData.map((r) => (r.machineId === machineId ? row : r))
      : [...data.monthlyData, row],
  };
}

/** A `sale` adds to its hour, to coin or card, and to its water type. */
export function applySale(data: FleetOverview, sale: SaleEvent): FleetOverview {
  const hour = businessHour(sale.time);
  const hourly = data.hourly.some((h) => h.hour === hour)
    ? data.hourly
    : [...data.hourly, { hour, coin: 0, card: 0, volume: 0, sales: 0 }].sort((a, b) => a.hour - b.hour);
  const byWaterType = data.byWaterType.some((w) => w.waterType === sale.waterType)
    ? data.byWaterType
    : [...data.byWaterType, { waterType: sale.waterType, volume: 0, price: 0 }];
  return {
    ...data,
    hourly: hourly.map((h) =>
      h.hour === hour
        ? {
            ...h,
            coin: sale.kind === 'coin' ? round(h.coin + sale.price, 2) : h.coin,
            card: sale.kind === 'card' ? round(h.card + sale.price, 2) : h.card,
            volume: round(h.volume + sale.volume, 3),
            sales: h.sales + 1,
          }
        : h,
    ),
    byWaterType: byWaterType.map((w) =>
      w.waterType === sale.waterType
        ? { ...w, volume: round(w.volume + sale.volume, 3), price: round(w.price + sale.price, 2) }
        : w,
    ),
  };
}

export function applyMachineStatus(data: FleetOverview, event: MachineStatusEvent): FleetOverview {
  return {
    ...data,
    machines: data.machines.map((m) =>
      m.machineId === event.machineId ? { ...m, online: event.online, lastSeen: event.lastSeen } : m,
    ),
  };
}

export function applyConfigApplied(data: FleetOverview, machineId: string, version: number): FleetOverview {
  return {
    ...data,
    machines: data.machines.map((m) =>
      m.machineId === machineId
        ? { ...m, config: { ...m.config, appliedVersion: Math.max(m.config.appliedVersion, version) } }
        : m,
    ),
  };
}
