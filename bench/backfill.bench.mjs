// npm run bench -- backfill
// A fleet back from an outage empties its backlog while other machines keep selling
// (docs/architecture.md, "Backfill and live sales"). In one run, with api+broker and the worker as
// two processes:
//  1. BENCH_LIVE_MACHINES (200) machines sell live at BENCH_LIVE_RATE (2,000) sales/s in total, open
//     loop (latency from the scheduled send time, as in bench/ingest.bench.mjs); after a warm-up of
//     BENCH_WARMUP s, BENCH_BASELINE_SECONDS (20) of it alone give the same-run baseline. They run in a
//     child process (bench/lib/live-machines.mjs) with a lean MQTT client (bench/lib/mqtt-lean.mjs);
//  2. the live load goes on, and BENCH_BACKFILL_MACHINES (1,000) machines that sold offline for
//     BENCH_OFFLINE_MINUTES (60) connect at once, each with BENCH_BACKFILL_SALES (120) queued sales
//     (`offline: true`, seq 1…n, times spread over the outage), and behave as firmware does: publish
//     the backlog oldest first in arrays of BENCH_BACKFILL_ARRAY (50), the next once the previous is
//     PUBACKed, resend after a dropped connection or a sales/ack that does not come, and wait for the
//     `sales/ack` of every sale. They run in a child process (bench/lib/backfill-machines.mjs), so that
//     their client work does not slow the clock of the live load.
// Measures the time from the first connect until the whole backlog is stored in PostgreSQL (target
// ≤ 60 s), and the live machines' PUBACK (and sales/ack) latency during the backfill beside the same
// load alone (target: PUBACK p99 < 100 ms). Then checks that every sale is stored exactly once, that
// each machine's seq is contiguous (SQL, and GET /machines/{espId}/sync shows no missing range), and
// that the rollups equal the rows and no sales job failed; a failed check fails the benchmark. A
// timeline of live PUBACK latency and backlog stored, second by second, is printed before the table.
import { fork } from 'node:child_process';
import pg from 'pg';
import { percentile, report } from './lib/report.mjs';
import { apiClient } from './lib/measure.mjs';
import { insertLoadDevices, loadEspId, loadKey } from './lib/load-fleet.mjs';
import { Redis } from 'ioredis';
import { adminToken, benchDeployment, REDIS_URL, startProcess } from './lib/stack.mjs';
import { now } from './lib/backfill-fleet.mjs';
import { verifyBackfill } from './lib/backfill-verify.mjs';

for (const signal of ['SIGINT', 'SIGTERM']) process.once(signal, () => process.exit(130));
const LIVE_MACHINES = Number(process.env.BENCH_LIVE_MACHINES ?? 200);
const LIVE_RATE = Number(process.env.BENCH_LIVE_RATE ?? 2000);
const BACKFILL_MACHINES = Number(process.env.BENCH_BACKFILL_MACHINES ?? 1000);
const BACKFILL_SALES = Number(process.env.BENCH_BACKFILL_SALES ?? 120);
const ARRAY = Number(process.env.BENCH_BACKFILL_ARRAY ?? 50);
const OFFLINE_MINUTES = Number(process.env.BENCH_OFFLINE_MINUTES ?? 60);
const WARMUP = Number(process.env.BENCH_WARMUP ?? 5);
const BASELINE_SECONDS = Number(process.env.BENCH_BASELINE_SECONDS ?? 20);
// The run gives up (and fails) if the backlog is not stored by then.
const TIMEOUT_SECONDS = Number(process.env.BENCH_BACKFILL_TIMEOUT ?? 900);
// Diagnosis: the whole fleet connects first and publishes 5 s after, so that the timeline tells the
// cost of the reconnect storm from that of the backlog.
const CONNECT_FIRST = process.env.BENCH_BACKFILL_CONNECT_FIRST === 'true';
const SECRET = 'backfill-bench-keys';
const BACKLOG = BACKFILL_MACHINES * BACKFILL_SALES;
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
const ms = (v) => Number(v.toFixed(1));
const seconds = (v) => Number((v / 1000).toFixed(1));

// Every simulated machine connects from 127.0.0.1: lift the per-address limits meant for the field.
const deployment = await benchDeployment('backfill', { MQTT_CONNECT_RATE: '100000', HTTP_RATE_LIMIT: '100000' });
const { env } = deployment;
const procs = [
  await startProcess({ ...env, APP_ROLES: 'api,broker' }),
  await startProcess({ ...env, APP_ROLES: 'worker' }),
];
const [front] = procs;
const base = `http://127.0.0.1:${front.httpPort}`;
const db = new pg.Client({ connectionString: deployment.databaseUrl });
await db.connect();
// Machines 0…LIVE-1 sell live; the next BACKFILL come back with a backlog.
await insertLoadDevices(db, SECRET, LIVE_MACHINES + BACKFILL_MACHINES);
const liveIds = Array.from({ length: LIVE_MACHINES }, (_, i) => loadEspId(i));
const backfillIds = Array.from({ length: BACKFILL_MACHINES }, (_, i) => loadEspId(LIVE_MACHINES + i));
const keyOf = (i) => loadKey(SECRET, i);

// The live machines run in a child process (bench/lib/live-machines.mjs): neither their client work nor this
// process's polling of PostgreSQL may delay the clock that times them.
let fleet;
const live = fork(
  new URL('./lib/live-machines.mjs', import.meta.url).pathname,
  [
    JSON.stringify({
      port: front.mqttPort,
      machines: liveIds.map((espId, i) => ({ espId, deviceKey: keyOf(i) })),
      rate: LIVE_RATE,
    }),
  ],
  { serialization: 'advanced' },
);
process.once('exit', () => live.kill('SIGKILL'));
const liveReply = (type) => new Promise((resolve) => live.on('message', (m) => m.type === type && resolve(m)));
live.on('message', (m) => m.type === 'failed' && abort(new Error(`live machines: ${m.error}`)));
await liveReply('ready');
// The machines coming back run in a child process, their backlogs written before the run: generating
// them and their client work must not weigh on the clock of the live load.
fleet = fork(new URL('./lib/backfill-machines.mjs', import.meta.url).pathname, [
  JSON.stringify({
    port: front.mqttPort,
    machines: backfillIds.map((espId, i) => ({ espId, deviceKey: keyOf(LIVE_MACHINES + i) })),
    sales: BACKFILL_SALES,
    minutes: OFFLINE_MINUTES,
    arraySize: ARRAY,
    connectFirst: CONNECT_FIRST,
  }),
]);
process.once('exit', () => fleet.kill('SIGKILL'));
const fleetReply = (type) =>
  new Promise((resolve, reject) =>
    fleet.on('message', (m) => {
      if (m.type === type) resolve(m);
      if (m.type === 'failed') reject(new Error(`backfill machines: ${m.error}`));
    }),
  );
const { eventIds: backlogIds } = await fleetReply('ready');

const startAt = now() + 100;
live.send({ type: 'start', at: startAt });
const started = startAt - performance.timeOrigin;
let backfillStart = Infinity;
let backlogStoredAt = Infinity;
const phaseAt = (t) =>
  t < started + WARMUP * 1000 ? 'warm-up' : t < backfillStart ? 'alone' : t < backlogStoredAt ? 'backfill' : 'after';
const offlineStored = async () =>
  Number((await db.query('SELECT count(*)::int AS n FROM sales WHERE offline')).rows[0].n);

console.log(`  live load alone: ${WARMUP} s warm-up, then ${BASELINE_SECONDS} s`);
await sleep((WARMUP + BASELINE_SECONDS) * 1000);

console.log(`  ${BACKFILL_MACHINES} machines come back with ${BACKLOG} sales`);
backfillStart = performance.now();
const fleetDone = fleetReply('done');
fleet.send({ type: 'start' });
if (CONNECT_FIRST) {
  const { at } = await fleetReply('connected');
  console.log(`  every machine connected after ${seconds(at - performance.timeOrigin - backfillStart)} s`);
  await sleep(5000);
  fleet.send({ type: 'publish' });
}
let failure = null;
fleetDone.catch((error) => (failure = error));
const storedAt = [];
let stored = 0;
for (;;) {
  stored = await offlineStored();
  storedAt.push([performance.now(), stored]);
  if (stored >= BACKLOG) break;
  if (failure) await abort(failure);
  if (performance.now() - backfillStart > TIMEOUT_SECONDS * 1000) {
    await abort(new Error(`only ${stored} of ${BACKLOG} backlog sales stored after ${TIMEOUT_SECONDS} s`));
  }
  process.stdout.write(`\r  ${seconds(performance.now() - backfillStart)} s: ${stored} of ${BACKLOG} stored  `);
  await sleep(250);
}
backlogStoredAt = performance.now();
console.log(`\n  backlog stored after ${seconds(backlogStoredAt - backfillStart)} s`);
const fleetResult = await fleetDone;
// The child's clock is performance.timeOrigin + performance.now(); this process's as well.
const fromEpoch = (t) => t - performance.timeOrigin;
live.send({ type: 'stop' });
const { sent: liveSent } = await liveReply('stopped');

// Every live sale PUBACKed is committed before the checks.
const expected = new Map();
liveIds.forEach((id, i) => expected.set(id, { count: liveSent[i], eventIds: [] }));
backfillIds.forEach((id, i) => expected.set(id, { count: BACKFILL_SALES, eventIds: backlogIds[i] }));
const liveTotal = liveSent.reduce((a, b) => a + b, 0);
for (;;) {
  const [{ n }] = (await db.query('SELECT count(*)::int AS n FROM sales WHERE NOT offline')).rows;
  if (n >= liveTotal) break;
  await sleep(100);
}
const get = apiClient(base, await adminToken(base));
const redis = new Redis(REDIS_URL);
const queueKey = `${deployment.prefix}:bull:sales-ingest`;
const check = await verifyBackfill({
  db,
  get,
  expected,
  resends: fleetResult.resends,
  queueCounts: async () => ({ failed: await redis.zcard(`${queueKey}:failed`) }),
});
await redis.quit();
live.send({ type: 'report' });
const liveTimes = timesByPhase(await liveReply('done'));
live.kill();
fleet.kill();
await db.end();
await deployment.teardown(procs);

const p = (values, q) => (values?.length ? ms(percentile(values, q)) : NaN);
const lateness = (values = []) =>
  `${((100 * values.filter((v) => v > 10).length) / Math.max(1, values.length)).toFixed(2)} % / ${p(values, 99)}`;
const alone = liveTimes.puback.get('alone');
const during = liveTimes.puback.get('backfill');
const arrays = fleetResult.pubackMs;
const connects = fleetResult.connectedMs;
printTimeline();
report({
  name: 'backfill',
  figures: {
    'backlog sales (machines × sales)': `${BACKLOG} (${BACKFILL_MACHINES} × ${BACKFILL_SALES})`,
    'seconds until the backlog is stored in PostgreSQL (target ≤ 60)': seconds(backlogStoredAt - backfillStart),
    'seconds until its last array is PUBACKed': seconds(fromEpoch(fleetResult.lastPubacked) - backfillStart),
    'seconds until its last sales/ack': seconds(fromEpoch(fleetResult.lastAcked) - backfillStart),
    'backlog sales stored/s': Math.round(BACKLOG / ((backlogStoredAt - backfillStart) / 1000)),
    'backfill CONNACK p50 / p99 (ms)': `${p(connects, 50)} / ${p(connects, 99)}`,
    'backfill array PUBACK p50 / p99 (ms)': `${p(arrays, 50)} / ${p(arrays, 99)}`,
    'baseline: live PUBACK p50 alone (ms)': p(alone, 50),
    'baseline: live PUBACK p99 alone (ms)': p(alone, 99),
    'live PUBACK p50 during backfill (ms)': p(during, 50),
    'live PUBACK p99 during backfill (ms, target < 100)': p(during, 99),
    'ratio live PUBACK p99 during / alone': Number((p(during, 99) / p(alone, 99)).toFixed(2)),
    'live machines sent late (>10 ms) / p99 lateness (ms), alone': lateness(liveTimes.late.get('alone')),
    'live machines sent late (>10 ms) / p99 lateness (ms), during backfill': lateness(liveTimes.late.get('backfill')),
    'live sales/ack p50 / p99 alone (ms)': `${p(liveTimes.ack.get('alone'), 50)} / ${p(liveTimes.ack.get('alone'), 99)}`,
    'live sales/ack p50 / p99 during backfill (ms)': `${p(liveTimes.ack.get('backfill'), 50)} / ${p(liveTimes.ack.get('backfill'), 99)}`,
    // A live machine's dropped connection fails the run (bench/lib/live-machines.mjs).
    'connections dropped: backfill (sales sent again)': `${fleetResult.drops} (${fleetResult.resent})`,
    'live sales timed alone / during backfill': `${alone?.length ?? 0} / ${during?.length ?? 0}`,
    ...check.figures,
  },
  notes:
    `${LIVE_MACHINES} live machines at ${LIVE_RATE} sales/s (open loop; latency from the scheduled time), ` +
    `${BACKFILL_MACHINES} machines back after ${OFFLINE_MINUTES} min offline sending ${BACKFILL_SALES} sales each ` +
    `in arrays of ${ARRAY}, one array in flight; api+broker and worker as two processes, on this machine with ` +
    `PostgreSQL and Redis.` +
    (CONNECT_FIRST ? ' Diagnosis run: the fleet connected first and published 5 s later (in the backlog time).' : '') +
    (check.ok ? '' : `\nCHECKS FAILED:\n  ${check.problems.join('\n  ')}`),
});
process.exit(check.ok ? 0 : 1);

/** Stops everything and removes the database and the Redis keys, then fails the benchmark. */
async function abort(error) {
  console.error(`\n${error.stack ?? error}`);
  live.kill('SIGKILL');
  fleet?.kill('SIGKILL');
  await db.end().catch(() => undefined);
  await deployment.teardown(procs).catch((e) => console.error(`teardown: ${e.message}`));
  process.exit(1);
}

/** Live PUBACK p50/p99 and backlog sales stored, second by second from the backfill's start. */
function printTimeline() {
  const buckets = new Map();
  for (const [at, latency] of liveTimes.timeline) {
    if (at < backfillStart - 3000 || at > backlogStoredAt + 2000) continue;
    const s = Math.floor((at - backfillStart) / 1000);
    (buckets.get(s) ?? buckets.set(s, []).get(s)).push(latency);
  }
  console.log('\n  s from backfill start: live PUBACK p50 / p99 (ms), backlog sales stored');
  for (const [s, values] of [...buckets].sort((a, b) => a[0] - b[0])) {
    const storedBy = storedAt.filter(([t]) => t <= backfillStart + (s + 1) * 1000).at(-1)?.[1] ?? 0;
    console.log(`  ${String(s).padStart(4)}: ${p(values, 50)} / ${p(values, 99)}, ${storedBy}`);
  }
}

/**
 * The live machines' PUBACK and `sales/ack` latencies and their own lateness in sending by the phase their due
 * time falls in, and [due time
 * (performance.now() of this process), PUBACK latency] of every sale for the timeline.
 */
function timesByPhase({ dueAt, lateMs, pubackMs, ackMs }) {
  const puback = new Map();
  const ack = new Map();
  const late = new Map();
  const timeline = [];
  const record = (map, phase, ms) => (map.get(phase) ?? map.set(phase, []).get(phase)).push(ms);
  for (let i = 0; i < dueAt.length; i++) {
    const due = dueAt[i] - performance.timeOrigin;
    const phase = phaseAt(due);
    record(puback, phase, pubackMs[i]);
    record(late, phase, lateMs[i]);
    timeline.push([due, pubackMs[i]]);
    if (!Number.isNaN(ackMs[i])) record(ack, phase, ackMs[i]);
  }
  return { puback, ack, late, timeline };
}
