import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { mkdirSync, writeFileSync } from 'node:fs';
import { mosquittoAvailable } from '../support/mosquitto-instance.js';
import {
  coveringSeeds,
  faultKinds,
  MQTT_MODES,
  planRun,
  withFaults,
  type FaultSpec,
  type MqttMode,
} from './fault-plan.js';
import { runOnce, type RunResult } from './soak-run.js';
import { replayCommand, runLine, summarize, summaryLines, type SoakSummary } from './soak-report.js';
import { SoakCluster } from './soak-cluster.js';
import { SoakStage } from './soak-stage.js';

/**
 * The fault suite (README.md, "Fault suite"): the whole system as separate processes, the fleet selling over MQTT,
 * money moving over HTTP, and seeded random faults. `npm test` runs a few seeds that together try
 * every fault kind; `npm run soak` runs SOAK_RUNS (100) seeds; `SOAK_SEED=n npm run soak` replays one.
 * `SOAK_PLAN='[{"kind":"blackhole-pg","gapMs":2000,"durationMs":3000,"end":"drop"}]'` runs one
 * hand-made list of faults (FaultSpec) instead of the seeded plan's.
 *
 * `SOAK_MQTT_MODE` chooses how the machines reach the program (docs/external-mqtt.md): `embedded` (its own
 * broker), `external` (a Mosquitto of the suite's own, the program its client) or `both`, one after the other on
 * one PostgreSQL cluster and Redis. The short run (`npm test`) runs both unless told; `npm run soak` and a replay
 * run `embedded` unless told. A mode plans from its own fault kinds (external mode adds restart-broker), so a seed
 * replays in the mode it ran in.
 */
const handMade = process.env.SOAK_PLAN ? (JSON.parse(process.env.SOAK_PLAN) as FaultSpec[]) : undefined;
const replaySeed = process.env.SOAK_SEED ? Number(process.env.SOAK_SEED) : handMade ? 1 : undefined;
const planOf = (seed: number, mode: MqttMode) =>
  handMade ? withFaults(planRun(seed, mode), handMade) : planRun(seed, mode);
const runs = replaySeed !== undefined ? 1 : Number(process.env.SOAK_RUNS ?? 3);
const short = replaySeed === undefined && runs <= 3;
const SHORT_BASE_SEED = 20_251_121;
const baseSeed = Number(process.env.SOAK_BASE_SEED ?? (short ? SHORT_BASE_SEED : Date.now() % 1_000_000_000));
const seedsOf = (mode: MqttMode) =>
  replaySeed !== undefined
    ? [replaySeed]
    : short
      ? coveringSeeds(baseSeed, runs, mode)
      : Array.from({ length: runs }, (_, i) => baseSeed + i);

const modeAsked = process.env.SOAK_MQTT_MODE;
if (modeAsked !== undefined && !['embedded', 'external', 'both'].includes(modeAsked)) {
  throw new Error(`SOAK_MQTT_MODE is embedded, external or both, not ${modeAsked}`);
}
// Unasked, the short run takes both modes and the long one the embedded broker.
const modeChosen = modeAsked ?? (short ? 'both' : 'embedded');
const modes: MqttMode[] = modeChosen === 'both' ? [...MQTT_MODES] : [modeChosen as MqttMode];
// Debian's mosquitto package is part of this machine kind (docs/operations.md, "Toolchain notes"). Without it the
// external mode is skipped with a warning when it was not asked for, and fails when it was.
const withoutMosquitto = modes.includes('external') && !mosquittoAvailable() && modeAsked === undefined;
if (withoutMosquitto) {
  console.warn('soak: /usr/sbin/mosquitto with its dynamic-security plugin is missing; the external mode is skipped');
}

const say = (line: string) => process.stdout.write(`${line}\n`);
/** A run takes about a minute; the budget leaves room for a slow machine. */
const timeoutOf = (seeds: number[]) => 180_000 + seeds.length * 240_000;

describe('fault plans', () => {
  it('are a function of the seed and the mode alone, so that a failing seed replays', () => {
    for (const mode of MQTT_MODES) {
      expect(planRun(1234, mode)).toEqual(planRun(1234, mode));
      expect(planRun(1234, mode)).not.toEqual(planRun(1235, mode));
    }
  });

  it('give every run at least 10,000 operations and two to five distinct faults of its mode', () => {
    for (const mode of MQTT_MODES) {
      for (let seed = 1; seed <= 500; seed++) {
        const plan = planRun(seed, mode);
        expect(plan.sales + plan.moneyCalls).toBeGreaterThanOrEqual(10_000);
        expect(plan.faults.length).toBeGreaterThanOrEqual(2);
        expect(plan.faults.length).toBeLessThanOrEqual(5);
        expect(new Set(plan.faults.map((f) => f.kind)).size).toBe(plan.faults.length);
        expect(plan.faults.every((f) => faultKinds(mode).includes(f.kind))).toBe(true);
      }
    }
  });

  it('of the short soak try every fault kind, in each mode', () => {
    for (const mode of MQTT_MODES) {
      const seeds = coveringSeeds(SHORT_BASE_SEED, 3, mode);
      const kinds = new Set(seeds.flatMap((s) => planRun(s, mode).faults.map((f) => f.kind)));
      expect([...kinds].sort()).toEqual([...faultKinds(mode)].sort());
    }
  });
});

describe('the system survives seeded faults', () => {
  let cluster: SoakCluster;
  const summaries: Partial<Record<MqttMode, SoakSummary & { seeds: number[] }>> = {};

  beforeAll(async () => {
    const started = Date.now();
    cluster = await SoakCluster.create({ machines: 20, attendants: 4, alarmMachines: 3 });
    const listed = modes.map((mode) => {
      const seeds = seedsOf(mode);
      return `${mode} mode: ${seeds.length} run(s), seeds ${seeds.length <= 5 ? seeds.join(', ') : `${seeds[0]} to ${seeds[seeds.length - 1]}`}`;
    });
    say(`soak: cluster ready in ${((Date.now() - started) / 1000).toFixed(1)} s; ${listed.join('; ')}`);
  }, 180_000);

  afterAll(async () => {
    await cluster?.destroy();
  });

  for (const mode of modes) {
    const seeds = seedsOf(mode);
    const test = mode === 'external' && withoutMosquitto ? it.skip : it;
    test(
      `loses no PUBACKed sale or alarm message, breaks no invariant and serves again within 10 s in ${seeds.length} seeded run(s) with the ${mode} MQTT broker`,
      async () => {
        const started = Date.now();
        const results: RunResult[] = [];
        let stage: SoakStage | undefined;
        try {
          for (const [i, seed] of seeds.entries()) {
            stage ??= await SoakStage.open(cluster, mode);
            const result = await runOnce(cluster, stage, planOf(seed, mode));
            results.push(result);
            say(runLine(i + 1, seeds.length, result));
            if (result.failures.length) {
              say(`soak: seed ${seed} failed; replay it with: ${replayCommand(seed, mode)}`);
              for (const failure of result.failures) say(`soak:   ${failure}`);
              // Whatever broke stays with that run: the next one gets a new database and new processes.
              await stage.close();
              stage = undefined;
            }
          }
        } finally {
          await stage?.close();
        }
        const summary = summarize(results, Date.now() - started, mode);
        summaries[mode] = { seeds, ...summary };
        mkdirSync('.tmp/soak', { recursive: true });
        writeFileSync('.tmp/soak/latest.json', JSON.stringify(summaries, null, 2));
        for (const line of summaryLines(summary)) say(line);

        expect(summary.failedRuns).toEqual([]);
        expect(summary.lost + summary.duplicated + summary.invariantViolations).toBe(0);
        expect(summary.notifications.lost + summary.notifications.duplicated).toBe(0);
        expect(results.every((r) => r.sales + r.moneyCalls >= 10_000)).toBe(true);
      },
      timeoutOf(seeds),
    );
  }
});
