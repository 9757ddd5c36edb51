import { describe, expect, it } from '@jest/globals';
import type { DailySummaryResponse, FleetOverview, MonthlySummaryResponse, SaleEvent } from '@wv/contracts';
import {
  applyConfigApplied,
  applyMachineStatus,
  applyMonthlyDelta,
  applySale,
  applySummary,
  summaryDelta,
} from './sales-patches';

const day = (coin: number, coinVolume: number, card: number, cardVolume: number) => ({
  coinBased: { dailyPriceCollected: coin, volumeSold: coinVolume },
  cardBased: { dailyPriceCollected: card, volumeSold: cardVolume },
});

const summary = (machineId: string, figures: ReturnType<typeof day>) => ({ machineId, date: '2026-04-01', ...figures });

const overview = (): FleetOverview => ({
  date: '2026-04-01',
  hourly: [{ hour: 9, coin: 100, card: 0, volume: 5, sales: 1 }],
  byWaterType: [{ waterType: 'pure', volume: 5, price: 100 }],
  machines: [
    {
      machineId: 'M1',
      location: 'Kariakoo',
      online: false,
      lastSeen: null,
      attendant: null,
      config: { version: 3, appliedVersion: 2 },
    },
    {
      machineId: 'M2',
      location: null,
      online: true,
      lastSeen: '2026-04-01T05:00:00Z',
      attendant: null,
      config: { version: 1, appliedVersion: 1 },
    },
  ],
});

// 12:xx in Dar es Salaam (UTC+3).
const sale = (fields: Partial<SaleEvent>): SaleEvent => ({
  machineId: 'M1',
  kind: 'coin',
  price: 50,
  volume: 2.5,
  waterType: 'pure',
  time: '2026-04-01T09:30:00Z',
  ...fields,
});

describe('a machine’s day totals (the summary event)', () => {
  it('replace the cached totals of that machine and leave the others', () => {
    const cached: DailySummaryResponse = {
      dailyData: [
        { machineId: 'M1', ...day(100, 5, 0, 0) },
        { machineId: 'M2', ...day(40, 2, 60, 3) },
      ],
    };

    const patched = applySummary(cached, summary('M1', day(150, 7.5, 20, 1)));

    expect(patched.dailyData).toEqual([
      { machineId: 'M1', ...day(150, 7.5, 20, 1) },
      { machineId: 'M2', ...day(40, 2, 60, 3) },
    ]);
    expect(cached.dailyData[0]).toEqual({ machineId: 'M1', ...day(100, 5, 0, 0) });
  });

  it('add a machine that had no sales yet today', () => {
    const patched = applySummary({ dailyData: [] }, summary('M3', day(10, 0.5, 0, 0)));
    expect(patched.dailyData).toEqual([{ machineId: 'M3', ...day(10, 0.5, 0, 0) }]);
  });

  it('move the day by the difference from the cached totals, or by all of it for a new machine', () => {
    const cached: DailySummaryResponse = { dailyData: [{ machineId: 'M1', ...day(100, 5, 30, 1) }] };

    expect(summaryDelta(cached, summary('M1', day(150, 7.5, 30, 1)))).toEqual({
      coin: { price: 50, volume: 2.5 },
      card: { price: 0, volume: 0 },
    });
    expect(summaryDelta(cached, summary('M9', day(20, 1, 5, 0.25)))).toEqual({
      coin: { price: 20, volume: 1 },
      card: { price: 5, volume: 0.25 },
    });
  });
});

describe('the month', () => {
  const month: MonthlySummaryResponse = {
    monthlyData: [
      {
        machineId: 'M1',
        coinBased: { monthlyPriceCollected: 1000.1, volumeSold: 50.1 },
        cardBased: { monthlyPriceCollected: 200, volumeSold: 10 },
      },
    ],
  };

  it('moves by what the day moved, rounded to cents and millilitres', () => {
    const patched = applyMonthlyDelta(month, 'M1', {
      coin: { price: 0.2, volume: 0.2 },
      card: { price: -0.1, volume: 0 },
    });
    expect(patched.monthlyData[0]).toEqual({
      machineId: 'M1',
      coinBased: { monthlyPriceCollected: 1000.3, volumeSold: 50.3 },
      cardBased: { monthlyPriceCollected: 199.9, volumeSold: 10 },
    });
  });

  it('gains a row for a machine whose first sale of the month this is', () => {
    const patched = applyMonthlyDelta(month, 'M2', { coin: { price: 50, volume: 2.5 }, card: { price: 0, volume: 0 } });
    expect(patched.monthlyData).toHaveLength(2);
    expect(patched.monthlyData[1]).toEqual({
      machineId: 'M2',
      coinBased: { monthlyPriceCollected: 50, volumeSold: 2.5 },
      cardBased: { monthlyPriceCollected: 0, volumeSold: 0 },
    });
  });
});

describe('a sale on the dashboard’s charts', () => {
  it('adds to its hour in the server’s zone, to coin or card, and to its water type', () => {
    const patched = applySale(overview(), sale({ kind: 'card', price: 75, volume: 3, time: '2026-04-01T06:10:00Z' }));

    expect(patched.hourly).toEqual([{ hour: 9, coin: 100, card: 75, volume: 8, sales: 2 }]);
    expect(patched.byWaterType).toEqual([{ waterType: 'pure', volume: 8, price: 175 }]);
  });

  it('opens an hour and a water type that had no sales, keeping the hours in order', () => {
    const patched = applySale(overview(), sale({ waterType: 'cold', time: '2026-04-01T03:00:00Z' }));

    expect(patched.hourly.map((h) => h.hour)).toEqual([6, 9]);
    expect(patched.hourly[0]).toEqual({ hour: 6, coin: 50, card: 0, volume: 2.5, sales: 1 });
    expect(patched.byWaterType).toContainEqual({ waterType: 'cold', volume: 2.5, price: 50 });
  });

  it('adds without floating-point dust', () => {
    let data = overview();
    for (let i = 0; i < 3; i += 1)
      data = applySale(data, sale({ price: 0.1, volume: 0.001, time: '2026-04-01T06:00:00Z' }));
    expect(data.hourly[0]).toMatchObject({ coin: 100.3, volume: 5.003, sales: 4 });
  });

  it('leaves the cached overview as it was', () => {
    const cached = overview();
    applySale(cached, sale({}));
    expect(cached).toEqual(overview());
  });
});

describe('machine status and configuration', () => {
  it('marks the machine online or offline with its last-seen time', () => {
    const patched = applyMachineStatus(overview(), {
      machineId: 'M1',
      online: true,
      lastSeen: '2026-04-01T09:00:00Z',
    });
    expect(patched.machines[0]).toMatchObject({ online: true, lastSeen: '2026-04-01T09:00:00Z' });
    expect(patched.machines[1]).toEqual(overview().machines[1]);
  });

  it('records the applied configuration version, never going back to an older one', () => {
    expect(applyConfigApplied(overview(), 'M1', 3).machines[0].config).toEqual({ version: 3, appliedVersion: 3 });
    expect(applyConfigApplied(overview(), 'M1', 1).machines[0].config).toEqual({ version: 3, appliedVersion: 2 });
  });
});
