import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { Redis } from 'ioredis';
import pg from 'pg';
import { createRandom, freshSeed } from '../../../../bench/lib/prng.mjs';
import { seedFuzzWorld } from '../../../../bench/lib/http-fuzz-seed.mjs';
import { runHttpFuzz } from '../../../../bench/lib/http-fuzz.mjs';
import { createDeployment, spawnServer, type Deployment, type ServerProcess } from '../support/server-process.js';
import { TEST_REDIS_URL } from '../support/test-databases.js';
import { TEST_ADMIN } from '../support/test-app.js';

const COUNT = Number(process.env.FUZZ_REQUESTS ?? 2500);
const SEED = Number(process.env.FUZZ_SEED ?? freshSeed());

/**
 * The short version of `npm run bench -- fuzz-http`: requests from the served OpenAPI document with
 * random and broken bodies, parameters and every kind of caller, against the built program with two
 * seeded tenants. A failure names the seed; FUZZ_SEED=<seed> replays the same requests.
 */
describe('HTTP fuzzing from the OpenAPI document', () => {
  let deployment: Deployment;
  let server: ServerProcess;
  let db: pg.Client;
  let redis: Redis;

  beforeAll(async () => {
    // Every request comes from one address: the per-address limit would answer most with 429.
    deployment = await createDeployment({ HTTP_RATE_LIMIT: '10000000', LOG_LEVEL: 'warn' });
    server = await spawnServer(deployment);
    db = new pg.Client({ connectionString: deployment.databaseUrl });
    await db.connect();
    redis = new Redis(TEST_REDIS_URL);
  }, 60_000);
  afterAll(async () => {
    await db?.end();
    await redis?.quit();
    await server?.stop();
    await deployment?.cleanup();
  }, 30_000);

  it(`answers no 5xx, leaks nothing across tenants and writes nothing when it refuses (seed ${SEED})`, async () => {
    const api = `${server.baseUrl}/api`;
    const doc = await (await fetch(`${api}/docs/openapi.json`)).json();
    const world = await seedFuzzWorld({
      api,
      admin: TEST_ADMIN,
      secret: deployment.env.JWT_SECRET!,
      rng: createRandom(SEED).fork(),
    });
    const { stats, findings } = await runHttpFuzz({
      baseUrl: server.baseUrl,
      db,
      world,
      doc,
      count: COUNT,
      seed: SEED,
      clearLoginLocks: async () => {
        const keys = await redis.keys(`${deployment.redisPrefix}:login-fail:*`);
        if (keys.length) await redis.del(...keys);
      },
    });

    expect({ seed: SEED, findings: findings.slice(0, 5) }).toEqual({ seed: SEED, findings: [] });
    expect(stats.serverErrors + stats.connectionErrors + stats.leaks).toBe(0);
    expect(stats.crossTenantAccepted + stats.writesFromRefused).toBe(0);
    expect(stats.operations).toBeGreaterThanOrEqual(40);
    expect(stats.byClass['2xx']).toBeGreaterThan(COUNT / 10);
    expect(stats.refusedChecked).toBeGreaterThan(COUNT / 3);
    expect((await fetch(`${api}/health`)).status).toBe(200);
  }, 600_000);
});
