import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import pg from 'pg';
import type { DataSource } from 'typeorm';
import { createAttendant, createManager } from '../factories/fleet.factory.js';
import { fundAttendant, ledgerViolations, registerCard } from '../factories/money.factory.js';
import { saleMessage } from '../factories/sales.factory.js';
import { HttpClient } from '../support/http-client.js';
import { TestMachine } from '../support/mqtt-machine.js';
import { rollupMismatches } from '../support/sales-invariants.js';
import { createDeployment, spawnServer, type Deployment, type ServerProcess } from '../support/server-process.js';
import { TEST_ADMIN } from '../support/test-app.js';

const ARRAYS = 60;
const PER_ARRAY = 100;
const TOTAL = ARRAYS * PER_ARRAY;

/**
 * docs/device-protocol.md, "Sequence numbers" and docs/decisions/0001-durable-before-puback.md: a
 * machine's offline backlog, acknowledged by the broker, survives the worker being SIGKILLed in the
 * middle of writing it: every sale stored once, the seq without a gap, every card charged and
 * refunded exactly once.
 */
describe('an offline backlog when the worker is killed mid-write', () => {
  let deployment: Deployment;
  let db: pg.Client;
  const processes: ServerProcess[] = [];
  const spawn = async (env: Record<string, string>) => {
    const p = await spawnServer(deployment, env);
    processes.push(p);
    return p;
  };
  const count = async () => (await db.query<{ n: number }>('SELECT count(*)::int AS n FROM sales')).rows[0]!.n;

  beforeAll(async () => {
    deployment = await createDeployment({ LOG_LEVEL: 'warn' });
    db = new pg.Client({ connectionString: deployment.databaseUrl });
    await db.connect();
  }, 60_000);
  afterAll(async () => {
    await Promise.all(processes.map((p) => p.kill()));
    await db?.end();
    await deployment?.cleanup();
  });

  it('stores the acknowledged backlog exactly once, seq contiguous, balances equal to the ledger', async () => {
    // The front (api and broker) acknowledges into Redis; no worker yet, so the whole backlog waits.
    const front = await spawn({ APP_ROLES: 'api,broker' });
    const http = new HttpClient(front.baseUrl);
    const admin = await http.login(TEST_ADMIN.email, TEST_ADMIN.password);
    const manager = await createManager(http, admin, 1);
    const device = manager.devices[0]!;
    const attendant = await createAttendant(http, manager.token, device.espId);
    await fundAttendant(http, manager.token, attendant, 500);
    const card = await registerCard(http, attendant.token, { card_balance: 500 });

    // Every 10th sale is on the card at 2 (600 on a card of 500); every 20th of those dispensed half.
    const start = Date.now() - 6 * 3600_000;
    const sales = Array.from({ length: TOTAL }, (_, i) => {
      const fields = { seq: i + 1, offline: true, time: new Date(start + i * 1000).toISOString() };
      if (i % 10 !== 0) return saleMessage(fields);
      return saleMessage({
        ...fields,
        kind: 'card',
        cardId: card.card_id,
        price: 2,
        volume: 10,
        ...(i % 200 === 0 ? { dispensed: 5 } : {}),
      });
    });
    const machine = await TestMachine.connect(front.mqttPort, device.espId, device.deviceKey);
    for (let j = 0; j < ARRAYS; j++) await machine.publishSales(sales.slice(j * PER_ARRAY, (j + 1) * PER_ARRAY));
    await machine.end();

    // A worker starts on the backlog and is killed in the middle of it, most likely inside a transaction.
    const first = await spawn({ APP_ROLES: 'worker' });
    let atKill = 0;
    const deadline = Date.now() + 60_000;
    while (Date.now() < deadline) {
      atKill = await count();
      if (atKill >= TOTAL / 5) break;
      await new Promise((r) => setTimeout(r, 10));
    }
    await first.kill();
    expect(atKill).toBeGreaterThan(0);
    expect(await count()).toBeLessThan(TOTAL);

    await spawn({ APP_ROLES: 'worker' });
    const until = Date.now() + 90_000;
    while ((await count()) < TOTAL && Date.now() < until) await new Promise((r) => setTimeout(r, 250));

    const { rows: stored } = await db.query(
      `SELECT count(*)::int AS n, count(DISTINCT event_id)::int AS events, count(DISTINCT seq)::int AS seqs,
              min(seq)::int AS lo, max(seq)::int AS hi FROM sales WHERE esp_id = $1`,
      [device.espId],
    );
    expect(stored).toEqual([{ n: TOTAL, events: TOTAL, seqs: TOTAL, lo: 1, hi: TOTAL }]);
    const { rows: state } = await db.query(
      `SELECT last_seq::int AS "lastSeq", (SELECT count(*)::int FROM machine_seq_gaps WHERE esp_id = $1) AS gaps
       FROM machine_seq_state WHERE esp_id = $1`,
      [device.espId],
    );
    expect(state).toEqual([{ lastSeq: TOTAL, gaps: 0 }]);

    // 600 card sales of 2, 30 of them refunded 1: 500 − 1200 + 30.
    const { rows: money } = await db.query(
      `SELECT c.balance::float8 AS balance,
              count(*) FILTER (WHERE e.kind = 'sale')::int AS sales,
              count(*) FILTER (WHERE e.kind = 'refund')::int AS refunds
       FROM cards c JOIN ledger_entries e ON e.account_type = 'card' AND e.account_id = c.id
       WHERE c.card_id = $1 GROUP BY c.balance`,
      [card.card_id],
    );
    expect(money).toEqual([{ balance: 500 - 1200 + 30, sales: TOTAL / 10, refunds: TOTAL / 200 }]);
    const asDataSource = { query: async (sql: string) => (await db.query(sql)).rows } as unknown as DataSource;
    expect(await ledgerViolations(asDataSource)).toEqual([]);
    expect(await rollupMismatches(db)).toEqual([]);
  }, 240_000);
});
