import { describe, expect, it } from '@jest/globals';
import { createRandom } from './prng.js';

describe('the seeded PRNG', () => {
  it('replays the same stream for the same seed', () => {
    const a = createRandom(123);
    const b = createRandom(123);
    expect(Array.from({ length: 10 }, () => a.next())).toEqual(Array.from({ length: 10 }, () => b.next()));
  });

  it('is roughly uniform in [0, 1)', () => {
    const rng = createRandom(5);
    const buckets = new Array<number>(10).fill(0);
    let min = 1;
    let max = 0;
    for (let i = 0; i < 100_000; i++) {
      const x = rng.next();
      min = Math.min(min, x);
      max = Math.max(max, x);
      buckets[Math.floor(x * 10)]!++;
    }
    expect(min).toBeGreaterThanOrEqual(0);
    expect(max).toBeLessThan(1);
    for (const b of buckets) expect(b / 100_000).toBeCloseTo(0.1, 2);
  });

  it('draws exponential gaps with mean 1/rate, the spacing of Poisson arrivals', () => {
    const rng = createRandom(6);
    const n = 50_000;
    let sum = 0;
    for (let i = 0; i < n; i++) sum += rng.exponential(4);
    expect(sum / n).toBeCloseTo(0.25, 2);
  });

  it('forks independent streams per machine', () => {
    const root = createRandom(1);
    const a = root.fork(1);
    const b = root.fork(2);
    expect(a.next()).not.toBe(b.next());
    expect(createRandom(1).fork(1).hex(8)).toBe(createRandom(1).fork(1).hex(8));
  });
});
