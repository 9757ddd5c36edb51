// npm run bench -- ingest
// Sales over MQTT QoS 1 into PostgreSQL, end to end, beside the physical ceilings measured in the same run.
//
// 1. Baselines (median of 3, each into a fresh table shaped like `sales`, with its indexes): a plain
//    1000-row INSERT … ON CONFLICT DO NOTHING, and COPY FROM STDIN, of rows like the bench's sales.
// 2. Open loop at BENCH_LOAD (0.5) × the INSERT baseline just measured (or BENCH_RATE sales/s): the fleet
//    publishes on a fixed schedule whatever the broker does; PUBACK latency counts from each sale's due
//    time, so a server that falls behind shows its queueing as latency instead of slowing the load.
// 3. Closed loop: BENCH_WINDOW publishes in flight per machine, the next one sent at each PUBACK: the
//    rate the pipeline saturates at.
// Each phase: a BENCH_WARMUP-second warm-up, then BENCH_SECONDS measured. The load comes from
// BENCH_GENERATORS separate processes (bench/lib/ingest-generator.mjs), which report their own CPU and
// how late they sent. The program runs as two processes (api+broker, worker) unless BENCH_SPLIT=false.
// CPU of every process from /proc, as a share of one core; memory as peak RSS (PSS summed for PostgreSQL).
// BENCH_PROFILE=DIR writes V8 CPU profiles of the server processes and the generators into DIR.
// BENCH_PHASES=open,closed chooses the phases. The worker process runs at the program's own WORKER_NICE (10 unless
// the environment says otherwise: WORKER_NICE=0 compares), and BENCH_BROKER_FIFO=true puts the api+broker process
// under the real-time SCHED_FIFO policy (root or CAP_SYS_NICE), for experiments with how the two cores are shared
// (docs/performance.md). BENCH_TIMELINE=true prints the PUBACK latency of the sales due in each BENCH_TIMELINE_MS
// (1000) of the measured phase, by epoch ms, to be laid beside the logs of BENCH_LOG_DIR. In embedded mode the broker's own histogram of a live sale's wait until durable
// (wv_broker_sale_durable_seconds, read from /api/metrics before and after each phase) is reported beside the PUBACK.
// 4. BENCH_MODES=embedded,external: the same phases again with MQTT_MODE=external, the machines on a Mosquitto of
//    the run's own (docs/external-mqtt.md) on a fresh database, against the same baselines. A machine without
//    Debian's mosquitto package runs the embedded mode alone and says so.
import { execFileSync, fork } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { mkdirSync } from 'node:fs';
import { setPriority } from 'node:os';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import pg from 'pg';
import { from as copyFrom } from 'pg-copy-streams';
import { percentile, report } from './lib/report.mjs';
import { mb, rssOf } from './lib/measure.mjs';
import { cpuMeter, nicenessOf, pidsNamed, pssBytes } from './lib/proc.mjs';
import { BASELINE_COLUMNS, createBaselineTable, insertBaselineRows } from './lib/insert-baseline.mjs';
import { startMosquitto, mosquittoPlugin } from './lib/mosquitto.mjs';
import { adminToken, benchDeployment, programNodeArgs, provisionMachines, startProcess } from './lib/stack.mjs';

const SECONDS = Number(process.env.BENCH_SECONDS ?? 30);
const WARMUP = Number(process.env.BENCH_WARMUP ?? 5);
const MACHINES = Number(process.env.BENCH_MACHINES ?? 200);
const WINDOW = Number(process.env.BENCH_WINDOW ?? 16);
const LOAD = Number(process.env.BENCH_LOAD ?? 0.5);
const FIXED_RATE = Number(process.env.BENCH_RATE ?? 0);
const GENERATORS = Number(process.env.BENCH_GENERATORS ?? 2);
const NICE = process.env.BENCH_GENERATOR_NICE === 'true';
const BROKER_FIFO = process.env.BENCH_BROKER_FIFO === 'true';
const BASELINE_ROWS = Number(process.env.BENCH_BASELINE_ROWS ?? 100_000);
const SPLIT = process.env.BENCH_SPLIT !== 'false';
const PHASES = (process.env.BENCH_PHASES ?? 'open,closed').split(',');
const PROFILE = process.env.BENCH_PROFILE;
const TIMELINE = process.env.BENCH_TIMELINE === 'true';
const TIMELINE_MS = Number(process.env.BENCH_TIMELINE_MS ?? 1000);
const MODES = (process.env.BENCH_MODES ?? 'embedded,external')
  .split(',')
  .filter(
    (mode) => mode !== 'external' || mosquittoPlugin() || !console.log('  no mosquitto here: external mode skipped'),
  );
/** Sales PUBACKed but not in PostgreSQL this long after the last PUBACK count as lost. */
// Nothing committed for STALL_MS ends the wait for the PUBACKed sales; DRAIN_LIMIT_MS bounds it in any case.
const STALL_MS = 30_000;
const DRAIN_LIMIT_MS = 900_000;

const now = () => performance.timeOrigin + performance.now();
const sleep = (ms) => new Promise((r) => setTimeout(r, Math.max(0, ms)));
const round = (v, digits = 1) => Number(v.toFixed(digits));
const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];

if (PROFILE) {
  mkdirSync(PROFILE, { recursive: true });
  process.env.BENCH_NODE_ARGS = `${process.env.BENCH_NODE_ARGS ?? ''} --cpu-prof --cpu-prof-dir=${PROFILE}`;
}

// Every simulated machine connects from 127.0.0.1: lift the per-address limits meant for the field. The
// database is named after this process, so that two runs can share the machine (the busy measurement).
let deployment, procs, front, machines, db, generators, meter, mosquitto;
let pubackedSoFar = 0;
/** The worker process's niceness as it set it itself (WORKER_NICE), read from /proc. */
let workerNiceness;
/** Where the embedded broker's own histogram of a live sale's wait is read (GET /api/metrics); null in external mode. */
let metricsOf = null;

/** The cumulative buckets of `wv_broker_sale_durable_seconds` as [upper bound in ms, count], +Inf last. */
async function brokerWaits() {
  const response = await fetch(`${metricsOf.base}/api/metrics`, {
    headers: { authorization: `Bearer ${metricsOf.token}` },
  });
  const text = await response.text();
  return [...text.matchAll(/^wv_broker_sale_durable_seconds_bucket\{le="([^"]+)"[^}]*\} (\d+)$/gm)].map(([, le, n]) => [
    le === '+Inf' ? Infinity : Number(le) * 1000,
    Number(n),
  ]);
}

/** The q-th percentile of the sales counted between two readings, interpolated within its bucket as Prometheus does. */
function histogramPercentile(before, after, q) {
  const counts = after.map(([le, n], i) => [le, n - (before[i]?.[1] ?? 0)]);
  const total = counts.at(-1)?.[1] ?? 0;
  if (total === 0) return NaN;
  const rank = (q / 100) * total;
  let lower = 0;
  let below = 0;
  for (const [le, n] of counts) {
    if (n >= rank) return le === Infinity ? lower : lower + ((le - lower) * (rank - below)) / Math.max(1, n - below);
    lower = le;
    below = n;
  }
  return lower;
}

/** The program (and for external mode its Mosquitto), its machines, the generators and the CPU meter. */
async function startStack(mode) {
  mosquitto = mode === 'external' ? await startMosquitto() : undefined;
  deployment = await benchDeployment(`ingest_${mode}_${process.pid}`, {
    MQTT_CONNECT_RATE: '100000',
    HTTP_RATE_LIMIT: '100000',
    ...(mosquitto ? { ...mosquitto.env, MQTT_CLIENT_ID: `wv-bench-${process.pid}` } : {}),
  });
  const { env } = deployment;
  procs = SPLIT
    ? [await startProcess({ ...env, APP_ROLES: 'api,broker' }), await startProcess({ ...env, APP_ROLES: 'worker' })]
    : [await startProcess(env)];
  if (SPLIT) workerNiceness = nicenessOf(procs[1].child.pid).join('/');
  // Every thread of the api+broker process under SCHED_FIFO: it runs whenever it can (needs CAP_SYS_NICE).
  if (BROKER_FIFO) execFileSync('chrt', ['--all-tasks', '--fifo', '--pid', '10', String(procs[0].child.pid)]);
  front = procs[0];
  const base = `http://127.0.0.1:${front.httpPort}`;
  const token = await adminToken(base);
  metricsOf = mosquitto ? null : { base, token };
  machines = await provisionMachines(base, token, MACHINES, 'BENCH');
  db = new pg.Client({ connectionString: deployment.databaseUrl });
  await db.connect();
  pubackedSoFar = 0;
  // External mode: the machines' identities reach Mosquitto through the relay (about half a second).
  if (mosquitto) await sleep(3000);
}

// ---- 1. Baselines -------------------------------------------------------------------------------------

function baselineRows(count) {
  const today = new Date().toISOString().slice(0, 10);
  return Array.from({ length: count }, (_, n) => {
    const volume = [1, 5, 10, 20][n % 4];
    const at = new Date();
    return [
      machines[n % machines.length].espId,
      randomUUID(),
      n % 3 ? 'coin' : 'card',
      (volume * 40).toFixed(2),
      volume.toFixed(3),
      ['pure', 'fresh', 'cold'][n % 3],
      n % 3 ? null : `CARD-${n % 50}`,
      at,
      today,
      at,
      'mqtt',
    ];
  });
}

async function insertBaseline(rows) {
  await createBaselineTable(db);
  const started = performance.now();
  await insertBaselineRows(db, rows);
  return rows.length / ((performance.now() - started) / 1000);
}

async function copyBaseline(rows) {
  await createBaselineTable(db);
  const text = (v) => (v === null ? '\\N' : v instanceof Date ? v.toISOString() : String(v));
  const started = performance.now();
  const lines = (function* () {
    for (let i = 0; i < rows.length; i += 1000) {
      yield (
        rows
          .slice(i, i + 1000)
          .map((r) => r.map(text).join('\t'))
          .join('\n') + '\n'
      );
    }
  })();
  await pipeline(Readable.from(lines), db.query(copyFrom(`COPY baseline_sales (${BASELINE_COLUMNS}) FROM STDIN`)));
  return rows.length / ((performance.now() - started) / 1000);
}

async function measureBaselines() {
  const insertRates = [];
  const copyRates = [];
  for (let i = 0; i < 3; i++) {
    insertRates.push(await insertBaseline(baselineRows(BASELINE_ROWS)));
    copyRates.push(await copyBaseline(baselineRows(BASELINE_ROWS)));
  }
  await db.query('DROP TABLE baseline_sales');
  console.log(
    `  baselines: INSERT ${insertRates.map(Math.round).join(', ')} rows/s, COPY ${copyRates.map(Math.round).join(', ')} rows/s`,
  );
  return { insertBaselineRate: median(insertRates), copyBaselineRate: median(copyRates) };
}

// ---- 2. The load generators ----------------------------------------------------------------------------
async function startGenerators() {
  generators = await Promise.all(
    Array.from({ length: GENERATORS }, async (_, g) => {
      const child = fork(new URL('./lib/ingest-generator.mjs', import.meta.url).pathname, {
        serialization: 'advanced',
        execArgv: PROFILE ? ['--cpu-prof', `--cpu-prof-dir=${PROFILE}`] : [],
      });
      process.once('exit', () => child.kill('SIGKILL'));
      // The generators share the cores with the server: at the lowest priority they take what the server
      // leaves, instead of taking turns with it. A generator that cannot keep up says so (lateness), and its
      // lateness counts in the latency, which is timed from each sale's due time.
      if (NICE) setPriority(child.pid, 19);
      const share = machines.filter((_, i) => i % GENERATORS === g);
      const next = nextMessage(child);
      child.send({ cmd: 'connect', port: mosquitto ? mosquitto.port : front.mqttPort, machines: share });
      await next;
      return { child, machines: share.length };
    }),
  );
  meter = cpuMeter({
    broker: () => [front.child.pid],
    ...(SPLIT ? { worker: () => [procs[1].child.pid] } : {}),
    ...(mosquitto ? { Mosquitto: () => [mosquitto.pid] } : {}),
    generators: () => generators.map((g) => g.child.pid),
    PostgreSQL: () => pidsNamed('postgres'),
    Redis: () => pidsNamed('redis-server'),
    bench: () => [process.pid],
  });
}

async function stopStack() {
  await Promise.all(
    generators.map(
      (g) =>
        new Promise((resolve) => {
          g.child.once('exit', resolve);
          g.child.send({ cmd: 'end' });
        }),
    ),
  );
  await db.end();
  await deployment.teardown(procs);
  await mosquitto?.stop();
}

function nextMessage(child) {
  return new Promise((resolve, reject) => {
    const onMessage = (message) => {
      if (message.ev === 'error') return reject(new Error(`generator: ${message.message}`));
      child.off('message', onMessage);
      resolve(message);
    };
    child.on('message', onMessage);
  });
}

const committed = async () =>
  Number((await db.query('SELECT coalesce(sum(sales_count), 0)::bigint AS n FROM sales_daily')).rows[0].n);

async function runPhase(mode, rate) {
  const startAt = now() + 300;
  const measureFrom = startAt + WARMUP * 1000;
  const endAt = measureFrom + SECONDS * 1000;
  const peaks = { broker: 0, worker: 0, generators: 0, Mosquitto: 0 };
  // How often the worker ran at niceness 0, having fallen behind (docs/performance.md, "The worker takes its priority
  // back"), sampled every half second from the warm-up to the end of the phase.
  const workerNice = { samples: 0, catchingUp: 0 };
  const sampleProcesses = () => {
    if (SPLIT && workerNiceness !== '0') {
      workerNice.samples++;
      if (nicenessOf(procs[1].child.pid)[0] === 0) workerNice.catchingUp++;
    }
    peaks.broker = Math.max(peaks.broker, rssOf(front.child.pid));
    if (SPLIT) peaks.worker = Math.max(peaks.worker, rssOf(procs[1].child.pid));
    if (mosquitto) peaks.Mosquitto = Math.max(peaks.Mosquitto, rssOf(mosquitto.pid));
    peaks.generators = Math.max(
      peaks.generators,
      generators.reduce((sum, g) => sum + rssOf(g.child.pid), 0),
    );
  };
  const sampleTimer = setInterval(sampleProcesses, 500);
  // Each broker process adds its counts to the shared histogram every 5 s (docs/operations.md, "Metrics and alerts"): read 5.1 s
  // into the measured phase, the first reading holds no sale of the warm-up, and the last, 5.5 s after the drain,
  // every sale of the phase.
  const waitsBefore = metricsOf
    ? sleep(measureFrom + 5_100 - now())
        .then(brokerWaits)
        .catch(() => null)
    : null;
  const ticker = setInterval(
    () => process.stdout.write(`\r  ${mode} loop: ${((now() - startAt) / 1000).toFixed(0)} s`),
    5000,
  );
  const done = generators.map((g) => nextMessage(g.child));
  generators.forEach((g, i) =>
    g.child.send({
      cmd: 'run',
      mode,
      rate: rate / GENERATORS,
      window: WINDOW,
      startAt,
      measureFrom,
      endAt,
      firstSale: i * 1_000_000_000,
      timeline: TIMELINE,
    }),
  );
  await sleep(measureFrom - now());
  meter.mark();
  const committedAtMeasure = await committed();
  await sleep(endAt - now());
  const cpu = meter.shares();
  const results = await Promise.all(done);
  clearInterval(ticker);
  clearInterval(sampleTimer);
  sampleProcesses();
  const pubacked = results.reduce((sum, r) => sum + r.pubacked, 0);
  const sent = results.reduce((sum, r) => sum + r.sent, 0);
  pubackedSoFar += pubacked;
  const lastPubackAt = results.reduce((a, r) => Math.max(a, r.lastPubackAt), 0);
  // Waits while sales keep committing: in external mode Mosquitto PUBACKs faster than the program consumes, and a
  // closed loop leaves minutes of sales queued there. Only a stall (or the hard limit) ends the wait early, and
  // what is missing then is reported as not stored.
  let stored = await committed();
  let progressAt = now();
  while (stored < pubackedSoFar && now() - progressAt < STALL_MS && now() - lastPubackAt < DRAIN_LIMIT_MS) {
    await sleep(50);
    const next = await committed();
    if (next > stored) progressAt = now();
    stored = next;
  }
  const committedAt = now();
  let brokerWait = null;
  if (waitsBefore) {
    await sleep(5_500);
    const [before, after] = [await waitsBefore, await brokerWaits()];
    if (before)
      brokerWait = { p50: histogramPercentile(before, after, 50), p99: histogramPercentile(before, after, 99) };
  }
  const latencies = results.flatMap((r) => [...r.latencies]);
  if (TIMELINE) printTimeline(results);
  const lateness = results.flatMap((r) => [...r.lateness]);
  const measuredSeconds = (committedAt - measureFrom) / 1000;
  const pgMemory = pidsNamed('postgres').reduce((sum, pid) => sum + pssBytes(pid), 0);
  const redisMemory = pidsNamed('redis-server').reduce((sum, pid) => sum + pssBytes(pid), 0);
  const late = lateness.filter((ms) => ms > 10).length;
  return {
    sent,
    pubacked,
    lost: Math.max(0, pubackedSoFar - stored),
    endToEnd: (stored - committedAtMeasure) / measuredSeconds,
    p50: percentile(latencies, 50),
    p99: percentile(latencies, 99),
    max: latencies.reduce((a, b) => Math.max(a, b), 0),
    lagMs: Math.max(0, committedAt - lastPubackAt),
    lateP99: lateness.length ? percentile(lateness, 99) : 0,
    lateShare: lateness.length ? late / lateness.length : 0,
    brokerWait,
    workerCatchingUp: workerNice.samples ? workerNice.catchingUp / workerNice.samples : null,
    generatorCpu: results.reduce((sum, r) => sum + r.cpuShare, 0),
    cpu,
    memory: { ...peaks, PostgreSQL: pgMemory, Redis: redisMemory },
  };
}

/** BENCH_TIMELINE=true: the PUBACK latency of the sales due in each BENCH_TIMELINE_MS of the measured phase, by epoch ms. */
function printTimeline(results) {
  const seconds = new Map();
  for (const r of results) {
    for (let i = 0; i < r.latencies.length; i++) {
      const second = Math.floor(r.dueTimes[i] / TIMELINE_MS) * TIMELINE_MS;
      (seconds.get(second) ?? seconds.set(second, []).get(second)).push(r.latencies[i]);
    }
  }
  console.log('\n  due from (epoch ms): sales, PUBACK p50 / p99 / max ms, share over 100 ms');
  for (const [second, values] of [...seconds].sort((a, b) => a[0] - b[0])) {
    const over = values.filter((ms) => ms > 100).length / values.length;
    console.log(
      `  ${second}: ${values.length}, ${round(percentile(values, 50))} / ${round(percentile(values, 99))} / ${round(Math.max(...values))}, ${(over * 100).toFixed(1)} %`,
    );
  }
}

const figures = {};
let insertBaselineRate = 0;
let offered = 0;
const cpuLine = ({ cpu }) =>
  [
    ...Object.entries(cpu.shares).map(([name, share]) => `${name} ${Math.round(share * 100)}`),
    `other ${Math.round(Math.max(0, cpu.machineBusy - Object.values(cpu.shares).reduce((a, b) => a + b, 0)) * 100)}`,
    `(machine ${Math.round(cpu.machineBusy * 100)} of ${cpu.cores * 100})`,
  ].join(', ');
/** Each process's CPU per sale committed end to end, and the server's (all but the generators and the bench). */
const cpuPerSaleLine = ({ cpu, endToEnd }) => {
  const micros = (share) => Math.round((share * 1e6) / Math.max(1, endToEnd));
  const server = Object.entries(cpu.shares)
    .filter(([name]) => name !== 'generators' && name !== 'bench')
    .reduce((sum, [, share]) => sum + share, 0);
  return [
    ...Object.entries(cpu.shares)
      .filter(([name]) => name !== 'bench')
      .map(([name, share]) => `${name} ${micros(share)}`),
    `(server ${micros(server)})`,
  ].join(', ');
};
const memoryLine = ({ memory }) =>
  Object.entries(memory)
    .filter(([, bytes]) => bytes > 0)
    .map(([name, bytes]) => `${name} ${mb(bytes)}`)
    .join(', ');

for (const stackMode of MODES) {
  await startStack(stackMode);
  if (!insertBaselineRate) {
    const baselines = await measureBaselines();
    insertBaselineRate = baselines.insertBaselineRate;
    offered = FIXED_RATE > 0 ? FIXED_RATE : Math.round(LOAD * insertBaselineRate);
    figures['baseline: 1000-row INSERT … ON CONFLICT rows/s (median of 3)'] = Math.round(insertBaselineRate);
    figures['baseline: COPY FROM STDIN rows/s (median of 3)'] = Math.round(baselines.copyBaselineRate);
  }
  await startGenerators();
  const prefix = stackMode === 'external' ? 'external (Mosquitto): ' : '';
  for (const mode of PHASES) {
    const r = await runPhase(mode, offered);
    process.stdout.write('\n');
    const label = `${prefix}${mode === 'open' ? `open loop at ${offered}/s` : `closed loop (${WINDOW} in flight per machine)`}`;
    if (mode === 'open') {
      figures[`${label}: offered / baseline`] = round(offered / insertBaselineRate, 2);
    }
    Object.assign(figures, {
      [`${label}: sales/s end to end (rows + rollups)`]: Math.round(r.endToEnd),
      [`${label}: end to end / INSERT baseline`]: round(r.endToEnd / insertBaselineRate, 2),
      [`${label}: PUBACK p50 / p99 / max (ms)`]: `${round(r.p50)} / ${round(r.p99)} / ${round(r.max)}`,
      ...(r.brokerWait
        ? {
            [`${label}: in the broker, a live sale's wait until durable p50 / p99 (ms; its histogram, the measured phase but its first 0–5 s)`]: `${round(r.brokerWait.p50)} / ${round(r.brokerWait.p99)}`,
          }
        : {}),
      [`${label}: commit lag after the last PUBACK (ms)`]: Math.round(r.lagMs),
      [`${label}: PUBACKed sales not stored`]: r.lost,
      ...(r.workerCatchingUp === null
        ? {}
        : {
            [`${label}: share of the phase the worker ran at niceness 0, behind (%)`]: round(r.workerCatchingUp * 100),
          }),
      [`${label}: CPU, % of one core`]: cpuLine(r),
      [`${label}: CPU per sale committed (µs)`]: cpuPerSaleLine(r),
      [`${label}: memory (MB; RSS, PSS for PostgreSQL and Redis)`]: memoryLine(r),
    });
    if (mode === 'open') {
      figures[`${label}: generators sent late (>10 ms) / p99 lateness (ms)`] =
        `${round(r.lateShare * 100, 2)} % / ${round(r.lateP99)}`;
    }
    if (mode === 'open' && r.lateShare > 0.01) {
      console.log(
        `  the generators fell behind their schedule: ${round(r.lateShare * 100, 1)} % of sales sent over 10 ms late`,
      );
    }
  }

  // One statement, one snapshot: two queries would compare counts taken at different moments.
  const { rows: match } = await db.query(
    'SELECT (SELECT count(*) FROM sales) = (SELECT coalesce(sum(sales_count), 0) FROM sales_daily) AS equal',
  );
  figures[`${prefix}rows equal their rollups`] = match[0].equal;

  await stopStack();
}

report({
  name: 'ingest',
  figures,
  notes:
    `${MACHINES} machines over MQTT 3.1.1 from ${GENERATORS} generator processes, sales at QoS 1; ` +
    `modes: ${MODES.join(', ')} (external: Mosquitto with dynamic security, the program its client; the PUBACK timed ` +
    `there is Mosquitto's, and the sale is durable in Redis at the program's own PUBACK to Mosquitto, so what ` +
    `waits in Mosquitto shows as commit lag); ` +
    `${WARMUP} s warm-up then ${SECONDS} s measured per phase; ` +
    `${SPLIT ? `api+broker and worker as two processes, the worker at niceness ${workerNiceness} (WORKER_NICE)` : 'one process'}, ` +
    `node ${programNodeArgs().join(' ')}, ` +
    'with PostgreSQL and Redis on this machine.',
});
