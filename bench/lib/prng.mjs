// A small seeded PRNG (mulberry32) for the fuzzers: a run is replayed exactly from its printed seed.

/** A random seed for a run, printed so that a failing run can be replayed with FUZZ_SEED. */
export function freshSeed() {
  return Math.floor(Math.random() * 2 ** 31);
}

export function createRandom(seed) {
  let state = seed >>> 0;
  const next = () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const int = (n) => Math.floor(next() * n);
  const rng = {
    seed,
    next,
    /** 0 ≤ x < n */
    int,
    /** min ≤ x ≤ max */
    range: (min, max) => min + int(max - min + 1),
    chance: (p) => next() < p,
    pick: (items) => items[int(items.length)],
    /** Picks from [[weight, value], …]. */
    weighted: (entries) => {
      const total = entries.reduce((sum, [w]) => sum + w, 0);
      let x = next() * total;
      for (const [w, value] of entries) {
        if ((x -= w) < 0) return value;
      }
      return entries[entries.length - 1][1];
    },
    bytes: (n) => {
      const out = Buffer.alloc(n);
      for (let i = 0; i < n; i++) out[i] = int(256);
      return out;
    },
    /** Printable ASCII of length n. */
    ascii: (n) => Array.from({ length: n }, () => String.fromCharCode(32 + int(95))).join(''),
    alnum: (n) => Array.from({ length: n }, () => ALNUM[int(ALNUM.length)]).join(''),
    /** An independent stream, so that one consumer's draws do not shift another's. */
    fork: () => createRandom(int(2 ** 31) ^ seed),
  };
  return rng;
}

const ALNUM = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';
