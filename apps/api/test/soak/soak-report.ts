import { faultKinds, type MqttMode } from './fault-plan.js';
import { fmtMs, type RunResult } from './soak-run.js';

const n = (x: number) => x.toLocaleString('en-US');

function percentile(values: number[], p: number): number {
  if (!values.length) return Number.NaN;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;
}

export const operationsOf = (r: RunResult) => r.sales + r.moneyCalls + r.probeSales;

/** The replay command of a run. */
export const replayCommand = (seed: number, mode: MqttMode = 'embedded') =>
  `${mode === 'external' ? 'SOAK_MQTT_MODE=external ' : ''}SOAK_SEED=${seed} npm run soak`;

/** One line per run, printed as it ends. */
export function runLine(index: number, total: number, r: RunResult): string {
  const faults = r.faults
    .map(
      (f) =>
        `${f.spec.kind} ${[f.recovery?.servedMs, f.recovery?.committedMs, f.recovery?.backlogMs].map((ms) => fmtMs(ms ?? null)).join('/')}` +
        (f.recovery?.resent ? ` (probe sale sent ${f.recovery.resent} more time(s))` : ''),
    )
    .join(', ');
  const verdict = r.failures.length ? 'FAILED' : 'ok';
  const nv = r.notifications;
  const notes = nv
    ? `alarms: ${nv.openings} opened, ${nv.delivered}/${nv.expected} messages received once, ${nv.lost.length} lost, ` +
      `${nv.lostInHandover.length} SMS lost at most once (hand-over or cut), ` +
      `${nv.duplicated.length} duplicated, ${nv.emailCopies} email copies (same Message-ID), ${nv.outcomeUnknown.email} email and ${nv.outcomeUnknown.sms} SMS of unknown outcome, ${nv.stale} of the run before; `
    : 'alarms: not checked; ';
  const pv = r.payments;
  const paid = pv
    ? `M-Pesa: ${pv.pushes} pushes and ${pv.paybills} paybill payments, ${pv.paid} paid, ${pv.creditedLive} credited live and ` +
      `${pv.creditedByStatement} by the statement, ${pv.receipts} SMS receipts, ${pv.violations.length} violations; `
    : 'M-Pesa: not checked; ';
  return (
    `soak: ${r.plan.mode} run ${index}/${total} seed ${r.plan.seed} ${verdict} in ${fmtMs(r.durationMs)}: ` +
    `${n(operationsOf(r))} ops (${n(r.sales)} sales, ${n(r.moneyCalls)} money calls), ` +
    `${n(r.pubacked)} PUBACKed, ${n(r.stored)} stored; ${notes}${paid}faults (served/committed/backlog): ${faults}; ` +
    `phases ${Object.entries(r.phases)
      .map(([k, v]) => `${k} ${fmtMs(v)}`)
      .join(', ')}; RSS api ${r.rssMb.api ?? '?'} MB, worker ${r.rssMb.worker ?? '?'} MB`
  );
}

/** p50 and max of each recovery figure, in ms (Infinity: never within the deadline). */
export interface RecoveryStats {
  servedP50Ms: number;
  servedMaxMs: number;
  committedP50Ms: number;
  committedMaxMs: number;
  backlogP50Ms: number;
  backlogMaxMs: number;
}

export interface SoakSummary {
  mode: MqttMode;
  runs: number;
  failedRuns: { seed: number; replay: string; failures: string[] }[];
  operations: number;
  sales: number;
  moneyCalls: number;
  moneyRetries: number;
  lost: number;
  duplicated: number;
  invariantViolations: number;
  /** Alarm messages over every run (docs/alarms.md, "Notifications"). */
  notifications: {
    openings: number;
    expected: number;
    delivered: number;
    lost: number;
    /** SMS lost to a worker killed between handing them over and their request leaving (at most once). */
    lostInHandover: number;
    duplicated: number;
    emailOutcomeUnknown: number;
    smsOutcomeUnknown: number;
    /** Emails received again as the same message (same Message-ID) after a crash mid-send. */
    emailCopies: number;
    /** kill-worker-sending faults that caught a message in the server's hands. */
    killsMidSend: number;
    /** Messages of the run before, taken while a run's tables were being emptied (not judged). */
    stale: number;
  };
  /** M-Pesa payments over every run (docs/mobile-money.md). */
  payments: {
    pushes: number;
    paybills: number;
    paid: number;
    creditedLive: number;
    creditedByStatement: number;
    violations: number;
  };
  durationMs: number;
  faults: Record<string, { count: number } & RecoveryStats>;
  recovery: RecoveryStats;
  /** Resident memory of the processes after each run, lowest and highest, in MB. */
  rssMb: Record<'api' | 'worker', { min: number; max: number }>;
}

export function summarize(results: RunResult[], durationMs: number, mode: MqttMode = 'embedded'): SoakSummary {
  const all = results.flatMap((r) => r.faults);
  const stats = (outcomes: typeof all): RecoveryStats => {
    const figure = (pick: (r: NonNullable<(typeof all)[number]['recovery']>) => number | null) =>
      outcomes.map((o) => (o.recovery ? (pick(o.recovery) ?? Number.POSITIVE_INFINITY) : Number.POSITIVE_INFINITY));
    const [served, committed, backlog] = [
      figure((r) => r.servedMs),
      figure((r) => r.committedMs),
      figure((r) => r.backlogMs),
    ];
    return {
      servedP50Ms: percentile(served, 50),
      servedMaxMs: Math.max(...served),
      committedP50Ms: percentile(committed, 50),
      committedMaxMs: Math.max(...committed),
      backlogP50Ms: percentile(backlog, 50),
      backlogMaxMs: Math.max(...backlog),
    };
  };
  const sum = (f: (r: RunResult) => number) => results.reduce((a, r) => a + f(r), 0);
  return {
    mode,
    runs: results.length,
    failedRuns: results
      .filter((r) => r.failures.length)
      .map((r) => ({ seed: r.plan.seed, replay: replayCommand(r.plan.seed, r.plan.mode), failures: r.failures })),
    operations: sum(operationsOf),
    sales: sum((r) => r.sales + r.probeSales),
    moneyCalls: sum((r) => r.moneyCalls),
    moneyRetries: sum((r) => r.moneyRetries),
    lost: sum((r) => r.lost),
    duplicated: sum((r) => r.duplicated),
    invariantViolations: sum((r) => r.invariantViolations),
    notifications: {
      openings: sum((r) => r.notifications?.openings ?? 0),
      expected: sum((r) => r.notifications?.expected ?? 0),
      delivered: sum((r) => r.notifications?.delivered ?? 0),
      lost: sum((r) => r.notifications?.lost.length ?? 0),
      lostInHandover: sum((r) => r.notifications?.lostInHandover.length ?? 0),
      duplicated: sum((r) => r.notifications?.duplicated.length ?? 0),
      emailOutcomeUnknown: sum((r) => r.notifications?.outcomeUnknown.email ?? 0),
      smsOutcomeUnknown: sum((r) => r.notifications?.outcomeUnknown.sms ?? 0),
      emailCopies: sum((r) => r.notifications?.emailCopies ?? 0),
      killsMidSend: sum((r) => r.faults.filter((f) => f.midSend).length),
      stale: sum((r) => r.notifications?.stale ?? 0),
    },
    payments: {
      pushes: sum((r) => r.payments?.pushes ?? 0),
      paybills: sum((r) => r.payments?.paybills ?? 0),
      paid: sum((r) => r.payments?.paid ?? 0),
      creditedLive: sum((r) => r.payments?.creditedLive ?? 0),
      creditedByStatement: sum((r) => r.payments?.creditedByStatement ?? 0),
      violations: sum((r) => r.payments?.violations.length ?? 0),
    },
    durationMs,
    faults: Object.fromEntries(
      faultKinds(mode).map((kind) => {
        const of = all.filter((o) => o.spec.kind === kind);
        return [kind, { count: of.length, ...stats(of) }];
      }),
    ),
    recovery: stats(all),
    rssMb: {
      api: range(results.map((r) => r.rssMb.api)),
      worker: range(results.map((r) => r.rssMb.worker)),
    },
  };
}

function range(values: (number | null)[]): { min: number; max: number } {
  const known = values.filter((v): v is number => v !== null);
  return { min: Math.min(...known), max: Math.max(...known) };
}

const p50max = (p50: number, max: number) => `p50 ${fmtMs(p50).padStart(7)} max ${fmtMs(max).padStart(7)}`;

/** The closing lines: the figures for the README. */
export function summaryLines(s: SoakSummary): string[] {
  const r = s.recovery;
  const lines = [
    `soak: ${s.mode} MQTT mode: faults injected: ${Object.entries(s.faults)
      .map(([k, f]) => `${k} ${f.count}`)
      .join(', ')}`,
    'soak: recovery from the end of a fault until: served = a health check, a login and a PUBACK succeed; ' +
      'committed = a new sale is in PostgreSQL; backlog = every sale PUBACKed before the end is in PostgreSQL',
    `soak:   ${'all faults'.padEnd(16)} served ${p50max(r.servedP50Ms, r.servedMaxMs)}; committed ${p50max(r.committedP50Ms, r.committedMaxMs)}; backlog ${p50max(r.backlogP50Ms, r.backlogMaxMs)}`,
    ...Object.entries(s.faults)
      .filter(([, f]) => f.count)
      .map(
        ([k, f]) =>
          `soak:   ${k.padEnd(16)} served ${p50max(f.servedP50Ms, f.servedMaxMs)}; committed ${p50max(f.committedP50Ms, f.committedMaxMs)}; backlog ${p50max(f.backlogP50Ms, f.backlogMaxMs)}`,
      ),
    `soak: resident memory after a run: api/broker ${s.rssMb.api.min}–${s.rssMb.api.max} MB, worker ${s.rssMb.worker.min}–${s.rssMb.worker.max} MB`,
    `soak: ${n(s.sales)} sales and ${n(s.moneyCalls)} money calls (${n(s.moneyRetries)} retries with the same Idempotency-Key) in ${fmtMs(s.durationMs)}`,
  ];
  const a = s.notifications;
  lines.push(
    `soak: alarm messages: ${n(a.openings)} alarms opened, ${n(a.expected)} messages owed (one per opening, channel and recipient), ` +
      `${n(a.delivered)} received exactly once, ${n(a.lost)} lost, ` +
      `${n(a.lostInHandover)} SMS lost at most once (a worker killed between handing them over and their request leaving, or the SMS API cut the request when it stopped), ` +
      `${n(a.duplicated)} duplicated ` +
      `(${n(a.emailCopies)} emails received again as the same message, one Message-ID); ` +
      `${n(a.emailOutcomeUnknown)} email and ${n(a.smsOutcomeUnknown)} SMS of unknown outcome (given up, not sent again) ` +
      `after ${n(a.killsMidSend)} worker kills in the middle of a send; ` +
      `${n(a.stale)} messages of a run before, taken while the next run's tables were emptied`,
  );
  const p = s.payments;
  lines.push(
    `soak: M-Pesa: ${n(p.pushes)} STK pushes and ${n(p.paybills)} paybill payments; ${n(p.paid)} paid, ` +
      `${n(p.creditedLive)} credited by callback, status query or confirmation and ${n(p.creditedByStatement)} by the statement; ` +
      `${n(p.violations)} violations (a receipt credited twice or never, a credit never paid)`,
  );
  for (const f of s.failedRuns) lines.push(`soak: FAILED seed ${f.seed}: replay with ${f.replay}`);
  lines.push(
    `soak: ${s.mode} MQTT mode: ${n(s.runs)} runs, ${n(s.operations)} operations, ${n(s.lost)} lost, ${n(s.duplicated)} duplicated, ` +
      `${n(s.invariantViolations)} invariant violations`,
  );
  return lines;
}
