import { saleSchema } from '@wv/contracts';
import { describe, expect, it } from '@jest/globals';
import { createRandom } from './prng.js';
import { generateSale, ODD_VOLUME_MAX, ODD_VOLUME_MIN } from './sale-generator.js';
import { DEFAULT_TARIFFS, priceOf } from './tariff.js';

const DRAWS = 20_000;

function draw(seed: number, n = DRAWS) {
  const rng = createRandom(seed);
  return Array.from({ length: n }, (_, i) =>
    generateSale(rng, { eventId: `e-${i}`, tariffs: DEFAULT_TARIFFS, cards: ['CARD-A', 'CARD-B'], time: new Date() }),
  );
}

const share = <T>(items: T[], pred: (t: T) => boolean) => items.filter(pred).length / items.length;
const decimals = (n: number) => (String(n).split('.')[1] ?? '').length;

describe('the sale mix', () => {
  it('is the same for the same seed and differs for another', () => {
    const strip = (s: ReturnType<typeof draw>) => s.map(({ time: _t, ...rest }) => rest);
    expect(strip(draw(7, 50))).toEqual(strip(draw(7, 50)));
    expect(strip(draw(8, 50))).not.toEqual(strip(draw(7, 50)));
  });

  it('is about two thirds coin and one third card, and every card sale names a given card', () => {
    const sales = draw(1);
    expect(share(sales, (s) => s.kind === 'coin')).toBeCloseTo(0.65, 1);
    const card = sales.filter((s) => s.kind === 'card');
    expect(card.every((s) => s.cardId === 'CARD-A' || s.cardId === 'CARD-B')).toBe(true);
    expect(sales.filter((s) => s.kind === 'coin').every((s) => s.cardId === undefined)).toBe(true);
  });

  it('sells fresh most, then pure, then cold', () => {
    const sales = draw(2);
    expect(share(sales, (s) => s.waterType === 'fresh')).toBeCloseTo(0.45, 1);
    expect(share(sales, (s) => s.waterType === 'pure')).toBeCloseTo(0.3, 1);
    expect(share(sales, (s) => s.waterType === 'cold')).toBeCloseTo(0.25, 1);
  });

  it('sells jerrycan and bottle sizes, with about a fifth odd amounts of at most 3 decimals', () => {
    const sales = draw(3);
    for (const v of [1, 5, 10, 20]) expect(share(sales, (s) => s.volume === v)).toBeGreaterThan(0.1);
    const odd = sales.filter((s) => ![1, 5, 10, 20].includes(s.volume));
    expect(odd.length / sales.length).toBeCloseTo(0.2, 1);
    for (const s of odd) {
      expect(s.volume).toBeGreaterThanOrEqual(ODD_VOLUME_MIN);
      expect(s.volume).toBeLessThanOrEqual(ODD_VOLUME_MAX);
      expect(decimals(s.volume)).toBeLessThanOrEqual(3);
    }
  });

  it('prices every sale as volume × the tariff of its water type, to the cent, and passes the shared schema', () => {
    for (const s of draw(4, 5_000)) {
      expect(Math.abs(s.price - s.volume * DEFAULT_TARIFFS[s.waterType])).toBeLessThanOrEqual(0.005 + 1e-9);
      expect(decimals(s.price)).toBeLessThanOrEqual(2);
      expect(saleSchema.safeParse(s).success).toBe(true);
    }
  });
});

describe('priceOf', () => {
  it('multiplies exactly where binary floating point would not', () => {
    expect(priceOf(0.1, 3)).toBe(0.3);
    expect(priceOf(1.005, 1)).toBe(1.01);
    expect(priceOf(20, 50)).toBe(1000);
    expect(priceOf(1.275, 40)).toBe(51);
    expect(priceOf(2.333, 33.33)).toBe(77.76); // 77.75889 rounds to the cent
  });

  it('never gives more than 2 decimals for odd volumes and tariffs', () => {
    const rng = createRandom(99);
    for (let i = 0; i < 10_000; i++) {
      const price = priceOf(rng.int(1, 20_000) / 1000, rng.int(0, 100_000) / 100);
      expect(decimals(price)).toBeLessThanOrEqual(2);
    }
  });
});
