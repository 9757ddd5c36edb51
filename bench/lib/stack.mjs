// Starts the built program as separate processes on a fresh database for a benchmark.
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { createWriteStream, mkdirSync } from 'node:fs';
import pg from 'pg';
import { Redis } from 'ioredis';
import { login } from './measure.mjs';

export const PG_URL = process.env.BENCH_PG_URL ?? 'postgres://postgres@localhost:5432/postgres';
export const REDIS_URL = process.env.BENCH_REDIS_URL ?? 'redis://localhost:6379';
const MAIN = new URL('../../apps/api/dist/main.js', import.meta.url).pathname;
/** The node flags the program runs with in production: the image's CMD (Dockerfile) and `npm start`. */
export const PROGRAM_NODE_ARGS = ['--max-semi-space-size=64'];

/**
 * The node flags of a benchmark's program: production's, then BENCH_NODE_ARGS (extra flags, e.g. "--cpu-prof
 * --cpu-prof-dir=/tmp/prof"), so that "--max-semi-space-size=16" measures V8's default beside them (the last counts).
 */
export const programNodeArgs = () => [
  ...PROGRAM_NODE_ARGS,
  ...(process.env.BENCH_NODE_ARGS ?? '').split(' ').filter(Boolean),
];

export function dbUrl(name) {
  const u = new URL(PG_URL);
  u.pathname = `/${name}`;
  return u.toString();
}

export async function recreateDatabase(name) {
  const c = new pg.Client({ connectionString: PG_URL });
  await c.connect();
  await c.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
  await c.query(`CREATE DATABASE ${name}`);
  await c.end();
}

export async function dropDatabase(name) {
  const c = new pg.Client({ connectionString: PG_URL });
  await c.connect();
  await c.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
  await c.end();
}

export async function deleteRedisPrefix(prefix) {
  const redis = new Redis(REDIS_URL);
  let cursor = '0';
  do {
    const [next, keys] = await redis.scan(cursor, 'MATCH', `${prefix}*`, 'COUNT', 1000);
    if (keys.length) await redis.del(...keys);
    cursor = next;
  } while (cursor !== '0');
  await redis.quit();
}

/** Spawns `node apps/api/dist/main.js` with env; resolves once it says it is ready. */
export function startProcess(env) {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [...programNodeArgs(), MAIN], {
      env: { ...process.env, NO_COLOR: '1', ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    // A benchmark that dies must not leave the program running on its database.
    const orphanGuard = () => child.kill('SIGKILL');
    process.once('exit', orphanGuard);
    child.once('exit', () => process.off('exit', orphanGuard));
    // The output is kept for readiness and post-mortems, bounded: a long run at LOG_LEVEL=warn
    // under fuzzing writes hundreds of MB.
    let out = '';
    let ready = false;
    const onData = (d) => {
      out += d.toString();
      if (ready) {
        if (out.length > 4_000_000) out = out.slice(-2_000_000);
        return;
      }
      const http = /HTTP listening on http:\/\/localhost:(\d+)/.exec(out);
      const mqtt = /MQTT listening on port (\d+)/.exec(out);
      // Every role by default: then the broker's port is needed too (or, with MQTT_MODE=external, its consumers).
      const needsMqtt = !env.APP_ROLES || env.APP_ROLES.includes('broker');
      const mqttReady = mqtt || /MQTT: consuming /.test(out);
      if ((http && (!needsMqtt || mqttReady)) || /Worker started/.test(out)) {
        ready = true;
        resolve({
          child,
          httpPort: http ? Number(http[1]) : 0,
          mqttPort: mqtt ? Number(mqtt[1]) : 0,
          output: () => out,
        });
      }
    };
    child.stdout.on('data', onData);
    child.stderr.on('data', onData);
    // BENCH_LOG_DIR: every process's whole output also goes to <dir>/<pid>.log, for post-mortems.
    if (process.env.BENCH_LOG_DIR) {
      mkdirSync(process.env.BENCH_LOG_DIR, { recursive: true });
      const file = createWriteStream(`${process.env.BENCH_LOG_DIR}/${env.APP_ROLES ?? 'all'}-${child.pid}.log`);
      child.stdout.pipe(file);
      child.stderr.pipe(file);
    }
    child.once('exit', (code) => reject(new Error(`process exited (${code}):\n${out}`)));
  });
}

export function stopProcess(p) {
  return new Promise((resolve) => {
    if (p.child.exitCode !== null) return resolve();
    p.child.once('exit', resolve);
    p.child.kill('SIGTERM');
    setTimeout(() => p.child.kill('SIGKILL'), 10_000).unref();
  });
}

export const newPrefix = (name) => `wvbench-${name}-${randomBytes(3).toString('hex')}`;

export const BENCH_LOGIN = { email: 'admin@bench.local', password: 'bench-pass-1234' };

/**
 * A fresh database `wv_bench_<name>` and Redis prefix, and the env every benchmark starts the program
 * with (LOG_LEVEL=warn still prints the start-up lines the readiness check reads), plus `extra`.
 * `teardown(procs)` stops the processes and removes the database and the Redis keys.
 */
export async function benchDeployment(name, extra = {}) {
  const database = `wv_bench_${name}`;
  const prefix = newPrefix(name);
  await recreateDatabase(database);
  const env = {
    DATABASE_URL: dbUrl(database),
    REDIS_URL,
    REDIS_PREFIX: prefix,
    PORT: '0',
    MQTT_PORT: '0',
    JWT_SECRET: 'bench-secret-0123456789',
    ADMIN_EMAIL: BENCH_LOGIN.email,
    ADMIN_PASSWORD: BENCH_LOGIN.password,
    LOG_LEVEL: process.env.BENCH_LOG_LEVEL ?? 'warn',
    ...extra,
  };
  return {
    env,
    prefix,
    databaseUrl: env.DATABASE_URL,
    async teardown(procs = []) {
      await Promise.all(procs.map(stopProcess));
      await dropDatabase(database);
      await deleteRedisPrefix(prefix);
    },
  };
}

/** Signs the benchmark admin in; `baseUrl` is `http://host:port`. */
export const adminToken = (baseUrl) => login(baseUrl, BENCH_LOGIN.email, BENCH_LOGIN.password);

/** Provisions `count` machines through the real flow (announce, then `/assign_id`): `{espId, deviceKey}[]`. */
export async function provisionMachines(baseUrl, token, count, idPrefix) {
  const api = `${baseUrl}/api`;
  const machines = [];
  for (let i = 0; i < count; i++) {
    const macAddress = Array.from(randomBytes(6), (b) => b.toString(16).padStart(2, '0'))
      .join(':')
      .toUpperCase();
    const announce = await fetch(`${api}/devices/announce`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ macAddress }),
    });
    if (announce.status !== 202) throw new Error(`announce: ${announce.status}`);
    const espId = `${idPrefix}-${String(i).padStart(4, '0')}`;
    const res = await fetch(`${api}/assign_id`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
      body: JSON.stringify({ macAddress, espId }),
    });
    if (res.status !== 201) throw new Error(`assign_id: ${res.status} ${await res.text()}`);
    machines.push({ espId, deviceKey: (await res.json()).deviceKey });
  }
  return machines;
}
