/**
 * A small seeded PRNG so that `--seed N` replays the same fleet (MACs, passwords, sale mix).
 * mulberry32: 32-bit state, fast, good enough for simulation; not for anything secret.
 */
export interface Random {
  /** A float in [0, 1). */
  next(): number;
  /** An integer in [min, max], both included. */
  int(min: number, max: number): number;
  /** One item, chosen by weight. */
  weighted<T>(choices: ReadonlyArray<readonly [T, number]>): T;
  /** One item, uniformly. */
  pick<T>(items: readonly T[]): T;
  /** An exponential draw with the given rate (mean 1/rate): the gap between Poisson arrivals. */
  exponential(rate: number): number;
  /** `length` upper-case hex digits. */
  hex(length: number): string;
  /** A new generator whose stream depends on this one's seed and `salt` (one per machine). */
  fork(salt: number): Random;
}

export function mulberry32(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Mixes two 32-bit numbers so that forks of neighbouring salts do not produce correlated streams. */
function mix(seed: number, salt: number): number {
  let h = Math.imul(seed ^ 0x9e3779b9, 0x85ebca6b) ^ Math.imul(salt + 0x27d4eb2f, 0xc2b2ae35);
  h ^= h >>> 16;
  h = Math.imul(h, 0x7feb352d);
  h ^= h >>> 15;
  return h >>> 0;
}

export function createRandom(seed: number = randomSeed()): Random {
  const next = mulberry32(seed);
  const random: Random = {
    next,
    int: (min, max) => min + Math.floor(next() * (max - min + 1)),
    weighted: (choices) => {
      const total = choices.reduce((sum, [, w]) => sum + w, 0);
      let r = next() * total;
      for (const [value, w] of choices) {
        r -= w;
        if (r < 0) return value;
      }
      return choices[choices.length - 1]![0];
    },
    pick: (items) => items[Math.floor(next() * items.length)]!,
    // 1 - next() is in (0, 1], so the log is finite.
    exponential: (rate) => -Math.log(1 - next()) / rate,
    hex: (length) => {
      let out = '';
      while (out.length < length) out += Math.floor(next() * 16).toString(16);
      return out.toUpperCase();
    },
    fork: (salt) => createRandom(mix(seed, salt)),
  };
  return random;
}

export function randomSeed(): number {
  return Math.floor(Math.random() * 4294967296) >>> 0;
}
