import { afterAll, beforeAll, beforeEach, describe, expect, it } from '@jest/globals';
import { Fleet, type MachineCredentials } from '@wv/simulator';
import pg from 'pg';
import { provisionDevice } from '../factories/fleet.factory.js';
import { HttpClient } from '../support/http-client.js';
import { rollupMismatches, storedKeys, waitUntilQuiet, waitUntilStored } from '../support/sales-invariants.js';
import { createDeployment, spawnServer, type Deployment, type ServerProcess } from '../support/server-process.js';
import { TEST_ADMIN } from '../support/test-app.js';

const TOTAL_SALES = 20_000;
const MACHINES = 20;

/** Starts a fleet whose every PUBACKed eventId is recorded: those sales must never be lost. */
function startFleet(port: number, identities: MachineCredentials[], pubacked: Set<string>, seed: number): Fleet {
  const fleet = new Fleet({
    url: `mqtt://127.0.0.1:${port}`,
    identities,
    rate: 0,
    dayCurve: false,
    seed,
    reconnectDelayMs: 200,
    backlogBatchSize: 50,
  });
  for (const m of fleet.machines) m.on('pubacked', (ids) => ids.forEach((id) => pubacked.add(`${m.espId}/${id}`)));
  return fleet;
}

/** Sells `count` sales in bursts as fast as they are acknowledged, calling `during` once halfway. */
async function sell(fleet: Fleet, count: number, onProgress?: (sold: number) => Promise<void> | void): Promise<void> {
  for (let sold = 0; sold < count;) {
    const burst = Math.min(500, count - sold);
    fleet.sell(burst);
    sold += burst;
    await onProgress?.(sold);
    await new Promise((r) => setTimeout(r, 20));
  }
}

/**
 * docs/device-protocol.md, "Acknowledgements and durability": a sale counts as received once the broker acknowledged
 * it; from then on no crash of the program may lose it. These tests kill processes with SIGKILL while the fleet sells.
 */
describe('no acknowledged sale is lost when processes are killed', () => {
  let deployment: Deployment;
  let db: pg.Client;
  let identities: MachineCredentials[];
  const processes: ServerProcess[] = [];

  const spawn = async (env: Record<string, string> = {}) => {
    const p = await spawnServer(deployment, env);
    processes.push(p);
    return p;
  };

  beforeAll(async () => {
    deployment = await createDeployment({ LOG_LEVEL: 'warn' });
    db = new pg.Client({ connectionString: deployment.databaseUrl });
    const first = await spawn();
    await db.connect();
    const http = new HttpClient(first.baseUrl);
    const admin = await http.login(TEST_ADMIN.email, TEST_ADMIN.password);
    identities = [];
    for (let i = 0; i < MACHINES; i++) {
      const d = await provisionDevice(http, admin, `FAULT-${String(i).padStart(2, '0')}`);
      identities.push({ espId: d.espId, deviceKey: d.deviceKey });
    }
    await first.stop();
  }, 60_000);

  afterAll(async () => {
    await Promise.all(processes.map((p) => p.kill()));
    await db?.end();
    await deployment?.cleanup();
  });

  beforeEach(async () => {
    await db.query('TRUNCATE sales, sales_daily, sales_monthly, dead_letters');
  });

  it('keeps every PUBACKed sale when the whole program is SIGKILLed mid-stream and restarted', async () => {
    const pubacked = new Set<string>();
    const server = await spawn();
    const fleet = startFleet(server.mqttPort, identities, pubacked, 1);
    await fleet.start();
    let killedAt = 0;
    await sell(fleet, TOTAL_SALES / 2, async (sold) => {
      if (!killedAt && sold >= TOTAL_SALES / 4) {
        await server.kill();
        killedAt = pubacked.size;
      }
    });
    expect(killedAt).toBeGreaterThan(0);
    const acknowledgedBeforeRestart = new Set(pubacked);
    await fleet.stop();

    // The restarted program listens on another port, so nothing is redelivered: what the broker
    // acknowledged before the kill must come out of the queue on its own.
    const restarted = await spawn();
    expect(await waitUntilStored(db, acknowledgedBeforeRestart, 60_000)).toEqual([]);

    const second = startFleet(restarted.mqttPort, identities, pubacked, 2);
    await second.start();
    await sell(second, TOTAL_SALES / 2);
    await second.drain(60_000);
    await second.stop();

    const stored = await storedKeys(db);
    expect([...pubacked].filter((k) => !stored.has(k))).toEqual([]);
    expect([...stored.values()].every((n) => n === 1)).toBe(true);
    expect(pubacked.size).toBeGreaterThanOrEqual(TOTAL_SALES * 0.6);
    expect(await rollupMismatches(db)).toEqual([]);
    // Sales the killed program had queued but never acknowledged are still coming out of the queue; the next
    // test truncates the table first and must not find them there.
    await waitUntilQuiet(db, 2_000, 30_000);
    await restarted.stop();
  }, 180_000);

  it('keeps every PUBACKed sale exactly once when only the worker process is SIGKILLed mid-batch', async () => {
    const pubacked = new Set<string>();
    const front = await spawn({ APP_ROLES: 'api,broker' });
    let worker = await spawn({ APP_ROLES: 'worker' });
    const fleet = startFleet(front.mqttPort, identities, pubacked, 3);
    await fleet.start();
    let restarted = false;
    await sell(fleet, TOTAL_SALES, async () => {
      if (restarted) return;
      const { rows } = await db.query<{ n: number }>('SELECT count(*)::int AS n FROM sales');
      if (rows[0]!.n >= 3000) {
        await worker.kill(); // most likely inside a batch's transaction
        worker = await spawn({ APP_ROLES: 'worker' });
        restarted = true;
      }
    });
    expect(restarted).toBe(true);
    await fleet.drain(90_000);
    await fleet.stop();

    const stored = await storedKeys(db);
    expect(pubacked.size).toBe(TOTAL_SALES);
    expect([...pubacked].filter((k) => !stored.has(k))).toEqual([]);
    expect(stored.size).toBe(TOTAL_SALES);
    expect([...stored.values()].every((n) => n === 1)).toBe(true);
    expect(await rollupMismatches(db)).toEqual([]);
    await Promise.all([front.stop(), worker.stop()]);
  }, 180_000);
});
