import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { mkdirSync, writeFileSync } from 'node:fs';
import { coveringSeeds, FAULT_KINDS, planRun, withFaults, type FaultSpec } from './fault-plan.js';
import { runOnce, type RunResult } from './soak-run.js';
import { replayCommand, runLine, summarize, summaryLines } from './soak-report.js';
import { SoakCluster } from './soak-cluster.js';
import { SoakStage } from './soak-stage.js';

/**
 * The fault suite (README.md, "Fault suite"): the whole system as separate processes, the fleet selling over MQTT,
 * money moving over HTTP, and seeded random faults. `npm test` runs a few seeds that together try
 * every fault kind; `npm run soak` runs SOAK_RUNS (100) seeds; `SOAK_SEED=n npm run soak` replays one.
 * `SOAK_PLAN='[{"kind":"blackhole-pg","gapMs":2000,"durationMs":3000,"end":"drop"}]'` runs one
 * hand-made list of faults (FaultSpec) instead of the seeded plan's.
 */
const handMade = process.env.SOAK_PLAN ? (JSON.parse(process.env.SOAK_PLAN) as FaultSpec[]) : undefined;
const replaySeed = process.env.SOAK_SEED ? Number(process.env.SOAK_SEED) : handMade ? 1 : undefined;
const planOf = (seed: number) => (handMade ? withFaults(planRun(seed), handMade) : planRun(seed));
const runs = replaySeed !== undefined ? 1 : Number(process.env.SOAK_RUNS ?? 3);
const SHORT_BASE_SEED = 20_251_121;
const baseSeed = Number(process.env.SOAK_BASE_SEED ?? (runs <= 3 ? SHORT_BASE_SEED : Date.now() % 1_000_000_000));
const seeds =
  replaySeed !== undefined
    ? [replaySeed]
    : runs <= 3
      ? coveringSeeds(baseSeed, runs)
      : Array.from({ length: runs }, (_, i) => baseSeed + i);

const say = (line: string) => process.stdout.write(`${line}\n`);
/** A run takes about a minute; the budget leaves room for a slow machine. */
const timeoutMs = 180_000 + seeds.length * 240_000;

describe('fault plans', () => {
  it('are a function of the seed alone, so that a failing seed replays', () => {
    expect(planRun(1234)).toEqual(planRun(1234));
    expect(planRun(1234)).not.toEqual(planRun(1235));
  });

  it('give every run at least 10,000 operations and two to five distinct faults', () => {
    for (let seed = 1; seed <= 500; seed++) {
      const plan = planRun(seed);
      expect(plan.sales + plan.moneyCalls).toBeGreaterThanOrEqual(10_000);
      expect(plan.faults.length).toBeGreaterThanOrEqual(2);
      expect(plan.faults.length).toBeLessThanOrEqual(5);
      expect(new Set(plan.faults.map((f) => f.kind)).size).toBe(plan.faults.length);
    }
  });

  it('of the short soak try every fault kind', () => {
    const kinds = new Set(coveringSeeds(SHORT_BASE_SEED, 3).flatMap((s) => planRun(s).faults.map((f) => f.kind)));
    expect([...kinds].sort()).toEqual([...FAULT_KINDS].sort());
  });
});

describe('the system survives seeded faults', () => {
  let cluster: SoakCluster;

  beforeAll(async () => {
    const started = Date.now();
    cluster = await SoakCluster.create({ machines: 20, attendants: 4, alarmMachines: 3 });
    const listed = seeds.length <= 5 ? seeds.join(', ') : `${seeds[0]} to ${seeds[seeds.length - 1]}`;
    say(
      `soak: cluster ready in ${((Date.now() - started) / 1000).toFixed(1)} s; ${seeds.length} run(s), seeds ${listed}`,
    );
  }, 180_000);

  afterAll(async () => {
    await cluster?.destroy();
  });

  it(
    `loses no PUBACKed sale or alarm message, breaks no invariant and serves again within 10 s in ${seeds.length} seeded run(s)`,
    async () => {
      const started = Date.now();
      const results: RunResult[] = [];
      let stage: SoakStage | undefined;
      try {
        for (const [i, seed] of seeds.entries()) {
          stage ??= await SoakStage.open(cluster);
          const result = await runOnce(cluster, stage, planOf(seed));
          results.push(result);
          say(runLine(i + 1, seeds.length, result));
          if (result.failures.length) {
            say(`soak: seed ${seed} failed; replay it with: ${replayCommand(seed)}`);
            for (const failure of result.failures) say(`soak:   ${failure}`);
            // Whatever broke stays with that run: the next one gets a new database and new processes.
            await stage.close();
            stage = undefined;
          }
        }
      } finally {
        await stage?.close();
      }
      const summary = summarize(results, Date.now() - started);
      mkdirSync('.tmp/soak', { recursive: true });
      writeFileSync('.tmp/soak/latest.json', JSON.stringify({ seeds, ...summary }, null, 2));
      for (const line of summaryLines(summary)) say(line);

      expect(summary.failedRuns).toEqual([]);
      expect(summary.lost + summary.duplicated + summary.invariantViolations).toBe(0);
      expect(summary.notifications.lost + summary.notifications.duplicated).toBe(0);
      expect(results.every((r) => r.sales + r.moneyCalls >= 10_000)).toBe(true);
    },
    timeoutMs,
  );
});
