// npm run bench -- fuzz-http         (FUZZ_REQUESTS=100000 for the full run; default 10000)
// The program (all roles, one process) on a fresh database with two seeded tenants; requests driven
// by its OpenAPI document (read at run time: new routes are fuzzed too) with random and broken
// bodies, parameters and every kind of caller. Passes with no 5xx, no leak, no cross-tenant 2xx and
// no write from a refused request. FUZZ_SEED replays a run.
import { writeFileSync } from 'node:fs';
import pg from 'pg';
import { Redis } from 'ioredis';
import { report } from './lib/report.mjs';
import { createRandom, freshSeed } from './lib/prng.mjs';
import { seedFuzzWorld } from './lib/http-fuzz-seed.mjs';
import { checksumTiming, runHttpFuzz } from './lib/http-fuzz.mjs';
import { benchDeployment, BENCH_LOGIN, REDIS_URL, startProcess } from './lib/stack.mjs';

for (const signal of ['SIGINT', 'SIGTERM']) process.once(signal, () => process.exit(130));
const COUNT = Number(process.env.FUZZ_REQUESTS ?? 10_000);
const SEED = Number(process.env.FUZZ_SEED ?? freshSeed());
const RATE = '10000000';

console.log(`fuzz-http: seed ${SEED}, ${COUNT} requests`);
// Every request comes from 127.0.0.1: the per-address limit would answer 429 to most of them.
const deployment = await benchDeployment('fuzz_http', { HTTP_RATE_LIMIT: RATE });
const { env, prefix } = deployment;
const proc = await startProcess(env);
const baseUrl = `http://127.0.0.1:${proc.httpPort}`;
const doc = await (await fetch(`${baseUrl}/api/docs/openapi.json`)).json();
const rng = createRandom(SEED);
const world = await seedFuzzWorld({
  api: `${baseUrl}/api`,
  admin: BENCH_LOGIN,
  secret: env.JWT_SECRET,
  rng: rng.fork(),
});
const redis = new Redis(REDIS_URL);
const clearLoginLocks = async () => {
  const keys = await redis.keys(`${prefix}:login-fail:*`);
  if (keys.length) await redis.del(...keys);
};
const db = new pg.Client({ connectionString: deployment.databaseUrl });
await db.connect();
const started = Date.now();
const { stats, perOp, findings } = await runHttpFuzz({
  baseUrl,
  db,
  world,
  doc,
  count: COUNT,
  seed: SEED,
  clearLoginLocks,
  onProgress: (s) =>
    process.stdout.write(
      `\r  ${Math.round((Date.now() - started) / 1000)} s: ${s.requests} requests, 5xx ${s.serverErrors}, leaks ${s.leaks}, cross-tenant ${s.crossTenantAccepted}, writes from refused ${s.writesFromRefused}; avg request ${(s.requestMs / s.requests).toFixed(1)} ms, checksum ${(checksumTiming.ms / checksumTiming.calls).toFixed(1)} ms   `,
    ),
});
console.log('');
const alive = proc.child.exitCode === null && proc.child.signalCode === null;
const health = alive
  ? await fetch(`${baseUrl}/api/health`).then(
      (r) => r.status,
      () => 0,
    )
  : 0;
await db.end();
await redis.quit();
await deployment.teardown([proc]);

if (findings.length) {
  const file = `bench/results/fuzz-http-findings-${SEED}.json`;
  writeFileSync(file, JSON.stringify({ seed: SEED, findings }, null, 2));
  console.error(`${findings.length} findings in ${file}`);
}
const untested = Object.entries(perOp)
  .filter(([, o]) => o['2xx'] === 0)
  .map(([id]) => id);
report({
  name: 'fuzz-http',
  figures: {
    seed: SEED,
    'requests sent': stats.requests,
    minutes: Number(((Date.now() - started) / 60_000).toFixed(1)),
    'operations (from /api/docs/openapi.json)': stats.operations,
    '2xx': stats.byClass['2xx'],
    '3xx': stats.byClass['3xx'],
    '4xx': stats.byClass['4xx'],
    '5xx': stats.serverErrors,
    'no response (connection dropped)': stats.connectionErrors,
    'leaks (markers or secrets in a response)': stats.leaks,
    'cross-tenant requests accepted': stats.crossTenantAccepted,
    'refused requests checked for writes': stats.refusedChecked,
    'writes from refused requests': stats.writesFromRefused,
    'table changes not reproduced on replay': stats.unconfirmedChanges,
    'process alive, GET /api/health': alive ? health : 'died',
  },
  notes:
    `Statuses: ${JSON.stringify(stats.byStatus)}\nSlowest: ${JSON.stringify(stats.slowest)}\n` +
    `Operations never answered 2xx in this run: ${untested.join(', ') || 'none'}\n` +
    `HTTP_RATE_LIMIT=${RATE} (one client address); login failure counters cleared every 1000 requests.`,
});
process.exit(
  stats.serverErrors ||
    stats.leaks ||
    stats.crossTenantAccepted ||
    stats.writesFromRefused ||
    stats.connectionErrors ||
    health !== 200
    ? 1
    : 0,
);
