import type { Sale } from '@wv/contracts';
import { createRandom, Fleet, type Machine } from '@wv/simulator';
import { mkdirSync, writeFileSync } from 'node:fs';
import type pg from 'pg';
import { HttpClient } from '../support/http-client.js';
import { waitUntilStored } from '../support/sales-invariants.js';
import { AlarmWorkload } from './alarm-workload.js';
import { FaultInjector, type FaultOutcome } from './fault-injector.js';
import { MACHINE_KEEPALIVE_S, type MachineGroup, type RunPlan } from './fault-plan.js';
import { MoneyWorkload, type MoneyActor } from './money-workload.js';
import { PaymentWorkload, type PaymentVerdict } from './payment-workload.js';
import { RecoveryProbe } from './recovery-probe.js';
import { checkNotifications, waitNotificationsSettled, type NotificationVerdict } from './notification-checks.js';
import { checkMoney, checkSales } from './soak-checks.js';
import { SOAK_TIMEZONE, type QueueState, type SoakCluster } from './soak-cluster.js';
import type { SoakStage } from './soak-stage.js';

/** The system serves again within 10 s of a fault's end (README.md, "Fault suite"). */
export const RECOVERY_LIMIT_MS = 10_000;
const CARDS_PER_ATTENDANT = 6;
const DRAIN_TIMEOUT_MS = 120_000;
/**
 * A machine sends a sale again when its `sales/ack` has not come this long after the PUBACK (firmware does the same).
 * The probe does too after an external broker's restart, which may drop what it acknowledged (RecoveryProbe).
 */
const RESEND_AFTER_MS = 5_000;

export interface RunResult {
  plan: RunPlan;
  sales: number;
  moneyCalls: number;
  moneyRetries: number;
  probeSales: number;
  pubacked: number;
  stored: number;
  lost: number;
  duplicated: number;
  /** Rollups, ledger, clients' books, altered or phantom sales, dead letters. */
  invariantViolations: number;
  faults: FaultOutcome[];
  /** Alarm messages: every opening's, per channel and recipient, received once (null: the check could not run). */
  notifications: NotificationVerdict | null;
  /** M-Pesa payments: every shilling paid credited once (null: the check could not run). */
  payments: PaymentVerdict | null;
  /** Every problem of the run, one sentence each (empty: the run passed). */
  failures: string[];
  durationMs: number;
  /** Resident memory of the processes after the run: growth across runs on one stage hints at a leak. */
  rssMb: { api: number | null; worker: number | null };
  /** Where the time went: emptying the tables and starting the fleet, load and faults, drain, checks. */
  phases: Record<'setup' | 'load' | 'drain' | 'checks', number>;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/**
 * Sells `total` sales evenly over `spreadMs`, round robin over every machine of both groups (machines
 * sell offline too, partitioned or not: the outbox keeps them).
 */
async function sellPaced(machines: readonly Machine[], total: number, spreadMs: number): Promise<void> {
  const start = Date.now();
  let sold = 0;
  while (sold < total) {
    const due = Math.min(total, Math.ceil((total * (Date.now() - start)) / spreadMs));
    for (; sold < due; sold++) machines[sold % machines.length]!.sell();
    await sleep(25);
  }
}

/** One M-Pesa payment for this many money calls. */
const MONEY_CALLS_PER_PAYMENT = 10;
/** How long pending payments may take to settle after the load (status queries back off). */
const PAYMENT_SETTLE_MS = 90_000;
/** Phone numbers of the suite's customers: each run's start far from the last. */
let phoneBase = 0;

/** How long the alarm messages may take to settle after the load (retries back off from 200 ms). */
const NOTIFY_SETTLE_MS = 90_000;

const summarize = (items: string[], max = 5) =>
  items.length <= max ? items.join(', ') : `${items.slice(0, max).join(', ')} … (${items.length} in all)`;

/**
 * One seeded fault run on a stage (api/broker and worker as separate processes): the run's tables
 * emptied, the fleet selling, attendants and their manager moving money, the planned faults one
 * after another with the recovery measured after each, then a drain and the checks.
 */
export async function runOnce(cluster: SoakCluster, stage: SoakStage, plan: RunPlan): Promise<RunResult> {
  const started = Date.now();
  const failures: string[] = [];
  const { supervisor, db } = stage;
  const crashesBefore = supervisor.crashes.length;
  const { fixtures } = cluster;
  const tag = `r${plan.seed.toString(36)}${Date.now().toString(36)}`;
  const sold = new Map<string, Sale>();
  const pubacked = new Set<string>();
  const outcomes: FaultOutcome[] = [];
  const fleets: Fleet[] = [];
  let alarms: AlarmWorkload | undefined;
  let probe: RecoveryProbe | undefined;
  let money: MoneyWorkload | undefined;
  let payments: PaymentWorkload | undefined;
  let creditedBefore = new Set<string>();
  let resetAt = started;
  let adminToken = '';
  let probeSales = 0;
  const phases = { setup: 0, load: 0, drain: 0, checks: 0 };
  let mark = started;
  const lap = (phase: keyof typeof phases) => {
    phases[phase] = Date.now() - mark;
    mark = Date.now();
  };
  try {
    if (plan.mode !== stage.mode) throw new Error(`a plan of ${plan.mode} mode on a stage of ${stage.mode} mode`);
    await cluster.ensureHealthy();
    await stage.healNetwork();
    await stage.ensureRunning();
    // The servers forget the earlier runs before the tables are emptied, not after: the workers keep running, and
    // a daily report queued again in between would be forgotten while its row says sent. What arrives meanwhile
    // for the earlier run is told apart by the checks (it is no row's of this run, and came before `resetAt`).
    cluster.outside.clear();
    await stage.reset();
    resetAt = Date.now();
    supervisor.forgetExited();
    const baseUrl = () => stage.baseUrl;
    const http = new HttpClient(baseUrl());
    const managerToken = await cluster.token(fixtures.manager, http);
    const attendants: MoneyActor[] = [];
    for (const [i, a] of fixtures.attendants.entries()) {
      const cardIds = Array.from({ length: CARDS_PER_ATTENDANT }, (_, j) => `${tag}-C${i}${j}`);
      attendants.push({ userId: a.userId, token: await cluster.token(a, http), espId: a.espId, cardIds });
    }
    const cardsAt = new Map(attendants.map((a) => [a.espId, a.cardIds]));

    // Half of the machines reach the broker through one proxy, half through another: a partition
    // cuts one group off while the other keeps selling through the same broker.
    const groups: [MachineGroup, typeof fixtures.machines][] = [
      ['a', fixtures.machines.filter((_, i) => i % 2 === 0)],
      ['b', fixtures.machines.filter((_, i) => i % 2 === 1)],
    ];
    const workloadRng = createRandom(plan.workloadSeed);
    for (const [group, machines] of groups) {
      fleets.push(
        new Fleet({
          url: `mqtt://127.0.0.1:${stage.mqttPorts.get(group)}`,
          identities: machines.map((m) => ({ ...m, cards: cardsAt.get(m.espId) })),
          rate: 0,
          dayCurve: false,
          seed: workloadRng.fork(group === 'a' ? 1 : 2).int(1, 2 ** 31 - 1),
          reconnectDelayMs: 200,
          connectTimeoutMs: 3_000,
          // Short, so that a partition of a few periods runs the code of minutes in the field (fault-plan.ts).
          keepaliveSeconds: MACHINE_KEEPALIVE_S,
          backlogBatchSize: 50,
          // A sales/ack travels through Redis pub/sub and is lost if Redis or the broker restarts at
          // that moment; the machine then sends the sale again after this long (firmware does the same).
          resendAfterMs: RESEND_AFTER_MS,
          // Field conditions besides the injected faults: QoS 1 duplicates and Wi-Fi drops.
          duplicateProbability: 0.01,
          offlineProbability: 0.05,
          offlineCheckMs: 2_000,
          offlineDurationMs: [200, 2_000],
        }),
      );
    }
    const allMachines = fleets.flatMap((f) => f.machines);
    for (const m of allMachines) {
      m.on('sale', (sale) => sold.set(`${m.espId}/${sale.eventId}`, sale));
      m.on('pubacked', (ids) => ids.forEach((id) => pubacked.add(`${m.espId}/${id}`)));
    }
    await Promise.all(fleets.map((f) => f.start(15_000)));
    alarms = new AlarmWorkload({
      mqttPort: stage.brokerPort,
      machines: fixtures.alarmMachines,
      rng: workloadRng.fork(0xa1a),
    });
    alarms.start();
    probe = new RecoveryProbe({
      baseUrl,
      mqttPort: stage.brokerPort,
      machine: fixtures.probe,
      login: { identifier: fixtures.manager.identifier, password: fixtures.manager.password },
      db,
      tag,
      onPubacked: (sale) => {
        const key = `${fixtures.probe.espId}/${sale.eventId}`;
        if (!sold.has(key)) probeSales++;
        sold.set(key, sale);
        pubacked.add(key);
      },
    });
    money = new MoneyWorkload({
      baseUrl,
      managerToken,
      attendants,
      rng: createRandom(plan.workloadSeed).fork(0x5eed),
      tag,
    });
    adminToken = await cluster.token(fixtures.admin, http);
    const moneyBooks = money.books;
    payments = new PaymentWorkload({
      baseUrl,
      managerToken,
      sandbox: cluster.outside.daraja,
      cards: () => moneyBooks.flatMap((b) => [...b.loaded.keys()]),
      rng: createRandom(plan.workloadSeed).fork(0x3e5a),
      tag,
      phoneBase: (phoneBase += 100_000),
    });

    lap('setup');
    const injector = new FaultInjector(cluster, supervisor, stage.broker);
    const faulting = (async () => {
      for (const spec of plan.faults) {
        await sleep(spec.gapMs);
        const outcome = await injector.inject(spec);
        outcome.recovery = await probe!.measure(
          outcome.endedAt,
          new Set(pubacked),
          spec.kind === 'restart-broker' ? { resendAfterMs: RESEND_AFTER_MS } : {},
        );
        await outcome.settled;
        outcomes.push(outcome);
      }
    })();
    await Promise.all([
      sellPaced(allMachines, plan.sales, plan.loadMs),
      money.run(plan.moneyCalls, plan.loadMs),
      payments.run(Math.round(plan.moneyCalls / MONEY_CALLS_PER_PAYMENT), plan.loadMs),
      faulting,
    ]);

    lap('load');
    const alarmsStopped = alarms.stop();
    await Promise.all(fleets.map((f) => f.drain(DRAIN_TIMEOUT_MS))).catch(async (error: Error) => {
      const queue = await cluster.queueState().catch(() => ({}));
      failures.push(`stuck: ${error.message} after the load; sales queue ${JSON.stringify(queue)}`);
    });
    await alarmsStopped;
    const unstored = await waitUntilStored(db, pubacked, 30_000);
    if (unstored.length) failures.push(`PUBACKed but not stored 30 s after the drain: ${summarize(unstored)}`);
    // Redelivered copies of committed sales may still be queued: they must be worked off (stored
    // once) before the checks, and before the next run on this stage empties the tables.
    const queue = await queueIdle(cluster, 60_000);
    if (queue.wait + queue.active + queue.delayed + queue.prioritized + queue.failed > 0) {
      failures.push(`the sales queue is not idle a minute after the drain: ${JSON.stringify(queue)}`);
    }
    if (!(await waitNotificationsSettled(db, () => cluster.telemetryBacklog(), NOTIFY_SETTLE_MS))) {
      failures.push(`alarm messages still due ${NOTIFY_SETTLE_MS / 1000} s after the load`);
    }
    if (!(await payments.settle(db, PAYMENT_SETTLE_MS))) {
      // What each one waits for (a push or a status query, a lease, a retry), for the diagnosis.
      const { rows } = await db
        .query<Record<string, unknown>>(
          `SELECT method, push_state, push_attempts, query_attempts, lease_until, next_attempt_at, last_error, created_at
           FROM payments WHERE status = 'pending' ORDER BY created_at LIMIT 5`,
        )
        .catch((error: Error) => ({ rows: [{ error: error.message }] }));
      failures.push(
        `M-Pesa payments still pending ${PAYMENT_SETTLE_MS / 1000} s after the load (at ${new Date().toISOString()}): ` +
          rows.map((r) => JSON.stringify(r)).join('; '),
      );
    }
    creditedBefore = await PaymentWorkload.creditedReceipts(db);
    // The operator's daily reconciliation: receipts whose callbacks were lost are credited now.
    await payments.importStatement(adminToken);
    lap('drain');
  } catch (error) {
    failures.push(`run aborted: ${(error as Error).stack ?? String(error)}`);
  } finally {
    await Promise.all(fleets.map((f) => f.stop().catch(() => undefined)));
    alarms?.close();
    probe?.close();
  }

  const verdict = await verify(db, pubacked, sold, money, failures);
  const notifications = await checkNotifications(db, cluster.outside, {
    openingRecipients: new Map(fixtures.alarmMachines.map((m) => [m.espId, m.recipients])),
    timezone: SOAK_TIMEZONE,
    workerKills: supervisor.kills.filter((k) => k.role === 'worker' && k.at >= started).map((k) => k.at),
    since: resetAt,
    smsCuts: outcomes.filter((o) => o.spec.kind === 'fail-sms' && o.spec.sms === 'stopped').map((o) => o.startedAt),
  }).catch((error: Error) => {
    failures.push(`the notification checks failed to run: ${error.stack ?? String(error)}`);
    return null;
  });
  const paymentVerdict = payments
    ? await payments
        .check(
          db,
          creditedBefore,
          cluster.outside.sms().filter((m) => m.receivedAt.getTime() >= resetAt),
        )
        .catch((error: Error) => {
          failures.push(`the payment checks failed to run: ${error.stack ?? String(error)}`);
          return null;
        })
    : null;
  if (paymentVerdict?.violations.length) {
    failures.push(`M-Pesa: ${summarize(paymentVerdict.violations)}`);
  }
  if (notifications && notifications.openings === 0 && (alarms?.raisedPhases ?? 0) > 0) {
    // Without openings the checks above would pass for nothing.
    failures.push(`the alarm workload raised ${alarms!.raisedPhases} alarm conditions and no alarm opened`);
  }
  if (notifications?.lost.length) {
    failures.push(`${notifications.lost.length} alarm messages lost: ${summarize(notifications.lost)}`);
  }
  if (notifications?.duplicated.length) {
    failures.push(
      `${notifications.duplicated.length} alarm messages duplicated: ${summarize(notifications.duplicated)}`,
    );
  }
  for (const o of outcomes) {
    const r = o.recovery!;
    if (!(r.servedMs <= RECOVERY_LIMIT_MS)) {
      const parts = `health ${fmtMs(r.healthMs)}, login ${fmtMs(r.loginMs)}, PUBACK ${fmtMs(r.pubackMs)}`;
      failures.push(
        `${o.spec.kind}: served again after ${fmtMs(r.servedMs)} (${parts}), over ${RECOVERY_LIMIT_MS / 1000} s`,
      );
    }
  }
  for (const c of supervisor.crashes.slice(crashesBefore)) {
    failures.push(`the ${c.role} process crashed (${c.exit}); its last output:\n${c.outputTail.slice(-1500)}`);
  }
  if (failures.length || process.env.SOAK_KEEP_LOGS) {
    const dir = `.tmp/soak/seed-${plan.seed}${plan.mode === 'external' ? '-external' : ''}`;
    mkdirSync(dir, { recursive: true });
    writeFileSync(`${dir}/api.log`, supervisor.output('api'));
    writeFileSync(`${dir}/worker.log`, supervisor.output('worker'));
    writeFileSync(`${dir}/postgres.log`, cluster.pg.logTail(200_000));
    if (failures.length) failures.push(`the processes' output is in ${dir}/`);
  }
  lap('checks');

  return {
    rssMb: { api: supervisor.rssMb('api'), worker: supervisor.rssMb('worker') },
    plan,
    sales: fleets.reduce((n, f) => n + f.stats().generated, 0),
    moneyCalls: money?.calls ?? 0,
    moneyRetries: money?.retries ?? 0,
    probeSales,
    pubacked: pubacked.size,
    ...verdict,
    faults: outcomes,
    notifications,
    payments: paymentVerdict,
    failures,
    durationMs: Date.now() - started,
    phases,
  };
}

/** Waits until the sales queue holds no job to do; returns its last counts. */
async function queueIdle(cluster: SoakCluster, timeoutMs: number): Promise<QueueState> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const q = await cluster.queueState();
    if (q.wait + q.active + q.delayed + q.prioritized === 0 || Date.now() > deadline) return q;
    await sleep(100);
  }
}

/** The checks after a run; each problem is also added to `failures` as a sentence. */
async function verify(
  db: pg.Pool,
  pubacked: ReadonlySet<string>,
  sold: ReadonlyMap<string, Sale>,
  money: MoneyWorkload | undefined,
  failures: string[],
): Promise<Pick<RunResult, 'stored' | 'lost' | 'duplicated' | 'invariantViolations'>> {
  if (money?.violations.length) failures.push(`money calls: ${summarize(money.violations)}`);
  try {
    const sales = await checkSales(db, pubacked, sold);
    const lost = sales.lost.length;
    const duplicated = sales.duplicated.length;
    if (lost) failures.push(`${lost} PUBACKed sales lost: ${summarize(sales.lost)}`);
    if (duplicated) failures.push(`${duplicated} sales stored twice: ${summarize(sales.duplicated)}`);
    const broken = [
      ...sales.rollups.map((r) => `rollup differs from the rows: ${JSON.stringify(r)}`),
      ...sales.phantom.map((k) => `stored but never sold: ${k}`),
      ...sales.altered.map((k) => `stored differently from what was sold: ${k}`),
      ...(sales.deadLetters ? [`${sales.deadLetters} valid sales dead-lettered`] : []),
      ...(await checkMoney(db, money?.books ?? [])),
    ];
    if (broken.length) failures.push(`invariants broken: ${summarize(broken, 8)}`);
    return { stored: sales.stored, lost, duplicated, invariantViolations: broken.length };
  } catch (error) {
    failures.push(`checks failed to run: ${String(error)}`);
    return { stored: 0, lost: 0, duplicated: 0, invariantViolations: 1 };
  }
}

export function fmtMs(ms: number | null): string {
  if (ms === null || !Number.isFinite(ms)) return 'never';
  return ms < 1000 ? `${ms} ms` : `${(ms / 1000).toFixed(1)} s`;
}
