// npm run bench -- connections
// Idle machines held by one broker process and the memory each costs (RSS before and after divided
// by the connections), then two reconnect storms of all of them at BENCH_STORM_RATE (500/s), each
// machine publishing one QoS 1 sale after reconnecting; every PUBACKed sale must be stored:
//   1. a network blip: every client drops its connection at once;
//   2. a broker crash: SIGKILL of the api+broker process and a restart on the same ports.
// The machines are raw mqtt-packet clients in BENCH_CLIENT_PROCS child processes, spread over 40
// loopback source addresses (so MQTT_CONNECT_RATE keeps its default of 100/s per address).
import { fork, spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import net from 'node:net';
import pg from 'pg';
import { percentile, report } from './lib/report.mjs';
import { insertLoadDevices, loadEspId } from './lib/load-fleet.mjs';
import { benchDeployment, startProcess } from './lib/stack.mjs';

for (const signal of ['SIGINT', 'SIGTERM']) process.once(signal, () => process.exit(130));
const REQUESTED = Number(process.env.BENCH_MACHINES ?? 20_000);
const CLIENT_PROCS = Number(process.env.BENCH_CLIENT_PROCS ?? 4);
const CONNECT_RATE = Number(process.env.BENCH_CONNECT_RATE ?? 1000);
const STORM_RATE = Number(process.env.BENCH_STORM_RATE ?? 500);
const NOFILE = 200_000;
const SECRET = 'connections-bench-keys';
const ADDRESSES = Array.from({ length: 40 }, (_, i) => `127.0.1.${i + 1}`);
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

// One socket per machine on each side: raise this process's open-file limit (root may), which the
// program and the client processes inherit.
const raised = spawnSync('prlimit', ['--pid', String(process.pid), `--nofile=${NOFILE}:${NOFILE}`]).status === 0;
const nofile = Number(/Max open files\s+(\d+)/.exec(readFileSync('/proc/self/limits', 'utf8'))?.[1]);
// The program needs about 60 descriptors of its own (database pool, Redis, listeners); a hard limit
// that cannot be raised (no CAP_SYS_RESOURCE in a container) caps the machines just under it.
const MACHINES = Math.min(REQUESTED, nofile - 150);
if (MACHINES < REQUESTED) {
  console.warn(
    `open files are limited to ${nofile} per process and cannot be raised here: holding ${MACHINES} machines`,
  );
}

const freePort = () =>
  new Promise((resolve) => {
    const s = net.createServer().listen(0, '127.0.0.1', () => {
      const { port } = s.address();
      s.close(() => resolve(port));
    });
  });
const rssMb = (pid) => Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))[1]) / 1024;

// Fixed ports: the broker restarts on the same ones in storm 2.
const deployment = await benchDeployment('connections', {
  PORT: String(await freePort()),
  MQTT_PORT: String(await freePort()),
});
const { env } = deployment;
let front = await startProcess({ ...env, APP_ROLES: 'api,broker' });
const worker = await startProcess({ ...env, APP_ROLES: 'worker' });
const db = new pg.Client({ connectionString: deployment.databaseUrl });
await db.connect();
await insertLoadDevices(db, SECRET, MACHINES);

const clients = Array.from({ length: CLIENT_PROCS }, (_, k) => {
  const from = Math.floor((k * MACHINES) / CLIENT_PROCS);
  const to = Math.floor(((k + 1) * MACHINES) / CLIENT_PROCS);
  const child = fork(new URL('./lib/idle-machines.mjs', import.meta.url).pathname, [
    JSON.stringify({ port: Number(env.MQTT_PORT), secret: SECRET, from, to, addresses: ADDRESSES }),
  ]);
  process.once('exit', () => child.kill('SIGKILL'));
  return child;
});
const reply = (child, type) => new Promise((resolve) => child.on('message', (m) => m.type === type && resolve(m)));
await Promise.all(clients.map((c) => reply(c, 'ready')));
const all = async (message, type) => {
  const replies = clients.map((c) => reply(c, type));
  clients.forEach((c) => c.send(message));
  return Promise.all(replies);
};
const merge = (parts) => ({
  ok: parts.reduce((n, p) => n + p.ok, 0),
  attempts: parts.reduce((n, p) => n + p.attempts, 0),
  seconds: Math.max(...parts.map((p) => p.seconds)),
  failures: parts.reduce((f, p) => {
    for (const [k, v] of Object.entries(p.failures)) f[k] = (f[k] ?? 0) + v;
    return f;
  }, {}),
  connack: parts.flatMap((p) => p.connack),
  puback: parts.flatMap((p) => p.puback),
  pubacked: parts.flatMap((p) => p.pubacked),
});

/**
 * The kernel's count of connections dropped because a listening socket's queue was full (TcpExt ListenOverflows,
 * machine-wide): each dropped SYN is retried by the client only after TCP's backoff of 1, 3, 7 s.
 */
function listenOverflows() {
  const lines = readFileSync('/proc/net/netstat', 'utf8')
    .split('\n')
    .filter((l) => l.startsWith('TcpExt:'));
  const names = lines[0].split(' ');
  const values = lines[1].split(' ');
  return Number(values[names.indexOf('ListenOverflows')] ?? 0);
}

await sleep(5000);
const overflowsAtStart = listenOverflows();
const rssBefore = rssMb(front.child.pid);
console.log(`connecting ${MACHINES} machines at ${CONNECT_RATE}/s (program RSS ${rssBefore.toFixed(0)} MB)`);
const ramp = merge(
  await all({ cmd: 'connect', rate: CONNECT_RATE / CLIENT_PROCS, sale: null, deadlineMs: 600_000 }, 'connected'),
);
const rampOverflows = listenOverflows() - overflowsAtStart;
await sleep(10_000);
const counts = await all({ cmd: 'count' }, 'count');
const open = counts.reduce((n, r) => n + r.open, 0);
const closedWhileIdle = counts.reduce((n, r) => n + r.closedWhileIdle, 0);
const rssAfter = rssMb(front.child.pid);
const clientRss = clients.reduce((n, c) => n + rssMb(c.pid), 0);
console.log(`${open} held; program RSS ${rssAfter.toFixed(0)} MB`);

/** All machines reconnect at STORM_RATE and each publishes a sale `tag`; returns figures and losses. */
async function storm(tag) {
  const overflowsBefore = listenOverflows();
  const result = merge(
    await all({ cmd: 'connect', rate: STORM_RATE / CLIENT_PROCS, sale: tag, deadlineMs: 600_000 }, 'connected'),
  );
  const until = Date.now() + 120_000;
  let stored = new Set();
  while (Date.now() < until) {
    const { rows } = await db.query('SELECT esp_id FROM sales WHERE event_id = $1', [tag]);
    stored = new Set(rows.map((r) => r.esp_id));
    if (stored.size >= result.pubacked.length) break;
    await sleep(500);
  }
  const lost = result.pubacked.filter((i) => !stored.has(loadEspId(i))).length;
  return { ...result, stored: stored.size, lost, overflows: listenOverflows() - overflowsBefore };
}

console.log(`storm 1: every machine drops its connection and reconnects at ${STORM_RATE}/s`);
await all({ cmd: 'drop' }, 'dropped');
await sleep(2000);
const blip = await storm('blip');

console.log('storm 2: SIGKILL of the broker process, restart, every machine reconnects');
front.child.kill('SIGKILL');
await new Promise((r) => front.child.once('exit', r));
const restartedAt = performance.now();
front = await startProcess({ ...env, APP_ROLES: 'api,broker' });
const restartSeconds = (performance.now() - restartedAt) / 1000;
const crash = await storm('restart');

clients.forEach((c) => c.send({ cmd: 'exit' }));
await db.end();
await deployment.teardown([front, worker]);

const ms = (values, p) => Math.round(percentile(values, p));
const stormFigures = (name, s) => ({
  [`${name}: seconds to reconnect all`]: Number(s.seconds.toFixed(1)),
  [`${name}: machines reconnected`]: s.ok,
  [`${name}: connect attempts refused or failed (retried)`]: s.attempts - s.ok,
  [`${name}: connections dropped by a full listen queue (kernel)`]: s.overflows,
  [`${name}: CONNACK p50 / p99 (ms)`]: `${ms(s.connack, 50)} / ${ms(s.connack, 99)}`,
  [`${name}: PUBACK p50 / p99 (ms)`]: `${ms(s.puback, 50)} / ${ms(s.puback, 99)}`,
  [`${name}: sales PUBACKed / stored / lost`]: `${s.pubacked.length} / ${s.stored} / ${s.lost}`,
});
report({
  name: 'connections',
  figures: {
    'idle machines held by one process': open,
    'program RSS before / after (MB)': `${rssBefore.toFixed(0)} / ${rssAfter.toFixed(0)}`,
    'memory per connection (KB)': Number((((rssAfter - rssBefore) * 1024) / open).toFixed(1)),
    'connect ramp: machines connected / seconds': `${ramp.ok} / ${ramp.seconds.toFixed(1)}`,
    'closed by the broker while idle (ramp and hold)': closedWhileIdle,
    'connect ramp: CONNACK p50 / p99 (ms)': `${ms(ramp.connack, 50)} / ${ms(ramp.connack, 99)}`,
    'connect ramp: connections dropped by a full listen queue (kernel)': rampOverflows,
    ...stormFigures('storm 1 (network blip)', blip),
    'storm 2: broker restart (s)': Number(restartSeconds.toFixed(1)),
    ...stormFigures('storm 2 (broker SIGKILL)', crash),
  },
  notes:
    `${MACHINES} machines (raw mqtt-packet clients, keepalive ${600} s, each subscribed to its sales/ack and config) in ` +
    `${CLIENT_PROCS} client processes (${clientRss.toFixed(0)} MB RSS together), 40 loopback source addresses; ` +
    `api+broker in one process (measured), workers in another; MQTT_CONNECT_RATE default (100/s per address); ` +
    `open files per process ${nofile}${raised ? ' (raised with prlimit)' : ' (hard limit, could not be raised)'}. Failures seen: ramp ${JSON.stringify(ramp.failures)}, ` +
    `storm 1 ${JSON.stringify(blip.failures)}, storm 2 ${JSON.stringify(crash.failures)}.`,
});
process.exit(blip.lost || crash.lost || blip.ok < MACHINES || crash.ok < MACHINES ? 1 : 0);
