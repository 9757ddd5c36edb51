import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import pg from 'pg';
import { createRandom, freshSeed } from '../../../../bench/lib/prng.mjs';
import { fuzzMacs, missingSales, runMqttFuzz, startHonestFleet } from '../../../../bench/lib/mqtt-fuzz.mjs';
import { provisionDevice } from '../factories/fleet.factory.js';
import { HttpClient } from '../support/http-client.js';
import { createDeployment, spawnServer, type Deployment, type ServerProcess } from '../support/server-process.js';
import { TEST_ADMIN } from '../support/test-app.js';

const SECONDS = Number(process.env.FUZZ_SECONDS ?? 40);
const SEED = Number(process.env.FUZZ_SEED ?? freshSeed());

/**
 * The short version of `npm run bench -- fuzz-mqtt`: the built program as a process; mutated MQTT
 * packets and the known crash inputs over raw TCP and WebSocket while honest machines sell QoS 1.
 * A failure names the seed; FUZZ_SEED=<seed> replays the same inputs.
 */
describe('MQTT fuzzing of the broker', () => {
  let deployment: Deployment;
  let server: ServerProcess;
  let http: HttpClient;

  beforeAll(async () => {
    deployment = await createDeployment({
      // One client address opens hundreds of connections per second here.
      MQTT_CONNECT_RATE: '1000000',
      HTTP_RATE_LIMIT: '100000',
      LOG_LEVEL: 'warn',
    });
    server = await spawnServer(deployment);
    http = new HttpClient(server.baseUrl);
  }, 60_000);
  afterAll(async () => {
    await server?.stop();
    await deployment?.cleanup();
  }, 30_000);

  it(`never crashes and stores every PUBACKed honest sale (seed ${SEED})`, async () => {
    const admin = await http.login(TEST_ADMIN.email, TEST_ADMIN.password);
    const honest = [];
    for (let i = 0; i < 5; i++) honest.push(await provisionDevice(http, admin, `HONEST-${i}`));
    const fuzz = [];
    for (let i = 0; i < 4; i++) fuzz.push(await provisionDevice(http, admin, `FUZZ-${i}`));
    const alive = () => server.process.exitCode === null && server.process.signalCode === null;

    const fleet = startHonestFleet({ url: `mqtt://127.0.0.1:${server.mqttPort}`, machines: honest, salesPerSecond: 5 });
    const { stats, crashed } = await runMqttFuzz({
      target: { host: '127.0.0.1', mqttPort: server.mqttPort, httpPort: new URL(server.baseUrl).port, wsPath: '/mqtt' },
      identities: { fuzz, honest, macs: fuzzMacs(createRandom(SEED)) },
      durationMs: SECONDS * 1000,
      seed: SEED,
      concurrency: 12,
      isAlive: async () => alive(),
    });
    const honestResult = await fleet.stop();

    expect({ seed: SEED, crashed, alive: alive() }).toEqual({ seed: SEED, crashed: false, alive: true });
    expect(stats.knownCrashInputsReplayed).toBeGreaterThan(50);
    expect(stats.packetsSent).toBeGreaterThan(10_000);
    expect(honestResult.pubacked).toBeGreaterThan(SECONDS * 5);
    expect((await http.get('/health')).status).toBe(200);

    const db = new pg.Client({ connectionString: deployment.databaseUrl });
    await db.connect();
    try {
      expect({ seed: SEED, lost: await missingSales(db, fleet.pubacked, 30_000) }).toEqual({ seed: SEED, lost: [] });
    } finally {
      await db.end();
    }
    expect(honestResult.salesAckMissing).toBe(0);
  }, 180_000);
});
