import { createRandom, type Random } from '@wv/simulator';

/**
 * What the soak can break. Processes: SIGKILL of the api/broker process or of the worker process,
 * restarted by the supervisor after a delay. Servers: Redis killed or shut down and started again
 * (its append-only file keeps what it acknowledged), PostgreSQL stopped (fast or immediate) and
 * started again. Network, through the proxies between the program and PostgreSQL or Redis: added
 * latency, every connection reset, or traffic held (blackholed) and then healed or reset.
 */
export const FAULT_KINDS = [
  'kill-api',
  'kill-worker',
  'restart-redis',
  'restart-pg',
  'latency-pg',
  'latency-redis',
  'reset-pg',
  'reset-redis',
  'blackhole-pg',
  'blackhole-redis',
] as const;
export type FaultKind = (typeof FAULT_KINDS)[number];

export interface FaultSpec {
  kind: FaultKind;
  /** Quiet time before the fault, after the previous fault's recovery (or the start of the load). */
  gapMs: number;
  /** How long the fault lasts: downtime, latency or blackhole time (0 for a reset). */
  durationMs: number;
  /** restart-redis: how Redis goes down; restart-pg: pg_ctl's shutdown mode. */
  stop?: 'SIGKILL' | 'SIGTERM' | 'fast' | 'immediate';
  /** latency-*: added to every chunk in each direction. */
  latencyMs?: number;
  /**
   * blackhole-*: how the blackhole ends: traffic resumes, every held connection is reset, or (only
   * in hand-made plans) every held connection is silently abandoned.
   */
  end?: 'heal' | 'reset' | 'drop';
}

export interface RunPlan {
  seed: number;
  /** Seeds the fleet's machines (sale mix) and the money workload. */
  workloadSeed: number;
  sales: number;
  moneyCalls: number;
  /** The sales and money calls are spread over this long: at least the sizes' loadMs, or the faults' span. */
  loadMs: number;
  faults: FaultSpec[];
}

export interface PlanSizes {
  sales: number;
  moneyCalls: number;
  loadMs: number;
}

export const DEFAULT_SIZES: PlanSizes = { sales: 9_600, moneyCalls: 400, loadMs: 8_000 };

function between(rng: Random, min: number, max: number): number {
  return rng.int(min, max);
}

function faultOf(kind: FaultKind, rng: Random): FaultSpec {
  const gapMs = between(rng, 300, 1_500);
  switch (kind) {
    case 'kill-api':
    case 'kill-worker':
      return { kind, gapMs, durationMs: between(rng, 0, 1_000) };
    case 'restart-redis':
      return { kind, gapMs, durationMs: between(rng, 300, 2_000), stop: rng.next() < 0.5 ? 'SIGKILL' : 'SIGTERM' };
    case 'restart-pg':
      return { kind, gapMs, durationMs: between(rng, 300, 2_500), stop: rng.next() < 0.5 ? 'fast' : 'immediate' };
    case 'latency-pg':
    case 'latency-redis':
      return { kind, gapMs, durationMs: between(rng, 1_000, 3_000), latencyMs: between(rng, 20, 150) };
    case 'reset-pg':
    case 'reset-redis':
      return { kind, gapMs, durationMs: 0 };
    case 'blackhole-pg':
    case 'blackhole-redis': {
      // Now and then longer than BullMQ's job lock (10 s) and the pool's connect timeout (5 s).
      const durationMs = rng.next() < 0.3 ? between(rng, 8_000, 12_000) : between(rng, 1_000, 4_000);
      return { kind, gapMs, durationMs, end: rng.next() < 0.5 ? 'heal' : 'reset' };
    }
  }
}

/** About how long a fault takes from its gap to a measured recovery (the restart or the probe's commit). */
const RECOVERY_ALLOWANCE_MS = 1_500;

/** Everything a run does, from its seed alone: `SOAK_SEED=n` replays the same faults and workload. */
export function planRun(seed: number, sizes: PlanSizes = DEFAULT_SIZES): RunPlan {
  const rng = createRandom(seed);
  const count = between(rng, 2, 4);
  const kinds = [...FAULT_KINDS];
  const faults: FaultSpec[] = [];
  for (let i = 0; i < count; i++) {
    const [kind] = kinds.splice(between(rng, 0, kinds.length - 1), 1);
    faults.push(faultOf(kind!, rng));
  }
  return withFaults({ seed, workloadSeed: rng.int(1, 2 ** 31 - 1), ...sizes, loadMs: sizes.loadMs, faults }, faults);
}

/** The plan with other faults (a hand-made plan, `SOAK_PLAN`); the load lasts as long as they do. */
export function withFaults(plan: RunPlan, faults: FaultSpec[], sizes: PlanSizes = DEFAULT_SIZES): RunPlan {
  // The load lasts as long as the faults, so that every fault hits a system under load.
  const span = faults.reduce((ms, f) => ms + f.gapMs + f.durationMs + RECOVERY_ALLOWANCE_MS, 0);
  return { ...plan, loadMs: Math.max(sizes.loadMs, span), faults };
}

/**
 * The first seeds from `base` on whose plans together hold every fault kind in `runs` runs: the short
 * soak in `npm test` stays small and still tries everything. Deterministic for a given base.
 */
export function coveringSeeds(base: number, runs: number, sizes: PlanSizes = DEFAULT_SIZES): number[] {
  const all = (1 << FAULT_KINDS.length) - 1;
  const bits = (n: number) => n.toString(2).replace(/0/g, '').length;
  const masks = Array.from({ length: 3_000 }, (_, i) =>
    planRun(base + i, sizes).faults.reduce((m, f) => m | (1 << FAULT_KINDS.indexOf(f.kind)), 0),
  );
  const search = (chosen: number[], covered: number, from: number): number[] | null => {
    if (covered === all) return chosen;
    const slotsLeft = runs - chosen.length;
    if (slotsLeft === 0) return null;
    const missing = bits(all & ~covered);
    for (let i = from; i < masks.length; i++) {
      const fresh = bits(masks[i]! & ~covered);
      // A run adds at most 4 kinds: skip seeds after which the rest cannot complete the cover.
      if (fresh === 0 || fresh + (slotsLeft - 1) * 4 < missing) continue;
      const found = search([...chosen, base + i], covered | masks[i]!, i + 1);
      if (found) return found;
    }
    return null;
  };
  const seeds = search([], 0, 0);
  if (!seeds) throw new Error(`no ${runs} seeds from ${base} cover every fault kind`);
  return seeds;
}
