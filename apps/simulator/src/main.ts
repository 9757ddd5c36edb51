#!/usr/bin/env node
/** `npm run simulate -- --machines N --rate R --url mqtt://HOST:PORT` (docs/operations.md, "Commands"). */
import { CliArgsError, parseCliArgs, USAGE, type CliArgs } from './cli-args.js';
import { loadFaultSteps, loadFleetOptions } from './cli-config.js';
import { FAULTS } from './fault.js';
import { FaultScheduler } from './fault-scheduler.js';
import { Fleet } from './fleet.js';
import type { FleetStats } from './fleet.types.js';
import type { Machine } from './machine.js';
import { formatSummary } from './summary.js';

const SUMMARY_EVERY_S = 10;
const START_TIMEOUT_MS = 15_000;
const DRAIN_ON_EXIT_MS = 5_000;
const FAIL_FAST_MS = 2_000;
const MAX_REFUSAL_LINES = 3;

function fail(message: string): never {
  console.error(`simulate: ${message}`);
  process.exit(1);
}

function describe(m: Machine): string {
  return m.espId ?? m.macAddress;
}

function wireLogs(fleet: Fleet, args: CliArgs): void {
  const refusedOnce = new Set<Machine>();
  fleet.on('waiting', (m) => {
    console.log(`waiting for an id: ${m.macAddress} (assign one with POST /api/assign_id)`);
  });
  fleet.on('provisioned', (m, c) => console.log(`${m.macAddress} is now ${c.espId}`));
  fleet.on('fault', (m, kind, on) =>
    console.log(
      on ? `fault ${kind} on ${describe(m)}: ${FAULTS[kind].effect}` : `fault ${kind} on ${describe(m)} ended`,
    ),
  );
  fleet.on('refused', (m, err) => {
    if (refusedOnce.has(m)) return;
    refusedOnce.add(m);
    // A whole fleet with wrong keys would print a screenful; three examples say enough.
    if (refusedOnce.size === MAX_REFUSAL_LINES + 1) console.error('more machines refused; not listing each');
    if (refusedOnce.size > MAX_REFUSAL_LINES) return;
    const hint = args.machinesFile || args.provision ? '' : ' (generated ids: use --machines-file or --provision)';
    console.error(`${describe(m)} refused by the broker: ${err.message}${hint}`);
  });
}

/**
 * `--offline-after` / `--offline-for`: one partition of the whole fleet. Every machine loses its connection
 * at once (the will fires), sells on into flash, and reconnects when it ends. Returns what cancels it.
 */
function schedulePartition(fleet: Fleet, args: CliArgs): () => void {
  if (args.offlineAfterSeconds === undefined) return () => undefined;
  const timers: NodeJS.Timeout[] = [];
  const forSeconds = args.offlineForSeconds;
  timers.push(
    setTimeout(() => {
      for (const m of fleet.machines) m.cutOff();
      console.log(`partition: every machine is off the network for ${forSeconds} s and sells into flash`);
      timers.push(
        setTimeout(() => {
          const queued = fleet.stats().outbox;
          for (const m of fleet.machines) m.reconnect();
          console.log(`partition over: the machines reconnect and send ${queued} sales from flash, oldest first`);
        }, forSeconds * 1000),
      );
    }, args.offlineAfterSeconds * 1000),
  );
  return () => timers.forEach(clearTimeout);
}

/**
 * Rejects when, after a short grace, no machine got through and every one has failed: a wrong URL
 * or a broker that is down should not take the full start timeout to report.
 */
async function failFastWhenUnreachable(fleet: Fleet): Promise<never> {
  const started = Date.now();
  for (;;) {
    await new Promise((r) => setTimeout(r, 250));
    const s = fleet.stats();
    if (s.online > 0 || s.awaitingId > 0) return new Promise<never>(() => undefined);
    const errors = fleet.machines.map((m) => m.lastError);
    if (Date.now() - started >= FAIL_FAST_MS && errors.every((e) => e !== null)) throw new Error(errors[0]!);
  }
}

async function main(): Promise<void> {
  let args: CliArgs;
  try {
    args = parseCliArgs(process.argv.slice(2));
  } catch (err) {
    fail(`${(err as Error).message} (see --help)`);
  }
  if (args.help) {
    console.log(USAGE);
    return;
  }
  let fleet: Fleet;
  try {
    fleet = new Fleet({ ...(await loadFleetOptions(args)), log: (line) => console.error(line) });
  } catch (err) {
    fail(err instanceof CliArgsError ? err.message : `cannot build the fleet: ${(err as Error).message}`);
  }
  let faults: FaultScheduler<Machine>;
  try {
    const steps = await loadFaultSteps(
      args,
      fleet.machines.length,
      args.provision ? null : fleet.machines.map((m) => m.espId!),
    );
    faults = new FaultScheduler(steps, (ref) => fleet.resolve(ref), {
      missing: (step) => console.error(`fault ${step.kind} skipped: machine ${step.machine} has no ESP ID yet`),
    });
  } catch (err) {
    fail(err instanceof CliArgsError ? err.message : `cannot read the faults: ${(err as Error).message}`);
  }
  wireLogs(fleet, args);
  const curve = args.dayCurve ? ` (24-hour mean, busier 06-09 and 17-20 ${args.timeZone})` : '';
  console.log(
    `simulating ${fleet.machines.length} machines at ${fleet.rate} sales/s${curve} against ${args.url}, seed ${fleet.seed}`,
  );
  if (args.telemetrySeconds > 0) console.log(`each machine sends telemetry every ${args.telemetrySeconds} s`);
  for (const line of faults.describe()) console.log(`scheduled fault: ${line}`);
  if (args.offlineAfterSeconds !== undefined) {
    console.log(
      `scheduled partition: every machine offline ${args.offlineAfterSeconds} s after the start, for ${args.offlineForSeconds} s`,
    );
  }

  try {
    await Promise.race([fleet.start(START_TIMEOUT_MS), failFastWhenUnreachable(fleet)]);
  } catch (err) {
    const s = fleet.stats();
    if (s.online === 0 && s.awaitingId === 0) {
      await fleet.stop();
      fail(`cannot use the broker at ${args.url}: ${(err as Error).message}`);
    }
    console.error(`warning: ${(err as Error).message}; they keep retrying`);
  }

  faults.start();
  const cancelPartition = schedulePartition(fleet, args);
  let previous: FleetStats = fleet.stats();
  const summary = setInterval(() => {
    const now = fleet.stats();
    console.log(formatSummary(now, new Date(), previous, SUMMARY_EVERY_S));
    previous = now;
  }, SUMMARY_EVERY_S * 1000);

  let stopping = false;
  const shutdown = async (reason: string) => {
    if (stopping) {
      console.error('stopping now, without waiting for acks');
      process.exit(130);
    }
    stopping = true;
    clearInterval(summary);
    faults.stop();
    cancelPartition();
    fleet.pauseSelling();
    // Machines still waiting for an id cannot deliver anything: no point waiting for them alone.
    if (fleet.machines.some((m) => m.espId !== null)) {
      console.log(`${reason}: waiting up to ${DRAIN_ON_EXIT_MS / 1000} s for the last sales/ack…`);
      try {
        await fleet.drain(DRAIN_ON_EXIT_MS);
      } catch (err) {
        console.error(`warning: ${(err as Error).message}`);
      }
    }
    console.log(formatSummary(fleet.stats()));
    await fleet.stop();
    process.exit(0);
  };
  process.on('SIGINT', () => void shutdown('interrupted'));
  process.on('SIGTERM', () => void shutdown('terminated'));
  if (args.durationSeconds !== undefined) {
    setTimeout(() => void shutdown(`${args.durationSeconds} s elapsed`), args.durationSeconds * 1000);
  }
}

void main();
