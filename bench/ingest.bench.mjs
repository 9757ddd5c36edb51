// npm run bench -- ingest
// Simulated machines publish QoS 1 sales. Two modes:
//  - BENCH_RATE=N (open loop, the default at 10,000/s): the fleet publishes N sales per second on a
//    fixed schedule whatever the broker does, and PUBACK latency counts from the scheduled send time,
//    so a server that falls behind shows its queueing in the latency instead of slowing the load;
//  - BENCH_RATE=0 (closed loop): as fast as the broker acknowledges, BENCH_WINDOW in flight per machine.
// Reports sales/s committed end to end (publish → rows and rollups in PostgreSQL), PUBACK latency
// p50/p99, and, in the same run, a plain 1000-row INSERT … ON CONFLICT DO NOTHING of the same rows
// into the same table shape, with the ratio.
import mqtt from 'mqtt';
import pg from 'pg';
import { randomUUID } from 'node:crypto';
import { percentile, report } from './lib/report.mjs';
import { adminToken, benchDeployment, provisionMachines, startProcess } from './lib/stack.mjs';

const SECONDS = Number(process.env.BENCH_SECONDS ?? 60);
const MACHINES = Number(process.env.BENCH_MACHINES ?? 200);
const WINDOW = Number(process.env.BENCH_WINDOW ?? 16);
const RATE = Number(process.env.BENCH_RATE ?? 10_000);
// Sales of the first BENCH_WARMUP seconds (JIT, pools, the first rollup rows) are stored and checked
// but not timed; the figures are over the BENCH_SECONDS after it.
const WARMUP = Number(process.env.BENCH_WARMUP ?? 5);
const SPLIT = process.env.BENCH_SPLIT !== 'false';

// Every simulated machine connects from 127.0.0.1: lift the per-address limits meant for the field.
const deployment = await benchDeployment('ingest', { MQTT_CONNECT_RATE: '100000', HTTP_RATE_LIMIT: '100000' });
const { env } = deployment;
// Two processes by default (APP_ROLES): the broker and API on one core, the workers on the other.
const procs = SPLIT
  ? [await startProcess({ ...env, APP_ROLES: 'api,broker' }), await startProcess({ ...env, APP_ROLES: 'worker' })]
  : [await startProcess(env)];
const front = procs[0];
const base = `http://127.0.0.1:${front.httpPort}`;
const machines = await provisionMachines(base, await adminToken(base), MACHINES, 'BENCH');

const latencies = [];
let pubacked = 0;
let running = true;
const clients = await Promise.all(
  machines.map((m) =>
    mqtt.connectAsync(`mqtt://127.0.0.1:${front.mqttPort}`, {
      clientId: m.espId,
      username: m.espId,
      password: m.deviceKey,
      protocolVersion: 4,
      reconnectPeriod: 0,
    }),
  ),
);
const salesTopic = (espId) => `wv/v1/machines/${espId}/sales`;
/** The n-th sale of a machine or of the run: a third on cards, every water type and four volumes. */
function saleNumber(n) {
  const volume = [1, 5, 10, 20][n % 4];
  return JSON.stringify({
    eventId: randomUUID(),
    kind: n % 3 ? 'coin' : 'card',
    price: volume * 40,
    volume,
    waterType: ['pure', 'fresh', 'cold'][n % 3],
    ...(n % 3 ? {} : { cardId: `CARD-${n % 50}` }),
  });
}

async function publisher(client, espId) {
  let n = 0;
  const loop = async () => {
    while (running) {
      const sale = saleNumber(n++);
      const t0 = performance.now();
      await client.publishAsync(salesTopic(espId), sale, { qos: 1 });
      if (t0 >= measureFrom) latencies.push(performance.now() - t0);
      pubacked++;
    }
  };
  await Promise.all(Array.from({ length: WINDOW }, loop));
}

/** Open loop: sale k of the run is due at started + k / RATE seconds, on machine k mod MACHINES. */
async function scheduled() {
  const inFlight = new Set();
  let k = 0;
  while (running) {
    const due = Math.floor(((performance.now() - started) / 1000) * RATE);
    for (; k < due; k++) {
      const i = k % MACHINES;
      const dueAt = started + (k / RATE) * 1000;
      const p = clients[i].publishAsync(salesTopic(machines[i].espId), saleNumber(k), { qos: 1 }).then(() => {
        if (dueAt >= measureFrom) latencies.push(performance.now() - dueAt);
        pubacked++;
        inFlight.delete(p);
      });
      inFlight.add(p);
    }
    await new Promise((r) => setTimeout(r, 2));
  }
  await Promise.all(inFlight);
}

const db = new pg.Client({ connectionString: deployment.databaseUrl });
await db.connect();
const started = performance.now();
const measureFrom = started + WARMUP * 1000;
const work = RATE > 0 ? [scheduled()] : clients.map((c, i) => publisher(c, machines[i].espId));
const ticker = setInterval(
  () => process.stdout.write(`\r  ${((performance.now() - started) / 1000).toFixed(0)} s: ${pubacked} PUBACKed`),
  5000,
);
await new Promise((r) => setTimeout(r, WARMUP * 1000));
const committedAtWarmupEnd = Number((await db.query('SELECT count(*)::int AS n FROM sales')).rows[0].n);
await new Promise((r) => setTimeout(r, SECONDS * 1000));
running = false;
await Promise.all(work);
const publishEnded = performance.now();
clearInterval(ticker);
let committed = 0;
for (;;) {
  committed = Number((await db.query('SELECT count(*)::int AS n FROM sales')).rows[0].n);
  if (committed >= pubacked) break;
  await new Promise((r) => setTimeout(r, 100));
}
const committedAt = performance.now();
const [{ sum: rollupCount }] = (await db.query('SELECT sum(sales_count)::int AS sum FROM sales_daily')).rows;
await Promise.all(clients.map((c) => c.endAsync(true)));

// Baseline: the same rows, 1000 per INSERT … ON CONFLICT DO NOTHING, into a table of the same shape.
await db.query('CREATE TABLE baseline_sales (LIKE sales INCLUDING ALL)');
const { rows } = await db.query(
  'SELECT esp_id, event_id, kind, price, volume, water_type, card_id, sold_at, local_date, received_at, source FROM sales ORDER BY id',
);
const baselineStart = performance.now();
for (let i = 0; i < rows.length; i += 1000) {
  const chunk = rows.slice(i, i + 1000);
  const values = [];
  const params = [];
  chunk.forEach((r, j) => {
    const b = j * 11;
    values.push(`(${Array.from({ length: 11 }, (_, k) => `$${b + k + 1}`).join(',')})`);
    params.push(
      r.esp_id,
      r.event_id,
      r.kind,
      r.price,
      r.volume,
      r.water_type,
      r.card_id,
      r.sold_at,
      r.local_date,
      r.received_at,
      r.source,
    );
  });
  await db.query(
    `INSERT INTO baseline_sales (esp_id, event_id, kind, price, volume, water_type, card_id, sold_at, local_date, received_at, source) VALUES ${values.join(',')} ON CONFLICT (esp_id, event_id) DO NOTHING`,
    params,
  );
}
const baselineRate = rows.length / ((performance.now() - baselineStart) / 1000);
await db.end();
await deployment.teardown(procs);

const pipelineRate = (committed - committedAtWarmupEnd) / ((committedAt - measureFrom) / 1000);
report({
  name: 'ingest',
  figures: {
    'sales committed end to end': committed,
    'seconds publishing (after a warm-up)': `${Number(((publishEnded - measureFrom) / 1000).toFixed(1))} (${WARMUP})`,
    'commit lag after last PUBACK (ms)': Math.round(committedAt - publishEnded),
    'sales/s end to end (MQTT QoS 1 → rows + rollups)': Math.round(pipelineRate),
    'PUBACK p50 (ms)': Number(percentile(latencies, 50).toFixed(1)),
    'PUBACK p99 (ms)': Number(percentile(latencies, 99).toFixed(1)),
    'baseline: 1000-row INSERT … ON CONFLICT rows/s': Math.round(baselineRate),
    'ratio pipeline / baseline': Number((pipelineRate / baselineRate).toFixed(2)),
    'rollup count equals rows': rollupCount === committed,
  },
  notes: `${MACHINES} machines, ${RATE > 0 ? `${RATE} sales/s offered on a fixed schedule (open loop; latency from the scheduled time)` : `${WINDOW} publishes in flight each (closed loop)`}, ${SPLIT ? 'api+broker and worker as two processes' : 'one process'}, on this machine with PostgreSQL and Redis.`,
});
