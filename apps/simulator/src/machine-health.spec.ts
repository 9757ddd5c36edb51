import { telemetryPayloadSchema, type Sale } from '@wv/contracts';
import { describe, expect, it } from '@jest/globals';
import { defaultHealthParams, HealthModel, MEAN_SALE_LITRES } from './machine-health.js';
import { createRandom } from './prng.js';
import { generateSale } from './sale-generator.js';
import { DEFAULT_TARIFFS } from './tariff.js';

const T0 = Date.parse('2026-11-25T06:00:00Z');
const MINUTE = 60_000;

function model(seed = 1, rate = 0.1, params = {}) {
  return new HealthModel(createRandom(seed), rate, T0, params);
}

/** Sells at `rate` sales/s (Poisson) from `from` for `ms`, as a machine would; returns the sales. */
function sellFor(m: HealthModel, rate: number, from: number, ms: number, seed = 7): Sale[] {
  const rng = createRandom(seed);
  const sales: Sale[] = [];
  let t = from + rng.exponential(rate) * 1000;
  while (t < from + ms) {
    const sale = generateSale(rng, {
      eventId: `e${sales.length}`,
      tariffs: DEFAULT_TARIFFS,
      cards: ['C1'],
      time: new Date(t),
    });
    m.recordSale(sale, sale.volume, t);
    sales.push(sale);
    t += rng.exponential(rate) * 1000;
  }
  return sales;
}

describe('the machine health model', () => {
  it('sends readings the shared telemetry schema accepts, rounded as firmware sends them', () => {
    const m = model();
    for (let i = 0; i < 50; i++) {
      const r = m.reading(T0 + i * MINUTE);
      expect(telemetryPayloadSchema.safeParse(r).success).toBe(true);
      expect(r.time).toBe(new Date(T0 + i * MINUTE).toISOString());
      expect(Number.isInteger(r.tdsPpm)).toBe(true);
      expect(Math.round(r.tankLevelPct * 10)).toBeCloseTo(r.tankLevelPct * 10, 9);
      expect(r.errorCode).toBeNull();
    }
  });

  it('lowers the tank by exactly the litres dispensed, and never below empty', () => {
    const m = model(2, 0.1, { tankCapacityLitres: 1_000, refillBelowPct: 0 });
    m.setTankLevelPct(50);
    m.recordSale({ kind: 'coin', price: 600, waterType: 'fresh' }, 20, T0 + 1_000);
    expect(m.tankLevelPct).toBeCloseTo(48, 9);
    m.recordSale({ kind: 'card', price: 100, waterType: 'pure' }, 2.5, T0 + 2_000);
    expect(m.tankLevelPct).toBeCloseTo(47.75, 9);
    m.recordSale({ kind: 'coin', price: 0, waterType: 'pure' }, 5_000, T0 + 3_000);
    expect(m.tankLevelPct).toBe(0);
    expect(m.outOfWater).toBe(true);
  });

  it('refills through the float valve once below its level, up to full, and then stays put', () => {
    const m = model(3, 0.1, { tankCapacityLitres: 1_000, refillBelowPct: 40, refillLitresPerMinute: 100 });
    m.setTankLevelPct(50);
    m.advance(T0 + 10 * MINUTE);
    expect(m.tankLevelPct).toBeCloseTo(50, 9); // above the valve's level: no refill
    m.recordSale({ kind: 'coin', price: 0, waterType: 'fresh' }, 150, T0 + 10 * MINUTE); // 35 %
    m.advance(T0 + 12 * MINUTE); // 2 minutes at 100 L/min: +20 %
    expect(m.tankLevelPct).toBeCloseTo(55, 6);
    m.advance(T0 + 30 * MINUTE);
    expect(m.tankLevelPct).toBe(100);
  });

  it('keeps up with a busy day: the supply is sized for the sales rate, so the tank never runs low', () => {
    const rate = 0.5; // sales per second, far busier than a real kiosk
    const m = model(4, rate);
    m.setTankLevelPct(60);
    let lowest = 100;
    const start = T0;
    for (let hour = 0; hour < 6; hour++) {
      // Peak hours run at 2.7 times the mean (day-curve.ts).
      sellFor(m, rate * 2.7, start + hour * 60 * MINUTE, 60 * MINUTE, hour + 1);
      for (let min = 0; min <= 60; min += 5)
        lowest = Math.min(lowest, m.reading(start + hour * 60 * MINUTE + min * MINUTE).tankLevelPct);
    }
    expect(lowest).toBeGreaterThan(20);
    expect(defaultHealthParams(rate).refillLitresPerMinute).toBeCloseTo(3 * rate * 60 * MEAN_SALE_LITRES, 6);
  });

  it('drains to 5 % while its supply is cut, and recovers past the low-tank alarm once it is restored', () => {
    const m = model(5, 0.1);
    m.setTankLevelPct(80);
    m.supplyCut = true;
    const levels = [1, 2, 3, 4, 5, 10].map((min) => m.reading(T0 + min * MINUTE).tankLevelPct);
    expect(levels[0]).toBeLessThan(80);
    expect(levels[levels.length - 1]).toBe(5); // the leak stops at the outlet
    expect(Math.min(...levels)).toBeLessThan(15);
    m.supplyCut = false;
    // The float valve is open (below 40 %): at the default 100 L/min, 20 % of 5 000 L takes 10 minutes.
    expect(m.reading(T0 + 25 * MINUTE).tankLevelPct).toBeGreaterThanOrEqual(20);
    expect(m.reading(T0 + 120 * MINUTE).tankLevelPct).toBe(100);
  });

  it('holds TDS near its normal value, climbs past 500 ppm within a minute of a membrane failure, and falls back', () => {
    const m = model(6);
    const normal = Array.from({ length: 200 }, (_, i) => m.reading(T0 + i * 30_000).tdsPpm);
    const mean = normal.reduce((a, b) => a + b, 0) / normal.length;
    expect(mean).toBeGreaterThan(110);
    expect(mean).toBeLessThan(130);
    expect(Math.max(...normal)).toBeLessThan(150);
    const t = T0 + 200 * 30_000;
    m.membraneFailed = true;
    expect(m.reading(t + 60_000).tdsPpm).toBeGreaterThan(500);
    expect(m.reading(t + 5 * MINUTE).tdsPpm).toBeGreaterThan(800);
    m.membraneFailed = false;
    expect(m.reading(t + 7 * MINUTE).tdsPpm).toBeLessThanOrEqual(500);
    expect(m.reading(t + 10 * MINUTE).tdsPpm).toBeLessThan(150);
  });

  it('keeps chilled water between the setpoint and 12 °C at peak demand, and cools back when idle', () => {
    const rate = 0.2;
    const m = model(8, rate);
    sellFor(m, rate * 2.7, T0, 120 * MINUTE);
    const warm = m.reading(T0 + 120 * MINUTE).coldWaterTempC;
    expect(warm).toBeGreaterThan(6.5);
    expect(warm).toBeLessThan(12);
    expect(m.reading(T0 + 180 * MINUTE).coldWaterTempC).toBeLessThan(6.5);
  });

  it('fills the coin box with coin takings only, and is emptied by the attendant before it overflows', () => {
    const m = model(9, 0.1, { coinBoxCapacity: 10_000 });
    m.emptyCoinBox();
    m.recordSale({ kind: 'card', price: 2_000, waterType: 'pure' }, 1, T0 + 1);
    expect(m.coinBoxPct).toBe(0);
    m.recordSale({ kind: 'coin', price: 2_000, waterType: 'pure' }, 1, T0 + 2);
    expect(m.coinBoxPct).toBeCloseTo(20, 9);
    let peak = 0;
    let emptied = 0;
    for (let i = 0; i < 2_000; i++) {
      const before = m.coinBoxPct;
      m.recordSale({ kind: 'coin', price: 150, waterType: 'fresh' }, 5, T0 + 10 + i);
      if (m.coinBoxPct < before) emptied++;
      peak = Math.max(peak, m.coinBoxPct);
    }
    expect(emptied).toBeGreaterThan(10);
    expect(peak).toBeLessThan(98.5);
  });

  it('reports the error code it is given, and null again once cleared', () => {
    const m = model();
    m.errorCode = 'E42';
    expect(m.reading(T0 + 1).errorCode).toBe('E42');
    m.errorCode = null;
    expect(m.reading(T0 + 2).errorCode).toBeNull();
  });
});
