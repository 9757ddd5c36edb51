// npm run bench -- http
// HTTP load with autocannon at fixed request rates (BENCH_HTTP_RATES, default 50,200,500 per second,
// BENCH_HTTP_SECONDS each) on three calls of the web app: sign-in (argon2id), the dashboard's daily
// summary, and a page of a machine's coin transactions (with its total), for a manager owning
// BENCH_HTTP_MACHINES machines with BENCH_HTTP_SALES sales of the last 60 days ingested through the
// REST ingest (worker, rollups). Reports p50/p99 latency, throughput reached and errors per rate.
import autocannon from 'autocannon';
import { randomUUID } from 'node:crypto';
import pg from 'pg';
import { report } from './lib/report.mjs';
import { insertLoadDevices, loadEspId, loadKey } from './lib/load-fleet.mjs';
import { adminToken, benchDeployment, startProcess } from './lib/stack.mjs';

for (const signal of ['SIGINT', 'SIGTERM']) process.once(signal, () => process.exit(130));
const RATES = (process.env.BENCH_HTTP_RATES ?? '50,200,500').split(',').map(Number);
const SECONDS = Number(process.env.BENCH_HTTP_SECONDS ?? 20);
const MACHINES = Number(process.env.BENCH_HTTP_MACHINES ?? 20);
const SALES = Number(process.env.BENCH_HTTP_SALES ?? 100_000);
const SECRET = 'http-bench-keys';
const RATE_LIMIT = '100000000';
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

// autocannon calls from one address: the per-address limit for anonymous calls (sign-in) would
// answer 429 past 600 a minute.
const deployment = await benchDeployment('http', { HTTP_RATE_LIMIT: RATE_LIMIT });
const { env } = deployment;
const proc = await startProcess(env);
const api = `http://127.0.0.1:${proc.httpPort}/api`;
const call = async (method, path, body, headers = {}) => {
  const res = await fetch(api + path, {
    method,
    headers: { 'content-type': 'application/json', ...headers },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  if (res.status >= 300) throw new Error(`${method} ${path}: ${res.status} ${text}`);
  return text ? JSON.parse(text) : {};
};

// A manager owning the machines: the first through the API (registration needs a device), the
// others inserted with known keys and given to the manager.
const admin = { authorization: `Bearer ${await adminToken(`http://127.0.0.1:${proc.httpPort}`)}` };
const mac = '02:00:00:00:00:01';
await call('POST', '/devices/announce', { macAddress: mac });
await call('POST', '/assign_id', { macAddress: mac, espId: 'HTTP-FIRST' }, admin);
const manager = {
  userId: randomUUID(),
  firstName: 'Load',
  lastName: 'Manager',
  username: 'load-manager',
  email: 'manager@bench.local',
  password: 'manager-pass-1234',
  phoneNumber: '+255700000001',
  location: 'Dar es Salaam',
};
await call('POST', '/admin/register-user', { ...manager, esp32Id: 'HTTP-FIRST', machine_location: 'Kariakoo' }, admin);
const db = new pg.Client({ connectionString: deployment.databaseUrl });
await db.connect();
await insertLoadDevices(db, SECRET, MACHINES, manager.userId);

console.log(`ingesting ${SALES} sales of the last 60 days over ${MACHINES} machines`);
const perRequest = 1000;
for (let sent = 0; sent < SALES; sent += perRequest) {
  const i = (sent / perRequest) % MACHINES;
  const sales = Array.from({ length: Math.min(perRequest, SALES - sent) }, (_, k) => {
    const volume = [1, 5, 10, 20][k % 4];
    const card = k % 3 === 0;
    return {
      eventId: `h-${sent + k}`,
      kind: card ? 'card' : 'coin',
      price: volume * 50,
      volume,
      waterType: ['pure', 'fresh', 'cold'][k % 3],
      ...(card ? { cardId: `CARD-${k % 40}` } : {}),
      time: new Date(Date.now() - Math.random() * 60 * 86_400_000).toISOString(),
    };
  });
  await call('POST', `/machines/${loadEspId(i)}/sales`, sales, { 'x-device-key': loadKey(SECRET, i) });
}
for (;;) {
  const [{ n }] = (await db.query('SELECT count(*)::int AS n FROM sales')).rows;
  if (n >= SALES) break;
  await sleep(500);
}
const { token } = await call('POST', '/login', { identifier: manager.email, password: manager.password });
const bearer = { authorization: `Bearer ${token}` };
await db.end();

const targets = [
  {
    name: 'POST /api/login',
    method: 'POST',
    path: '/login',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ identifier: manager.email, password: manager.password }),
  },
  {
    name: 'GET /api/user/machines/daily-summary',
    method: 'GET',
    path: '/user/machines/daily-summary',
    headers: bearer,
  },
  {
    name: 'GET /api/machines/{id}/coin-transactions (page 1 of 25, with total)',
    method: 'GET',
    path: `/machines/${loadEspId(1)}/coin-transactions?page=1&limit=25`,
    headers: bearer,
  },
];
const run = (opts) =>
  new Promise((resolve, reject) => autocannon(opts, (err, res) => (err ? reject(err) : resolve(res))));
const figures = {};
const rows = [];
for (const target of targets) {
  // Warm-up (JIT, connection pools, PostgreSQL's cache), not measured.
  await run({
    url: api + target.path,
    method: target.method,
    headers: target.headers,
    body: target.body,
    connections: 10,
    overallRate: 20,
    duration: 3,
  });
  for (const rate of RATES) {
    const res = await run({
      url: api + target.path,
      method: target.method,
      headers: target.headers,
      body: target.body,
      connections: Math.min(200, Math.max(10, rate / 2)),
      overallRate: rate,
      duration: SECONDS,
      timeout: 10,
    });
    const errors = res.non2xx + res.errors + res.timeouts;
    const row = {
      call: target.name,
      'rate asked (req/s)': rate,
      'rate served (req/s)': Math.round(res.requests.average),
      'p50 (ms)': res.latency.p50,
      'p99 (ms)': res.latency.p99,
      errors: `${errors} of ${res.requests.sent}`,
    };
    rows.push(row);
    figures[`${target.name} @ ${rate}/s: p50 / p99 ms, errors`] = `${res.latency.p50} / ${res.latency.p99}, ${errors}`;
    console.table([row]);
    await sleep(2000);
  }
}
await deployment.teardown([proc]);

report({
  name: 'http',
  figures,
  notes:
    `${SECONDS} s per rate after a 3 s warm-up, with autocannon (fixed overall rate, timeout 10 s) on the same box as the program (one process, every role), ` +
    `a manager with ${MACHINES} machines and ${SALES} sales; errors = non-2xx + socket errors + timeouts. ` +
    `HTTP_RATE_LIMIT=${RATE_LIMIT} (one client address).\n` +
    rows.map((r) => `${r.call} @ ${r['rate asked (req/s)']}/s: served ${r['rate served (req/s)']}/s`).join('\n'),
});
