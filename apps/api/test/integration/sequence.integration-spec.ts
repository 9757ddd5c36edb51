import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { buildStatusTopic } from '@wv/contracts';
import { Queue } from 'bullmq';
import { Redis } from 'ioredis';
import { randomUUID } from 'node:crypto';
import { createAttendant, createManager, provisionDevice } from '../factories/fleet.factory.js';
import { fundAttendant, ledgerViolations, registerCard } from '../factories/money.factory.js';
import { saleMessage } from '../factories/sales.factory.js';
import { CardListVersions } from '../../src/card-list/card-list-versions.js';
import { bullPrefix, SALES_QUEUE } from '../../src/queue/queue-connection.js';
import { TestMachine, waitFor } from '../support/mqtt-machine.js';
import { createTestApp, TEST_ADMIN, type TestApp } from '../support/test-app.js';
import { TEST_REDIS_URL } from '../support/test-databases.js';

type Manager = Awaited<ReturnType<typeof createManager>>;
type Device = Awaited<ReturnType<typeof provisionDevice>>;

/**
 * docs/device-protocol.md, "Sequence numbers" and docs/rest-api.md, "Selling offline": sales carry
 * seq, offline and dispensed; the server keeps each machine's highest seq and the ranges never
 * received; a machine's backlog sold offline arrives later, exactly once, behind live sales.
 */
describe('sale sequence numbers and selling offline', () => {
  let t: TestApp;
  let admin: string;
  let managerA: Manager;
  let managerB: Manager;
  const machines: TestMachine[] = [];

  const connect = async (device: Device) => {
    const machine = await TestMachine.connect(t.mqttPort, device.espId, device.deviceKey);
    machines.push(machine);
    return machine;
  };
  /** Publishes `sales` and waits until every one is committed (sales/ack). */
  const deliver = async (machine: TestMachine, sales: { eventId: string }[]) => {
    await machine.publishSales(sales);
    await machine.waitForAcks(
      sales.map((s) => s.eventId),
      60_000,
    );
  };
  const sync = async (espId: string, token = admin) => {
    const res = await t.http.get(`/machines/${espId}/sync`, { token });
    expect(res.status).toBe(200);
    return res.body as {
      lastSeq: number;
      missing: [number, number][];
      queued: number | null;
      lastSaleAt: string | null;
      cardListVersion: number;
      cardListAckedVersion: number;
    };
  };
  const freshDevice = async (owner: Manager = managerA) => {
    const device = await provisionDevice(t.http, admin);
    const added = await t.http.post(
      '/add/user/devices',
      { userId: owner.userId, esp32Id: device.espId, machine_location: 'Sinza' },
      { token: admin },
    );
    expect(added.status).toBe(201);
    return device;
  };
  const sale = (seq: number, overrides: Record<string, unknown> = {}) => saleMessage({ seq, ...overrides });

  beforeAll(async () => {
    t = await createTestApp();
    admin = await t.http.login(TEST_ADMIN.email, TEST_ADMIN.password);
    managerA = await createManager(t.http, admin, 1);
    managerB = await createManager(t.http, admin, 1);
  });
  afterAll(async () => {
    await Promise.all(machines.map((m) => m.end()));
    expect(await ledgerViolations(t.dataSource)).toEqual([]);
    await t.close();
  });

  it('stores each sale’s seq, offline and dispensed, and the transaction rows show dispensed', async () => {
    const device = await freshDevice();
    const machine = await connect(device);
    const sales = [
      sale(1, { dispensed: 9.5 }),
      sale(2, { offline: true, time: new Date(Date.now() - 60_000).toISOString() }),
      sale(3, { offline: false }),
    ];
    await deliver(machine, sales);
    const rows = await t.dataSource.query(
      `SELECT event_id AS "eventId", seq::int AS seq, offline, dispensed::float8 AS dispensed FROM sales
       WHERE esp_id = $1 ORDER BY seq`,
      [device.espId],
    );
    expect(rows).toEqual([
      { eventId: sales[0]!.eventId, seq: 1, offline: false, dispensed: 9.5 },
      { eventId: sales[1]!.eventId, seq: 2, offline: true, dispensed: null },
      { eventId: sales[2]!.eventId, seq: 3, offline: false, dispensed: null },
    ]);
    const page = await t.http.get(`/machines/${device.espId}/coin-transactions?limit=10&sort=time&order=asc`, {
      token: managerA.token,
    });
    expect(page.body.data.map((r: { dispensed: number | null }) => r.dispensed).sort()).toEqual([9.5, null, null]);
  });

  it('dead-letters a sale with a seq below 1, not a whole number, or an offline that is not a boolean', async () => {
    const device = await freshDevice();
    const bad = [sale(0), sale(1.5), saleMessage({ offline: 'yes' }), saleMessage({ seq: '4' })];
    const res = await t.http.post(`/machines/${device.espId}/sales`, bad, {
      headers: { 'x-device-key': device.deviceKey },
    });
    expect(res.status).toBe(400);
    expect(res.body.fields.map((f: { message: string }) => f.message).join(' ')).toMatch(/seq must be 1 or more/);
    await waitFor(
      () => t.dataSource.query(`SELECT count(*)::int AS n FROM dead_letters WHERE esp_id = $1`, [device.espId]),
      (r) => r[0].n === 4,
    );
    expect((await sync(device.espId)).lastSeq).toBe(0);
  });

  it('tracks the highest seq and the gaps: out of order, duplicates, splits, fills', async () => {
    const device = await freshDevice();
    const machine = await connect(device);
    // The card list versions are the card-list domain's, read through its export.
    const versions = await t.running.app.get(CardListVersions).forMachine(device.espId);
    expect(await sync(device.espId)).toEqual({ lastSeq: 0, missing: [], queued: null, lastSaleAt: null, ...versions });

    const s = new Map<number, ReturnType<typeof sale>>();
    const at = (seq: number) => s.get(seq) ?? s.set(seq, sale(seq)).get(seq)!;
    // Out of order within one delivery: no gap.
    await deliver(machine, [at(3), at(1), at(2)]);
    expect(await sync(device.espId)).toMatchObject({ lastSeq: 3, missing: [] });

    await deliver(machine, [at(5)]);
    await deliver(machine, [at(10)]);
    expect((await sync(device.espId)).missing).toEqual([
      [4, 4],
      [6, 9],
    ]);
    const seen = async () =>
      (
        await t.dataSource.query(
          `SELECT from_seq::int AS "from", to_seq::int AS "to", first_seen_at AS at FROM machine_seq_gaps
           WHERE esp_id = $1 ORDER BY from_seq`,
          [device.espId],
        )
      ).map((g: { from: number; to: number; at: Date }) => [g.from, g.to, g.at.toISOString()]);
    const [, [, , firstSeen69]] = await seen();

    // A duplicate (the same eventId again, by MQTT and by REST) changes nothing.
    await deliver(machine, [at(5), at(10)]);
    const rest = await t.http.post(`/machines/${device.espId}/sales`, [at(10)], {
      headers: { 'x-device-key': device.deviceKey },
    });
    expect(rest.status).toBe(202);
    await deliver(machine, [at(7)]);
    expect((await sync(device.espId)).missing).toEqual([
      [4, 4],
      [6, 6],
      [8, 9],
    ]);
    // Split pieces keep the time the server first saw the numbers missing.
    expect((await seen()).slice(1).map((g: unknown[]) => g[2])).toEqual([firstSeen69, firstSeen69]);

    await deliver(machine, [at(9), at(4)]);
    expect((await sync(device.espId)).missing).toEqual([
      [6, 6],
      [8, 8],
    ]);
    await deliver(machine, [at(8), at(6)]);
    const done = await sync(device.espId);
    expect(done).toMatchObject({ lastSeq: 10, missing: [] });
    expect(await seen()).toEqual([]);
    const counts = await t.dataSource.query(
      `SELECT count(*)::int AS n, count(DISTINCT seq)::int AS seqs FROM sales WHERE esp_id = $1`,
      [device.espId],
    );
    expect(counts).toEqual([{ n: 10, seqs: 10 }]);
    expect(done.lastSaleAt).toBe(
      (
        await t.dataSource.query(`SELECT max(sold_at) AS t FROM sales WHERE esp_id = $1`, [device.espId])
      )[0].t.toISOString(),
    );
  });

  it('stores a sale whose seq was already used (counted as reused) and takes a used seq 1 as a restarted counter', async () => {
    const device = await freshDevice();
    const machine = await connect(device);
    await deliver(machine, [sale(1), sale(2), sale(4)]);
    expect((await sync(device.espId)).missing).toEqual([[3, 3]]);

    // Another sale with seq 2: never refused (the water is gone), stored, and nothing else moves.
    const reused = sale(2);
    await deliver(machine, [reused]);
    expect(
      await t.dataSource.query(`SELECT seq::int AS seq FROM sales WHERE esp_id = $1 AND event_id = $2`, [
        device.espId,
        reused.eventId,
      ]),
    ).toEqual([{ seq: 2 }]);
    expect(await sync(device.espId)).toMatchObject({ lastSeq: 4, missing: [[3, 3]] });

    // The counter starts again (flash wiped): seq 1 of a new sale.
    await deliver(machine, [sale(1), sale(2)]);
    expect(await sync(device.espId)).toMatchObject({ lastSeq: 2, missing: [] });
    const [state] = await t.dataSource.query(
      `SELECT reused_seqs::int AS reused, restarts FROM machine_seq_state WHERE esp_id = $1`,
      [device.espId],
    );
    expect(state).toEqual({ reused: 1, restarts: 1 });
    expect(
      (await t.dataSource.query(`SELECT count(*)::int AS n FROM sales WHERE esp_id = $1`, [device.espId]))[0].n,
    ).toBe(6);
  });

  it('keeps the gaps right when many deliveries of one machine are written at once by several workers', async () => {
    const device = await freshDevice();
    const sales = Array.from({ length: 1000 }, (_, i) => sale(i + 1));
    // 20 arrays of 50 in a shuffled order, all posted at once (REST jobs are not merged), and 100 left out.
    const arrays = Array.from({ length: 20 }, (_, j) => sales.slice(j * 50, j * 50 + 50));
    const leftOut = new Set([3, 11]);
    const order = [...arrays.keys()].sort(() => Math.random() - 0.5).filter((j) => !leftOut.has(j));
    const answers = await Promise.all(
      order.map((j) =>
        t.http.post(`/machines/${device.espId}/sales`, arrays[j], { headers: { 'x-device-key': device.deviceKey } }),
      ),
    );
    expect(answers.every((a) => a.status === 202)).toBe(true);
    await waitFor(
      () => t.dataSource.query(`SELECT count(*)::int AS n FROM sales WHERE esp_id = $1`, [device.espId]),
      (rows) => rows[0].n === 900,
      60_000,
    );
    expect(await sync(device.espId)).toMatchObject({
      lastSeq: 1000,
      missing: [
        [151, 200],
        [551, 600],
      ],
    });
  });

  it('records the sales a machine still holds from its status payload’s queued', async () => {
    const device = await freshDevice();
    const machine = await connect(device);
    await machine.client.publishAsync(buildStatusTopic(device.espId), JSON.stringify({ online: true, queued: 42 }), {
      qos: 1,
      retain: true,
    });
    await waitFor(
      () => sync(device.espId),
      (s) => s.queued === 42,
    );
    await machine.client.publishAsync(buildStatusTopic(device.espId), JSON.stringify({ online: true, queued: 0 }), {
      qos: 1,
      retain: true,
    });
    await waitFor(
      () => sync(device.espId),
      (s) => s.queued === 0,
    );
  });

  it('takes a partitioned machine’s backlog sold offline exactly once, seq contiguous, balances equal to the ledger', async () => {
    const device = await freshDevice();
    const attendant = await createAttendant(t.http, managerA.token, device.espId);
    await fundAttendant(t.http, managerA.token, attendant, 100);
    const card = await registerCard(t.http, attendant.token, { card_balance: 100 });
    const machine = await connect(device);

    // Online: seq 1–10.
    const online = Array.from({ length: 10 }, (_, i) => sale(i + 1));
    await deliver(machine, online);

    // Partitioned: seq 11–210 sold offline, 20 of them on the card at 10 each: 200 on a card of 100.
    const start = Date.now() - 3600_000;
    const offline = Array.from({ length: 200 }, (_, i) => {
      const seq = 11 + i;
      const time = new Date(start + i * 10_000).toISOString();
      return i % 10 === 0
        ? sale(seq, { offline: true, time, kind: 'card', cardId: card.card_id, price: 10, volume: 5 })
        : sale(seq, { offline: true, time });
    });
    // Back online: the backlog arrives in arrays of 50, out of order, one array twice, one over REST too.
    const chunks = [offline.slice(150, 200), offline.slice(0, 50), offline.slice(100, 150), offline.slice(50, 100)];
    await deliver(machine, chunks[0]!);
    expect((await sync(device.espId)).missing).toEqual([[11, 160]]);
    await deliver(machine, chunks[1]!);
    expect((await sync(device.espId)).missing).toEqual([[61, 160]]);
    await deliver(machine, chunks[1]!);
    const viaRest = await t.http.post(`/machines/${device.espId}/sales`, chunks[2], {
      headers: { 'x-device-key': device.deviceKey },
    });
    expect(viaRest.status).toBe(202);
    await deliver(machine, chunks[2]!);
    await deliver(machine, chunks[3]!);

    const done = await sync(device.espId);
    expect(done).toMatchObject({ lastSeq: 210, missing: [] });
    const [rows] = await t.dataSource.query(
      `SELECT count(*)::int AS n, count(DISTINCT event_id)::int AS events, min(seq)::int AS lo, max(seq)::int AS hi,
              count(DISTINCT seq)::int AS seqs, count(*) FILTER (WHERE offline)::int AS offline
       FROM sales WHERE esp_id = $1`,
      [device.espId],
    );
    expect(rows).toEqual({ n: 210, events: 210, lo: 1, hi: 210, seqs: 210, offline: 200 });

    // The card: the first 10 sales charged (in the order they arrived, not their times) fit the balance;
    // the other 10 are stored, charged and flagged overdrawn.
    const cardSales = await t.dataSource.query(
      `SELECT flag FROM sales WHERE esp_id = $1 AND card_id = $2 ORDER BY id`,
      [device.espId, card.card_id],
    );
    expect(cardSales.map((r: { flag: string | null }) => r.flag)).toEqual([
      ...Array(10).fill(null),
      ...Array(10).fill('overdrawn'),
    ]);
    const [{ balance }] = await t.dataSource.query(`SELECT balance::float8 AS balance FROM cards WHERE card_id = $1`, [
      card.card_id,
    ]);
    expect(balance).toBe(-100);
    const entries = await t.dataSource.query(
      `SELECT count(*)::int AS n FROM ledger_entries WHERE account_type = 'card' AND account_id = $1 AND kind = 'sale'`,
      [card.id],
    );
    expect(entries).toEqual([{ n: 20 }]);
    expect(await ledgerViolations(t.dataSource)).toEqual([]);
    const mismatches = await t.dataSource.query(`
      SELECT d.esp_id FROM sales_daily d
      LEFT JOIN (SELECT esp_id, local_date, kind, count(*) n, sum(price) p FROM sales GROUP BY 1, 2, 3) s
        ON s.esp_id = d.esp_id AND s.local_date = d.day AND s.kind = d.kind
      WHERE s.n IS DISTINCT FROM d.sales_count OR s.p IS DISTINCT FROM d.price_total`);
    expect(mismatches).toEqual([]);
  });

  it('lets live sales past a waiting backfill: offline sales wait behind them in the queue', async () => {
    const device = await freshDevice();
    const machine = await connect(device);
    const connection = new Redis(TEST_REDIS_URL, { maxRetriesPerRequest: null });
    const queue = new Queue(SALES_QUEUE, { connection, prefix: bullPrefix(t.config, SALES_QUEUE) });
    try {
      // Hold the workers off while the backlog and then one live sale are queued, so that both wait.
      await queue.pause();
      const backlog = Array.from({ length: 20 }, (_, j) =>
        Array.from({ length: 100 }, (_, i) =>
          sale(j * 100 + i + 1, { offline: true, time: new Date(Date.now() - 600_000).toISOString() }),
        ),
      );
      for (const chunk of backlog) await machine.publishSales(chunk);
      const live = sale(2001);
      await machine.publishSales([live]);
      expect(await queue.getPrioritizedCount()).toBeGreaterThanOrEqual(1);
      await queue.resume();
      await machine.waitForAcks([live.eventId, ...backlog.flat().map((s) => s.eventId)], 120_000);

      // The workers take up to 4 jobs at once: the live sale's job first, then at most 3 backfill jobs
      // beside it. In arrival order it would have come after all 2,000.
      const [{ before }] = await t.dataSource.query(
        `SELECT count(*)::int AS before FROM sales
         WHERE esp_id = $1 AND offline AND id < (SELECT id FROM sales WHERE esp_id = $1 AND event_id = $2)`,
        [device.espId, live.eventId],
      );
      expect(before).toBeLessThanOrEqual(300);
      expect(await sync(device.espId)).toMatchObject({ lastSeq: 2001, missing: [] });
    } finally {
      await queue.resume().catch(() => undefined);
      await queue.close();
      await connection.quit();
    }
  });

  describe('GET /machines/{espId}/sync within scope', () => {
    it('answers the owner manager, the machine’s attendant and admins; 404 to other tenants and other machines’ attendants', async () => {
      const mine = await freshDevice(managerA);
      const other = await freshDevice(managerA);
      const attendant = await createAttendant(t.http, managerA.token, mine.espId);
      const otherAttendant = await createAttendant(t.http, managerA.token, other.espId);
      const strangerAttendant = await createAttendant(t.http, managerB.token, managerB.devices[0]!.espId);
      const path = `/machines/${mine.espId}/sync`;
      expect((await t.http.get(path, { token: admin })).status).toBe(200);
      expect((await t.http.get(path, { token: managerA.token })).status).toBe(200);
      expect((await t.http.get(path, { token: attendant.token })).status).toBe(200);
      for (const token of [managerB.token, otherAttendant.token, strangerAttendant.token]) {
        const res = await t.http.get(path, { token });
        expect(res.status).toBe(404);
        expect(res.body).toMatchObject({ statusCode: 404, code: 'DeviceNotFound' });
      }
      expect((await t.http.get(path)).status).toBe(401);
      expect((await t.http.get(path, { headers: { 'x-device-key': mine.deviceKey } })).status).toBe(401);
      expect((await t.http.get(`/machines/ESP-${randomUUID().slice(0, 8)}/sync`, { token: admin })).status).toBe(404);
      expect((await t.http.get(`/machines/${'x'.repeat(65)}/sync`, { token: admin })).status).toBe(400);
    });
  });
});
