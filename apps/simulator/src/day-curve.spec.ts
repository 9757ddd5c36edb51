import { describe, expect, it } from '@jest/globals';
import { dayCurveFactor, drawHourOfDay, HOURLY_WEIGHTS, localHour } from './day-curve.js';
import { createRandom } from './prng.js';

const MORNING = [6, 7, 8];
const EVENING = [17, 18, 19];

describe('the day curve', () => {
  it('averages 1 over the day, so --rate stays the 24-hour mean', () => {
    const mean = HOURLY_WEIGHTS.reduce((sum, _w, h) => sum + dayCurveFactor(h), 0) / 24;
    expect(mean).toBeCloseTo(1, 10);
  });

  it('puts the busiest hours in the morning (6–9) and the evening (17–20)', () => {
    const rng = createRandom(42);
    const counts = new Array<number>(24).fill(0);
    const n = 100_000;
    for (let i = 0; i < n; i++) counts[drawHourOfDay(rng)]!++;
    const top6 = counts
      .map((c, h) => [h, c] as const)
      .sort((a, b) => b[1] - a[1])
      .slice(0, 6)
      .map(([h]) => h)
      .sort((a, b) => a - b);
    expect(top6).toEqual([...MORNING, ...EVENING]);
    const peak = [...MORNING, ...EVENING].reduce((s, h) => s + counts[h]!, 0) / n;
    // 6 of 24 hours carry well over a quarter of the sales; the night (0–4) almost nothing.
    expect(peak).toBeGreaterThan(0.5);
    expect([0, 1, 2, 3, 4].reduce((s, h) => s + counts[h]!, 0) / n).toBeLessThan(0.02);
  });

  it('reads the hour on the local wall clock of the time zone', () => {
    const utc = new Date('2024-05-01T04:30:00Z');
    expect(localHour(utc, 'UTC')).toBe(4);
    expect(localHour(utc, 'Africa/Dar_es_Salaam')).toBe(7); // UTC+3, no DST
    expect(localHour(new Date('2024-05-01T21:00:00Z'), 'Africa/Dar_es_Salaam')).toBe(0);
  });
});
