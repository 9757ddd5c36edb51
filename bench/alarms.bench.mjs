// npm run bench -- alarms
// The alarm engine under a fleet's load (docs/alarms.md, "Benchmark"). BENCH_MACHINES (10,000) machines,
// raw mqtt-packet clients in BENCH_CLIENT_PROCS child processes, each publishing telemetry every
// BENCH_TELEMETRY_SECONDS (30 s), and BENCH_SALES_RATE (2,000) sales/s spread over the fleet, against
// api+broker and worker as two processes (APP_ROLES). In one run:
//  1. the engine's cost to ingest, three times (on, off with ALARMS_ENABLED=false, on again; the
//     program restarts between them and the machines reconnect): CPU per sale of the program's
//     processes and their PostgreSQL backends at the offered rate, and sales/s committed in a closed
//     loop (BENCH_SATURATE_MACHINES machines, BENCH_WINDOW publishes in flight each);
//  2. offline alarms: BENCH_OFFLINE_GROUP machines with offlineAfterMinutes 1 drop their connection;
//     each alarm's delay after its threshold (drop + 1 minute), then their reconnect clears them;
//  3. a fleet-wide outage: BENCH_OUTAGE machines drop at once; every offline alarm opens, and the SMTP
//     catcher and the SMS sink of the demo count what their managers received (digests, not one
//     message per machine).
import { fork, spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import net from 'node:net';
import pg from 'pg';
import { SmsSink, SmtpCatcher } from '../apps/demo/dist/outside/index.js';
import { cpuProbe } from './lib/alarms-cpu.mjs';
import { block, createFleet, espIdsOf, setOfflineAfter } from './lib/alarms-fleet.mjs';
import { percentile, report } from './lib/report.mjs';
import { adminToken, benchDeployment, startProcess, stopProcess } from './lib/stack.mjs';

for (const signal of ['SIGINT', 'SIGTERM']) process.once(signal, () => process.exit(130));
const num = (name, fallback) => Number(process.env[name] ?? fallback);
const MACHINES = num('BENCH_MACHINES', 10_000);
const SALES_RATE = num('BENCH_SALES_RATE', 2000);
const TELEMETRY_SECONDS = num('BENCH_TELEMETRY_SECONDS', 30);
const STEADY_SECONDS = num('BENCH_STEADY_SECONDS', 60);
const SATURATE_SECONDS = num('BENCH_SATURATE_SECONDS', 30);
const SATURATE_MACHINES = num('BENCH_SATURATE_MACHINES', 200);
const WINDOW = num('BENCH_WINDOW', 16);
const WARMUP_SECONDS = num('BENCH_WARMUP', 10);
const OFFLINE_GROUP = num('BENCH_OFFLINE_GROUP', Math.round(MACHINES / 20));
const OUTAGE = num('BENCH_OUTAGE', Math.round(MACHINES / 2));
const MANAGERS = num('BENCH_MANAGERS', 10);
const CLIENT_PROCS = num('BENCH_CLIENT_PROCS', 4);
const CONNECT_RATE = num('BENCH_CONNECT_RATE', 500);
/** The offline threshold the groups get, and the target: every alarm open within this after it. */
const OFFLINE_AFTER_MINUTES = 1;
const TARGET_DELAY_S = 60;
const TARGET_COST = 0.1;
const SECRET = 'alarms-bench-keys';
const SMS = { username: 'bench', apiKey: 'alarms-bench-sms-key' };
const ADDRESSES = Array.from({ length: 40 }, (_, i) => `127.0.1.${i + 1}`);
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
// Not Math.max(...values): a run's latencies overflow the call stack as arguments.
const maxOf = (values) => values.reduce((a, b) => (b > a ? b : a), -Infinity);
const minOf = (values) => values.reduce((a, b) => (b < a ? b : a), Infinity);
const log = (line) => console.log(`[${new Date().toISOString().slice(11, 19)}] ${line}`);

if (OFFLINE_GROUP + OUTAGE > MACHINES) throw new Error('BENCH_OFFLINE_GROUP + BENCH_OUTAGE exceed BENCH_MACHINES');
// One socket per machine in the broker process: raise the open-file limit (root may), inherited below.
spawnSync('prlimit', ['--pid', String(process.pid), '--nofile=200000:200000']);
const nofile = Number(/Max open files\s+(\d+)/.exec(readFileSync('/proc/self/limits', 'utf8'))?.[1]);
if (nofile < MACHINES + 500) throw new Error(`open files are limited to ${nofile}: lower BENCH_MACHINES`);

const freePort = () =>
  new Promise((resolve) => {
    const s = net.createServer().listen(0, '127.0.0.1', () => {
      const { port } = s.address();
      s.close(() => resolve(port));
    });
  });

// The outside world: the demo's SMTP catcher and Africa's Talking–like SMS sink, in this process.
const catcher = new SmtpCatcher();
const sink = new SmsSink(SMS);
await catcher.start();
await sink.start();

// Fixed ports: the program restarts on the same ones between the phases.
const database = 'wv_bench_alarms';
const deployment = await benchDeployment('alarms', {
  PORT: String(await freePort()),
  MQTT_PORT: String(await freePort()),
  // Every machine connects from a loopback address: lift the per-address limits meant for the field.
  MQTT_CONNECT_RATE: '100000',
  HTTP_RATE_LIMIT: '100000',
  SMTP_URL: catcher.url,
  MAIL_FROM: 'alarms@alarms.bench',
  SMS_URL: sink.url,
  SMS_USERNAME: SMS.username,
  SMS_API_KEY: SMS.apiKey,
});
const { env } = deployment;
const api = `http://127.0.0.1:${env.PORT}/api`;
let procs = [];
let stopping = false;
/** A program process that dies unasked ends the run: figures measured without it would be wrong. */
function watch(p, role) {
  p.child.once('exit', (code, signal) => {
    if (stopping) return;
    stopping = true;
    const tail = p.output().split('\n').slice(-40).join('\n');
    console.error(`\nThe ${role} process ended during the run (${signal ?? code}); its last output:\n${tail}`);
    void deployment.teardown(procs).finally(() => process.exit(1));
  });
  return p;
}
async function startStack(enabled) {
  const e = { ...env, ALARMS_ENABLED: String(enabled) };
  const front = watch(await startProcess({ ...e, APP_ROLES: 'api,broker' }), 'api,broker');
  const worker = watch(await startProcess({ ...e, APP_ROLES: 'worker' }), 'worker');
  procs = [front, worker];
}
await startStack(true);

const db = new pg.Client({ connectionString: deployment.databaseUrl });
// The teardown after a failure drops the database under this connection.
db.on('error', () => undefined);
await db.connect();
const token = await adminToken(`http://127.0.0.1:${env.PORT}`);
log(`inserting ${MACHINES} machines for ${MANAGERS} managers`);
const managers = await createFleet({
  db,
  api,
  adminToken: token,
  secret: SECRET,
  machines: MACHINES,
  managers: MANAGERS,
});
const cpu = cpuProbe(db, database, () => ({ api: procs[0].child.pid, worker: procs[1].child.pid }));

// --- the machines -------------------------------------------------------------------------------
const clients = Array.from({ length: CLIENT_PROCS }, (_, k) => {
  const range = block(k, CLIENT_PROCS, MACHINES);
  const child = fork(new URL('./lib/alarms-machines.mjs', import.meta.url).pathname, [
    JSON.stringify({ port: Number(env.MQTT_PORT), secret: SECRET, ...range, addresses: ADDRESSES, tag: `c${k}` }),
  ]);
  process.once('exit', () => child.kill('SIGKILL'));
  return child;
});
const reply = (child, type) =>
  new Promise((resolve) => {
    const on = (m) => {
      if (m.type !== type) return;
      child.off('message', on);
      resolve(m);
    };
    child.on('message', on);
  });
await Promise.all(clients.map((c) => reply(c, 'ready')));
/** Sends `message` to every client process and waits for each one's reply of `type`. */
const all = (message, type) => {
  const replies = clients.map((c) => reply(c, type));
  clients.forEach((c) => c.send(message));
  return Promise.all(replies);
};
async function connectFleet() {
  const parts = await all({ cmd: 'connect', rate: CONNECT_RATE / CLIENT_PROCS, deadlineMs: 600_000 }, 'connected');
  const ok = parts.reduce((n, p) => n + p.ok, 0);
  const seconds = Math.max(...parts.map((p) => p.seconds));
  log(`${ok} machines connected in ${seconds.toFixed(1)} s`);
  return { ok, seconds };
}
const online = async () => (await all({ cmd: 'count' }, 'count')).reduce((n, c) => n + c.online, 0);

// Sales: every PUBACKed sale must end up stored; the rollups count them in the same transaction.
let pubackedTotal = 0;
const committed = async () =>
  Number((await db.query('SELECT coalesce(sum(sales_count), 0)::bigint AS n FROM sales_daily')).rows[0].n);
async function startSales() {
  await all({ cmd: 'sales', rate: SALES_RATE / CLIENT_PROCS }, 'sales');
}
async function stopSales() {
  const parts = await all({ cmd: 'sales', rate: 0 }, 'sales');
  const pubacked = parts.reduce((n, p) => n + p.pubacked, 0);
  pubackedTotal += pubacked;
  return {
    pubacked,
    lost: parts.reduce((n, p) => n + p.lost, 0),
    skipped: parts.reduce((n, p) => n + p.skipped, 0),
    latencies: parts.flatMap((p) => p.latencies),
  };
}
/** Waits until every sale PUBACKed so far is committed; returns when (performance.now()). */
async function drained(timeoutMs = 600_000) {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if ((await committed()) >= pubackedTotal) return performance.now();
    await sleep(250);
  }
  throw new Error(`sales not committed within ${timeoutMs / 1000} s: ${await committed()} of ${pubackedTotal}`);
}

// --- 1. the engine's cost -----------------------------------------------------------------------
const cpuMs = (d) => d.api + d.worker + d.db;
/** One engine state: CPU per sale at the offered rate, then sales/s in a closed loop. */
async function costPhase(label) {
  log(`${label}: ${SALES_RATE} sales/s and telemetry for ${STEADY_SECONDS} s`);
  await startSales();
  await sleep(WARMUP_SECONDS * 1000);
  const s0 = await cpu.sample();
  const c0 = await committed();
  const t0 = performance.now();
  await sleep(STEADY_SECONDS * 1000);
  const sales = await stopSales();
  // Up to the last commit: work the program put off is counted with the sales that caused it.
  const steadySeconds = ((await drained()) - t0) / 1000;
  const c1 = await committed();
  const s1 = await cpu.sample();
  const steadyCpu = cpu.diff(s0, s1);
  const steady = {
    committedPerSecond: (c1 - c0) / steadySeconds,
    cpuMsPerSale: (cpuMs(steadyCpu) * 1000) / (c1 - c0),
    cpuShare: cpuMs(steadyCpu) / steadySeconds,
    cpu: steadyCpu,
    puback: { p50: percentile(sales.latencies, 50), p99: percentile(sales.latencies, 99) },
    lost: sales.lost,
  };

  log(`${label}: closed loop, ${SATURATE_MACHINES} machines × ${WINDOW} in flight for ${SATURATE_SECONDS} s`);
  await all({ cmd: 'saturate', count: Math.ceil(SATURATE_MACHINES / CLIENT_PROCS), window: WINDOW }, 'saturate');
  await sleep(WARMUP_SECONDS * 1000);
  const a0 = await cpu.sample();
  const k0 = await committed();
  const u0 = performance.now();
  await sleep(SATURATE_SECONDS * 1000);
  const parts = await all({ cmd: 'saturate', count: 0 }, 'saturate');
  pubackedTotal += parts.reduce((n, p) => n + p.pubacked, 0);
  const u1 = await drained();
  const k1 = await committed();
  const a1 = await cpu.sample();
  const satCpu = cpu.diff(a0, a1);
  const saturated = {
    committedPerSecond: (k1 - k0) / ((u1 - u0) / 1000),
    cpuMsPerSale: (cpuMs(satCpu) * 1000) / (k1 - k0),
    machines: parts.reduce((n, p) => n + p.machines, 0),
  };
  log(
    `${label}: ${steady.committedPerSecond.toFixed(0)} sales/s at ${steady.cpuMsPerSale.toFixed(3)} ms CPU each; ` +
      `closed loop ${saturated.committedPerSecond.toFixed(0)} sales/s at ${saturated.cpuMsPerSale.toFixed(3)} ms CPU each`,
  );
  return { steady, saturated };
}
async function restart(enabled) {
  log(`restarting the program with ALARMS_ENABLED=${enabled}`);
  stopping = true;
  await Promise.all(procs.map(stopProcess));
  stopping = false;
  await startStack(enabled);
  await connectFleet();
}

// --- 2 and 3. offline alarms --------------------------------------------------------------------
/** Drops the machines [from, to) at once; waits for their offline alarms; then brings them back. */
async function outage({ from, to }, label) {
  const espIds = espIdsOf({ from, to });
  await setOfflineAfter(db, espIds, OFFLINE_AFTER_MINUTES);
  const since = new Date();
  const parts = await all({ cmd: 'drop', from, to }, 'dropped');
  const droppedAt = new Map(parts.flatMap((p) => p.dropped));
  log(`${label}: ${droppedAt.size} machines dropped; waiting for their offline alarms`);
  const lastThreshold = maxOf([...droppedAt.values()]) + OFFLINE_AFTER_MINUTES * 60_000;
  const deadline = lastThreshold + 3 * TARGET_DELAY_S * 1000;
  // When each alarm is first seen committed (polled every 500 ms): openedAt is the sweep's start, and
  // a sweep opening thousands takes a while, so the time it becomes visible is the honest one.
  const seen = new Map();
  while (Date.now() < deadline) {
    const { rows } = await db.query(
      `SELECT esp_id FROM alarms WHERE kind = 'offline' AND esp_id = ANY($1::text[]) AND opened_at >= $2`,
      [espIds, since.toISOString()],
    );
    const now = Date.now();
    for (const r of rows) if (!seen.has(r.esp_id)) seen.set(r.esp_id, now);
    if (seen.size >= droppedAt.size) break;
    await sleep(500);
  }
  const rows = [...seen].filter(([espId]) => droppedAt.has(Number(espId.slice(5))));
  const delays = rows.map(
    ([espId, at]) => (at - droppedAt.get(Number(espId.slice(5))) - OFFLINE_AFTER_MINUTES * 60_000) / 1000,
  );
  const openings = rows.map(([, at]) => at);
  const result = {
    dropped: droppedAt.size,
    opened: rows.length,
    delayP50: percentile(delays, 50),
    delayP99: percentile(delays, 99),
    delayMax: maxOf(delays),
    late: delays.filter((d) => d > TARGET_DELAY_S).length,
    openingSpan: rows.length ? (maxOf(openings) - minOf(openings)) / 1000 : NaN,
    since,
    espIds,
  };
  log(
    `${label}: ${result.opened}/${result.dropped} offline alarms open; delay after the threshold ` +
      `p50 ${result.delayP50.toFixed(1)} s, p99 ${result.delayP99.toFixed(1)} s, max ${result.delayMax.toFixed(1)} s`,
  );
  return result;
}
/** Reconnects [from, to); the connects clear their offline alarms (docs/alarms.md, "offline"). */
async function recover({ from, to }, espIds) {
  await all({ cmd: 'up', from, to }, 'up');
  const t0 = performance.now();
  await connectFleet();
  const deadline = Date.now() + 120_000;
  let active = Infinity;
  while (Date.now() < deadline) {
    active = Number(
      (
        await db.query(
          `SELECT count(*)::int AS n FROM alarms WHERE kind = 'offline' AND esp_id = ANY($1::text[]) AND status <> 'cleared'`,
          [espIds],
        )
      ).rows[0].n,
    );
    if (active === 0) break;
    await sleep(500);
  }
  return { stillActive: active, seconds: (performance.now() - t0) / 1000 };
}

/** Waits until every message of these machines' alarms is settled; counts what the catcher and the sink got. */
async function messagesOf(espIds, since, people) {
  const deadline = Date.now() + 300_000;
  let queued = [];
  while (Date.now() < deadline) {
    ({ rows: queued } = await db.query(
      `SELECT o.channel, o.status, count(*)::int AS n FROM notification_outbox o JOIN alarms a ON a.id = o.alarm_id
       WHERE a.esp_id = ANY($1::text[]) AND a.opened_at >= $2 GROUP BY 1, 2`,
      [espIds, since.toISOString()],
    ));
    if (queued.length && queued.every((r) => r.status === 'sent' || r.status === 'failed')) break;
    await sleep(1000);
  }
  const emails = catcher.messages().filter((m) => m.receivedAt >= since && people.some((p) => m.to.includes(p.email)));
  const sms = sink.messages().filter((s) => s.receivedAt >= since && people.some((p) => s.to === p.phoneNumber));
  const perRecipient = people.flatMap((p) => [
    emails.filter((m) => m.to.includes(p.email)).length,
    sms.filter((s) => s.to === p.phoneNumber).length,
  ]);
  return {
    queued,
    emails: emails.length,
    sms: sms.length,
    maxPerRecipientAndChannel: Math.max(...perRecipient),
    // A digest names its count: the email in X-Alarm-Count, the SMS in its first words.
    alarmsInEmails: emails.reduce((n, m) => n + Number(m.headers['x-alarm-count'] ?? 1), 0),
    alarmsInSms: sms.reduce((n, s) => n + Number(/^(\d+) alarms \(/.exec(s.message)?.[1] ?? 1), 0),
  };
}

// --- the run ------------------------------------------------------------------------------------
const ramp = await connectFleet();
await all({ cmd: 'telemetry', periodMs: TELEMETRY_SECONDS * 1000 }, 'telemetry');
const telemetryRows0 = Number((await db.query('SELECT count(*)::int AS n FROM telemetry')).rows[0].n);
// A warm-up at the offered load (the first rollup rows, the JIT, the pools), not measured.
await startSales();
await sleep(2 * WARMUP_SECONDS * 1000);
await stopSales();
await drained();
// BENCH_COST=false: the offline phases only (a quicker check of them).
const cost = process.env.BENCH_COST === 'false' ? null : { on1: await costPhase('engine on') };
if (cost) {
  await restart(false);
  cost.off = await costPhase('engine off');
  await restart(true);
  cost.on2 = await costPhase('engine on again');
}

// Offline alarms under the offered load: the first block of machines, then the outage from the end.
await startSales();
const groupRange = { from: 0, to: OFFLINE_GROUP };
const outageRange = { from: MACHINES - OUTAGE, to: MACHINES };
const group = await outage(groupRange, 'offline group');
const groupBack = await recover(groupRange, group.espIds);
const fleetOutage = await outage(outageRange, 'fleet-wide outage');
const outagePeople = managers.filter((p) => p.to > outageRange.from);
const outageMessages = await messagesOf(fleetOutage.espIds, fleetOutage.since, outagePeople);
const outageBack = await recover(outageRange, fleetOutage.espIds);
const finalSales = await stopSales();
await drained();
const telemetry = (await all({ cmd: 'count' }, 'count')).reduce(
  (t, c) => ({ sent: t.sent + c.telemetry.sent, acked: t.acked + c.telemetry.acked }),
  { sent: 0, acked: 0 },
);
const telemetryRows = Number((await db.query('SELECT count(*)::int AS n FROM telemetry')).rows[0].n) - telemetryRows0;
const stored = await committed();
const stillOnline = await online();
clients.forEach((c) => c.send({ cmd: 'exit' }));
await db.end();
stopping = true;
await deployment.teardown(procs);
await catcher.stop();
await sink.stop();

// --- the figures --------------------------------------------------------------------------------
const f1 = (v) => Number(v.toFixed(1));
const f3 = (v) => Number(v.toFixed(3));
const channels = 2;
// The digest window (NOTIFICATION_DIGEST_SECONDS, 60 s by default): the first message at once, then at
// most one per window while alarms keep opening, and one for the rest.
const messageBound = outagePeople.length * channels * (2 + Math.ceil(fleetOutage.openingSpan / 60));
const bounded = outageMessages.emails + outageMessages.sms <= messageBound;
const delivered =
  outageMessages.alarmsInEmails === fleetOutage.opened && outageMessages.alarmsInSms === fleetOutage.opened;
const phaseFigures = (name, p) => ({
  [`${name}: sales/s committed at ${SALES_RATE}/s offered`]: Math.round(p.steady.committedPerSecond),
  [`${name}: PUBACK p50 / p99 (ms)`]: `${p.steady.puback.p50} / ${p.steady.puback.p99}`,
  [`${name}: CPU s of api / worker / db backends`]: `${f1(p.steady.cpu.api)} / ${f1(p.steady.cpu.worker)} / ${f1(p.steady.cpu.db)}`,
  [`${name}: CPU ms per sale`]: f3(p.steady.cpuMsPerSale),
  [`${name}: closed loop sales/s committed`]: Math.round(p.saturated.committedPerSecond),
});
function costFigures({ on1, off, on2 }) {
  const onSat = (on1.saturated.committedPerSecond + on2.saturated.committedPerSecond) / 2;
  const onCpu = (on1.steady.cpuMsPerSale + on2.steady.cpuMsPerSale) / 2;
  const saturationCost = 1 - onSat / off.saturated.committedPerSecond;
  const cpuCost = onCpu / off.steady.cpuMsPerSale - 1;
  return {
    ...phaseFigures('engine on', on1),
    ...phaseFigures('engine off', off),
    ...phaseFigures('engine on again', on2),
    'engine cost: closed-loop sales/s lost (on mean vs off)': `${f1(saturationCost * 100)} %`,
    'engine cost: CPU per sale added (on mean vs off)': `${f1(cpuCost * 100)} %`,
    [`engine cost within ${TARGET_COST * 100} % (both measures)`]:
      saturationCost <= TARGET_COST && cpuCost <= TARGET_COST,
  };
}
report({
  name: 'alarms',
  figures: {
    'machines connected (first ramp: s)': `${ramp.ok} (${f1(ramp.seconds)})`,
    'telemetry readings published / PUBACKed / stored (engine off drops them)': `${telemetry.sent} / ${telemetry.acked} / ${telemetryRows}`,
    ...(cost ? costFigures(cost) : {}),
    'offline group: alarms opened / machines dropped': `${group.opened} / ${group.dropped}`,
    'offline group: delay after threshold p50 / p99 / max (s)': `${f1(group.delayP50)} / ${f1(group.delayP99)} / ${f1(group.delayMax)}`,
    'offline group: cleared on reconnect (still active; s)': `${groupBack.stillActive} (${f1(groupBack.seconds)})`,
    'outage: alarms opened / machines dropped': `${fleetOutage.opened} / ${fleetOutage.dropped}`,
    'outage: delay after threshold p50 / p99 / max (s)': `${f1(fleetOutage.delayP50)} / ${f1(fleetOutage.delayP99)} / ${f1(fleetOutage.delayMax)}`,
    'outage: seconds from first to last opening': f1(fleetOutage.openingSpan),
    [`every offline alarm open within ${TARGET_DELAY_S} s of its threshold`]: group.late + fleetOutage.late === 0,
    'outage: recipients (managers) × channels': `${outagePeople.length} × ${channels}`,
    'outage: emails / SMS received': `${outageMessages.emails} / ${outageMessages.sms}`,
    'outage: most messages to one recipient on one channel': outageMessages.maxPerRecipientAndChannel,
    'outage: alarms counted in the emails / SMS': `${outageMessages.alarmsInEmails} / ${outageMessages.alarmsInSms}`,
    'outage: messages bounded by the digest window': bounded,
    'outage: cleared on reconnect (still active; s)': `${outageBack.stillActive} (${f1(outageBack.seconds)})`,
    'sales PUBACKed / stored': `${pubackedTotal} / ${stored}`,
  },
  notes:
    `${MACHINES} machines (raw mqtt-packet clients in ${CLIENT_PROCS} processes) owned by ${MANAGERS} managers with ` +
    `email and phone; telemetry every ${TELEMETRY_SECONDS} s (QoS 1); ${SALES_RATE} sales/s offered on a fixed schedule ` +
    `over the connected machines; api+broker and worker as two processes, restarted between the engine states ` +
    `(on, off with ALARMS_ENABLED=false, on). CPU per sale: the two processes and their PostgreSQL backends over ` +
    `${STEADY_SECONDS} s at the offered rate (Redis not counted). Closed loop: ${SATURATE_MACHINES} machines × ${WINDOW} ` +
    `in flight for ${SATURATE_SECONDS} s, committed rows over the time until the last is committed. Offline groups: ` +
    `offlineAfterMinutes ${OFFLINE_AFTER_MINUTES}, delay from the client's drop + ${OFFLINE_AFTER_MINUTES} min until the ` +
    `alarm is seen committed (polled every 0.5 s), sweep every 30 s (default). Outbox at the end of the outage: ${JSON.stringify(outageMessages.queued)}; ` +
    `sales during the offline phases lost with their session: ${finalSales.lost}; machines online at the end: ${stillOnline}.`,
});
const correct = group.opened === group.dropped && fleetOutage.opened === fleetOutage.dropped && bounded && delivered;
process.exit(correct && stored >= pubackedTotal ? 0 : 1);
