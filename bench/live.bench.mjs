// npm run bench -- live
// 100 simulated machines publish QoS 1 sales over MQTT at 1,000 sales/s in total; a Socket.IO client
// signed in as admin receives every `sale` event. Reports p50/p99 from the publish to the event at the
// client, beside the same sales' PUBACK (durably queued) and `sales/ack` (committed in PostgreSQL)
// latencies, measured in the same run: the live path's own cost is the gap between the commit and
// the event. By default the broker+API and the workers run as two processes (APP_ROLES), so each
// event crosses the Socket.IO Redis adapter; BENCH_SPLIT=false runs one process with every role.
// Target: p99 ≤ 300 ms.
import mqtt from 'mqtt';
import { cpus, loadavg } from 'node:os';
import { randomUUID } from 'node:crypto';
import { io } from 'socket.io-client';
import { summarize } from './lib/measure.mjs';
import { report } from './lib/report.mjs';
import { adminToken, benchDeployment, provisionMachines, startProcess } from './lib/stack.mjs';

const RATE = Number(process.env.BENCH_RATE ?? 1000);
const MACHINES = Number(process.env.BENCH_MACHINES ?? 100);
const WARMUP_S = Number(process.env.BENCH_WARMUP ?? 5);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 30);
const SPLIT = process.env.BENCH_SPLIT !== 'false';

const deployment = await benchDeployment('live');
const { env } = deployment;
const procs = SPLIT
  ? [await startProcess({ ...env, APP_ROLES: 'api,broker' }), await startProcess({ ...env, APP_ROLES: 'worker' })]
  : [await startProcess(env)];
const front = procs[0];
const base = `http://127.0.0.1:${front.httpPort}`;
const clients = [];
let socket;
try {
  const token = await adminToken(base);
  const machines = await provisionMachines(base, token, MACHINES, 'LIVE');

  // Publish time by eventId; latencies are taken in this one process, on one clock.
  const published = new Map();
  const toEvent = [];
  const toPuback = [];
  const toAck = [];
  let measuring = false;
  let sent = 0;
  let received = 0;

  socket = io(base, { path: '/socket.io', auth: { token }, transports: ['websocket'] });
  await new Promise((resolve, reject) => socket.once('connect', resolve).once('connect_error', reject));
  // The sale's `time` is the publish instant (the machine's clock is this process's).
  socket.on('sale', (sale) => {
    const latency = Date.now() - Date.parse(sale.time);
    received++;
    if (published.get(sale.time + sale.machineId)?.measured) toEvent.push(latency);
  });

  for (const m of machines) {
    const client = await mqtt.connectAsync(`mqtt://127.0.0.1:${front.mqttPort}`, {
      clientId: m.espId,
      username: m.espId,
      password: m.deviceKey,
      protocolVersion: 4,
      reconnectPeriod: 0,
    });
    await client.subscribeAsync(`wv/v1/machines/${m.espId}/sales/ack`, { qos: 1 });
    client.on('message', (_topic, payload) => {
      const now = Date.now();
      for (const id of JSON.parse(payload.toString()).eventIds) {
        const p = published.get(id);
        if (p?.measured) toAck.push(now - p.at);
      }
    });
    clients.push({ client, espId: m.espId });
  }

  // A steady 1,000 sales/s: every 10 ms, as many sales as are due since the start (timers drift under
  // load; the schedule does not), round robin over the machines.
  let next = 0;
  const scheduleStart = Date.now();
  const tick = () => {
    const due = Math.floor(((Date.now() - scheduleStart) * RATE) / 1000) - sent;
    for (let i = 0; i < due; i++) {
      const { client, espId } = clients[next++ % clients.length];
      const at = Date.now();
      // A machine publishes every 100 ms: (time, machine) names one sale.
      const time = new Date(at).toISOString();
      const sale = {
        eventId: randomUUID(),
        kind: sent % 3 ? 'coin' : 'card',
        price: 500,
        volume: 10,
        waterType: 'pure',
        time,
      };
      if (sale.kind === 'card') sale.cardId = `CARD-${sent % 50}`;
      const record = { at, measured: measuring };
      published.set(sale.eventId, record);
      published.set(time + espId, record);
      sent++;
      client.publishAsync(`wv/v1/machines/${espId}/sales`, JSON.stringify(sale), { qos: 1 }).then(() => {
        if (record.measured) toPuback.push(Date.now() - at);
      });
    }
  };
  const timer = setInterval(tick, 10);
  await new Promise((r) => setTimeout(r, WARMUP_S * 1000));
  measuring = true;
  const sentBefore = sent;
  const started = Date.now();
  await new Promise((r) => setTimeout(r, SECONDS * 1000));
  measuring = false;
  const sentMeasured = sent - sentBefore;
  const elapsed = (Date.now() - started) / 1000;
  clearInterval(timer);
  // Stragglers: wait until every measured sale arrived (or 10 s).
  const deadline = Date.now() + 10_000;
  while (toEvent.length < sentMeasured && Date.now() < deadline) await new Promise((r) => setTimeout(r, 100));

  const event = summarize(toEvent);
  const baseline = {
    'publish → PUBACK, durably queued (ms)': summarize(toPuback),
    'publish → sales/ack, committed in PostgreSQL (ms)': summarize(toAck),
  };
  console.table(baseline);
  report({
    name: 'live',
    figures: {
      'publish → sale event at the Socket.IO client (ms)': {
        p50: event.p50,
        p95: event.p95,
        p99: event.p99,
        max: event.max,
      },
      'sales published while measuring': sentMeasured,
      'rate (sales/s)': Math.round(sentMeasured / elapsed),
      'sale events received of them': toEvent.length,
    },
    baseline,
    notes: `${MACHINES} machines, ${RATE} sales/s for ${SECONDS} s after ${WARMUP_S} s warm-up; ${
      SPLIT ? 'api+broker and worker as two processes (events cross the Redis adapter)' : 'one process'
    }; target p99 ≤ 300 ms: ${event.p99 <= 300 && toEvent.length === sentMeasured ? 'met' : 'NOT met'}. Load average: ${loadavg()
      .map((l) => l.toFixed(1))
      .join(' ')} on ${cpus().length} cores.`,
  });
  if (received < sent) console.log(`(${sent - received} sales of the warm-up or the tail were not awaited)`);
} finally {
  socket?.close();
  await Promise.all(clients.map((c) => c.client.endAsync(true)));
  await deployment.teardown(procs);
}
