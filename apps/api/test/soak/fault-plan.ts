import { createRandom, type Random } from '@wv/simulator';

/**
 * What the soak can break. Processes: SIGKILL of the api/broker process or of the worker process,
 * restarted by the supervisor after a delay; or of the worker while the SMTP server or the SMS API
 * holds a message it took and has not yet answered (the window between sending and recording).
 * Servers: Redis killed or shut down and started again (its append-only file keeps what it
 * acknowledged), PostgreSQL stopped (fast or immediate) and started again, the SMTP server stopped,
 * the SMS API stopped or answering 503. Network, through the proxies between the program and
 * PostgreSQL or Redis: added latency, every connection reset, or traffic held (blackholed) and then
 * healed or reset; and a partition of half the fleet from the broker (blackholed, FIN and RST
 * included, so both sides only learn of it from MQTT keepalives). In external MQTT mode also the
 * external broker restarted (EXTERNAL_FAULT_KINDS).
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
  'partition-mqtt',
  'stop-smtp',
  'fail-sms',
  'kill-worker-sending',
] as const;

/**
 * How the machines reach the program (docs/external-mqtt.md): `embedded`, its own Aedes broker; `external`, a
 * Mosquitto of the run's own (dynamic security, persistence) whose device topics the program consumes through
 * MQTT 5 shared subscriptions, acknowledging a sale to Mosquitto only once it is durable in Redis.
 */
export type MqttMode = 'embedded' | 'external';
export const MQTT_MODES: readonly MqttMode[] = ['embedded', 'external'];

/**
 * External mode adds the realistic broker failure of that mode: Mosquitto killed (SIGKILL: what it did not save is
 * gone, and the machines send again what got no sales/ack) or shut down (SIGTERM: it saves its sessions), and
 * started again on the same port with the same persistence and dynamic-security files. The embedded kinds keep
 * their order, so that an embedded seed plans what it always planned.
 */
export const EXTERNAL_FAULT_KINDS = [...FAULT_KINDS, 'restart-broker'] as const;
export type FaultKind = (typeof EXTERNAL_FAULT_KINDS)[number];

/** The fault kinds of a mode. */
export function faultKinds(mode: MqttMode): readonly FaultKind[] {
  return mode === 'external' ? EXTERNAL_FAULT_KINDS : FAULT_KINDS;
}

export interface FaultSpec {
  kind: FaultKind;
  /** Quiet time before the fault, after the previous fault's recovery (or the start of the load). */
  gapMs: number;
  /** How long the fault lasts: downtime, latency or blackhole time (0 for a reset). */
  durationMs: number;
  /** restart-redis and restart-broker: how the server goes down; restart-pg: pg_ctl's shutdown mode. */
  stop?: 'SIGKILL' | 'SIGTERM' | 'fast' | 'immediate';
  /** latency-*: added to every chunk in each direction. */
  latencyMs?: number;
  /**
   * blackhole-*: how the blackhole ends: traffic resumes, every held connection is reset, or (only
   * in hand-made plans) every held connection is silently abandoned.
   */
  end?: 'heal' | 'reset' | 'drop';
  /** partition-mqtt: which half of the fleet is cut off (each reaches the broker through its own proxy). */
  group?: MachineGroup;
  /** fail-sms: the API does not answer connections, or answers 503 without taking the message. */
  sms?: 'stopped' | '5xx';
  /** kill-worker-sending: whose server holds the message when the worker is killed. */
  channel?: 'email' | 'sms';
}

export type MachineGroup = 'a' | 'b';

/**
 * The machines' MQTT keepalive in the soak, in seconds. In the field a machine uses about 30 s
 * (the simulator's default), so a partition of minutes is a few keepalive periods; the soak keeps
 * the ratio and shrinks the clock: a partition of 3 to 6 periods (6–12 s here) runs the same code
 * (PINGREQ unanswered, the client's and the broker's keepalive timeouts, session takeover on the
 * reconnect, the outbox's backlog flush) as 1.5–3 minutes at 30 s.
 */
export const MACHINE_KEEPALIVE_S = 2;

export interface RunPlan {
  seed: number;
  /** The plan's faults are drawn from this mode's kinds; the run uses this mode. */
  mode: MqttMode;
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
    case 'restart-broker':
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
    case 'partition-mqtt': {
      // Mostly several keepalive periods (both sides give the connection up); now and then under
      // one and a half (the connection survives and the held packets arrive late).
      const k = MACHINE_KEEPALIVE_S * 1000;
      const durationMs = rng.next() < 0.75 ? between(rng, 3 * k, 6 * k) : between(rng, k / 2, (6 * k) / 5);
      const group: MachineGroup = rng.next() < 0.5 ? 'a' : 'b';
      return { kind, gapMs, durationMs, end: rng.next() < 0.5 ? 'heal' : 'reset', group };
    }
    case 'stop-smtp':
      return { kind, gapMs, durationMs: between(rng, 1_000, 5_000) };
    case 'fail-sms':
      return { kind, gapMs, durationMs: between(rng, 1_000, 5_000), sms: rng.next() < 0.5 ? 'stopped' : '5xx' };
    case 'kill-worker-sending':
      return { kind, gapMs, durationMs: between(rng, 0, 1_000), channel: rng.next() < 0.5 ? 'email' : 'sms' };
  }
}

/** About how long a fault takes from its gap to a measured recovery (the restart or the probe's commit). */
const RECOVERY_ALLOWANCE_MS = 1_500;

/**
 * Faults per run: with 14 kinds (15 in external mode), three runs of up to five cover them all (the short soak in
 * `npm test`, in each mode).
 */
export const MIN_FAULTS = 2;
export const MAX_FAULTS = 5;

/** Everything a run does, from its seed alone: `SOAK_SEED=n` replays the same faults and workload. */
export function planRun(seed: number, mode: MqttMode = 'embedded', sizes: PlanSizes = DEFAULT_SIZES): RunPlan {
  const rng = createRandom(seed);
  const count = between(rng, MIN_FAULTS, MAX_FAULTS);
  const kinds = [...faultKinds(mode)];
  const faults: FaultSpec[] = [];
  for (let i = 0; i < count; i++) {
    const [kind] = kinds.splice(between(rng, 0, kinds.length - 1), 1);
    faults.push(faultOf(kind!, rng));
  }
  return withFaults(
    { seed, mode, workloadSeed: rng.int(1, 2 ** 31 - 1), ...sizes, loadMs: sizes.loadMs, faults },
    faults,
  );
}

/** The plan with other faults (a hand-made plan, `SOAK_PLAN`); the load lasts as long as they do. */
export function withFaults(plan: RunPlan, faults: FaultSpec[], sizes: PlanSizes = DEFAULT_SIZES): RunPlan {
  // The load lasts as long as the faults, so that every fault hits a system under load.
  const span = faults.reduce((ms, f) => ms + f.gapMs + f.durationMs + RECOVERY_ALLOWANCE_MS, 0);
  return { ...plan, loadMs: Math.max(sizes.loadMs, span), faults };
}

/**
 * Seeds from `base` whose plans together hold every fault kind in `runs` runs: the short soak in
 * `npm test` stays small and still tries everything (a partition long enough for the keepalives to
 * give the connections up). Of the first covers found it takes the one with
 * the least planned fault time (gaps and durations), so that it stays short too. Deterministic for a
 * given base.
 */
export function coveringSeeds(
  base: number,
  runs: number,
  mode: MqttMode = 'embedded',
  sizes: PlanSizes = DEFAULT_SIZES,
): number[] {
  const kinds = faultKinds(mode);
  const all = (1 << kinds.length) - 1;
  const bits = (n: number) => n.toString(2).replace(/0/g, '').length;
  const plans = Array.from({ length: 3_000 }, (_, i) => planRun(base + i, mode, sizes));
  // A partition counts only when it outlasts the keepalives (both sides give the connection up): the
  // case the short soak must not miss.
  const counts = (f: FaultSpec) => f.kind !== 'partition-mqtt' || f.durationMs >= 3 * MACHINE_KEEPALIVE_S * 1000;
  const masks = plans.map((p) => p.faults.reduce((m, f) => (counts(f) ? m | (1 << kinds.indexOf(f.kind)) : m), 0));
  const spans = plans.map((p) => p.faults.reduce((ms, f) => ms + f.gapMs + f.durationMs, 0));
  const CANDIDATES = 50;
  const covers: number[][] = [];
  const search = (chosen: number[], covered: number, from: number): void => {
    if (covers.length >= CANDIDATES) return;
    if (covered === all) {
      covers.push(chosen);
      return;
    }
    const slotsLeft = runs - chosen.length;
    if (slotsLeft === 0) return;
    const missing = bits(all & ~covered);
    for (let i = from; i < masks.length && covers.length < CANDIDATES; i++) {
      const fresh = bits(masks[i]! & ~covered);
      // A run adds at most MAX_FAULTS kinds: skip seeds after which the rest cannot complete the cover.
      if (fresh === 0 || fresh + (slotsLeft - 1) * MAX_FAULTS < missing) continue;
      search([...chosen, i], covered | masks[i]!, i + 1);
    }
  };
  search([], 0, 0);
  if (!covers.length) throw new Error(`no ${runs} seeds from ${base} cover every fault kind of ${mode} mode`);
  const span = (cover: number[]) => cover.reduce((ms, i) => ms + spans[i]!, 0);
  const best = covers.reduce((a, b) => (span(b) < span(a) ? b : a));
  return best.map((i) => base + i);
}
