import { afterAll, afterEach, beforeAll, describe, expect, it } from '@jest/globals';
import { buildConfigAckTopic, buildConfigTopic, buildSalesTopic, buildStatusTopic } from '@wv/contracts';
import mqtt from 'mqtt';
import { randomUUID } from 'node:crypto';
import { Fleet } from '@wv/simulator';
import { createManager, provisionDevice } from '../factories/fleet.factory.js';
import { TestMachine, waitFor } from '../support/mqtt-machine.js';
import { createTestApp, TEST_ADMIN, type TestApp } from '../support/test-app.js';
import { saleMessage } from '../factories/sales.factory.js';

const sale = saleMessage;

describe('device bridge: MQTT and REST ingest', () => {
  let t: TestApp;
  let adminToken: string;
  const machines: TestMachine[] = [];

  const count = async (sql: string, params: unknown[] = []) => Number((await t.dataSource.query(sql, params))[0].n);
  const connect = async (espId: string, key: string) => {
    const m = await TestMachine.connect(t.mqttPort, espId, key);
    machines.push(m);
    return m;
  };

  beforeAll(async () => {
    t = await createTestApp();
    adminToken = await t.http.login(TEST_ADMIN.email, TEST_ADMIN.password);
  });
  afterEach(async () => {
    await Promise.all(machines.splice(0).map((m) => m.end()));
  });
  afterAll(() => t.close());

  it('stores a sale delivered three times over MQTT and once over REST exactly once', async () => {
    const device = await provisionDevice(t.http, adminToken);
    const machine = await connect(device.espId, device.deviceKey);
    const s = sale();
    for (let i = 0; i < 3; i++) await machine.publishSales(s);
    const rest = await t.http.post(`/machines/${device.espId}/sales`, s, {
      headers: { 'x-device-key': device.deviceKey },
    });
    expect(rest.status).toBe(202);
    expect(rest.body).toEqual({ accepted: 1, rejected: [] });
    await machine.waitForAcks([s.eventId]);
    await waitFor(
      () => count(`SELECT count(*) AS n FROM sales WHERE esp_id = $1`, [device.espId]),
      (n) => n === 1,
    );
    // Let the REST copy's job finish too, then check nothing doubled.
    await new Promise((r) => setTimeout(r, 500));
    expect(
      await count(`SELECT count(*) AS n FROM sales WHERE esp_id = $1 AND event_id = $2`, [device.espId, s.eventId]),
    ).toBe(1);
    const [daily] = await t.dataSource.query(
      `SELECT price_total::text, sales_count FROM sales_daily WHERE esp_id = $1`,
      [device.espId],
    );
    expect(daily).toEqual({ price_total: '500.00', sales_count: 1 });
  });

  it('accepts array payloads and keeps rollups equal to the sums of the rows', async () => {
    const device = await provisionDevice(t.http, adminToken);
    const machine = await connect(device.espId, device.deviceKey);
    const batch = Array.from({ length: 25 }, (_, i) =>
      sale({
        price: 100 + i * 0.25,
        volume: 1.5 + i,
        kind: i % 3 ? 'coin' : 'card',
        cardId: i % 3 ? undefined : 'CARD-X',
      }),
    );
    await machine.publishSales(batch);
    await machine.waitForAcks(batch.map((s) => s.eventId));
    expect(await count(`SELECT count(*) AS n FROM sales WHERE esp_id = $1`, [device.espId])).toBe(25);
    const mismatches = await t.dataSource.query(
      `SELECT d.kind FROM sales_daily d
       JOIN (SELECT kind, local_date, sum(price) p, sum(volume) v, count(*) n FROM sales WHERE esp_id = $1 GROUP BY 1, 2) s
         ON s.kind = d.kind AND s.local_date = d.day
       WHERE d.esp_id = $1 AND (d.price_total <> s.p OR d.volume_total <> s.v OR d.sales_count <> s.n)`,
      [device.espId],
    );
    expect(mismatches).toEqual([]);
    const [monthly] = await t.dataSource.query(
      `SELECT sum(sales_count)::int AS n, sum(price_total)::text AS p FROM sales_monthly WHERE esp_id = $1`,
      [device.espId],
    );
    const [rows] = await t.dataSource.query(`SELECT sum(price)::text AS p FROM sales WHERE esp_id = $1`, [
      device.espId,
    ]);
    expect(monthly).toEqual({ n: 25, p: rows.p });
  });

  it('refuses a wrong key and a foreign topic, and stores nothing from them', async () => {
    const [a, b] = [await provisionDevice(t.http, adminToken), await provisionDevice(t.http, adminToken)];
    await expect(TestMachine.connect(t.mqttPort, a.espId, 'not-the-key')).rejects.toThrow(
      /Bad username or password|Not authorized/,
    );
    const machine = await connect(a.espId, a.deviceKey);
    const closed = new Promise<void>((resolve) => machine.client.once('close', () => resolve()));
    machine.client.publish(buildSalesTopic(b.espId), JSON.stringify(sale()), { qos: 1 });
    await closed;
    const restWrongKey = await t.http.post(`/machines/${a.espId}/sales`, sale(), {
      headers: { 'x-device-key': b.deviceKey },
    });
    expect(restWrongKey.status).toBe(401);
    await new Promise((r) => setTimeout(r, 300));
    expect(await count(`SELECT count(*) AS n FROM sales WHERE esp_id IN ($1, $2)`, [a.espId, b.espId])).toBe(0);
  });

  it('dead-letters each kind of invalid payload and keeps the connection usable', async () => {
    const device = await provisionDevice(t.http, adminToken);
    const machine = await connect(device.espId, device.deviceKey);
    const bad: [string, unknown][] = [
      ['not JSON', '{"eventId": "x",'],
      ['empty array', []],
      ['wrong type', sale({ price: 'free' })],
      ['unknown kind', sale({ kind: 'token' })],
      ['card without cardId', sale({ kind: 'card' })],
      ['unknown field', sale({ discount: 5 })],
      ['future time', sale({ time: new Date(Date.now() + 3_600_000).toISOString() })],
      ['ancient time', sale({ time: '2001-01-01T00:00:00Z' })],
      ['time without offset', sale({ time: '2026-01-01T10:00:00' })],
      ['three decimals of money', sale({ price: 1.005 })],
    ];
    for (const [, payload] of bad) await machine.publishSales(payload);
    const good = sale();
    await machine.publishSales(good);
    await machine.waitForAcks([good.eventId]);
    const letters = await waitFor(
      () =>
        t.dataSource.query(`SELECT reason, payload FROM dead_letters WHERE esp_id = $1 ORDER BY id`, [device.espId]),
      (rows: unknown[]) => rows.length >= bad.length,
    );
    expect(letters).toHaveLength(bad.length);
    expect(letters[0]).toEqual({ reason: 'payload is not valid JSON', payload: '{"eventId": "x",' });
    expect((letters as { reason: string }[]).map((l) => l.reason).join('\n')).toMatch(
      /price[\s\S]*kind[\s\S]*cardId[\s\S]*discount[\s\S]*future[\s\S]*past/,
    );
    expect(await count(`SELECT count(*) AS n FROM sales WHERE esp_id = $1`, [device.espId])).toBe(1);

    const list = await t.http.get('/admin/dead-letters?page=1&limit=100', { token: adminToken });
    expect(list.status).toBe(200);
    expect(list.body.total).toBeGreaterThanOrEqual(bad.length);
    expect(list.body.data[0]).toEqual(
      expect.objectContaining({
        espId: expect.any(String),
        topic: expect.any(String),
        reason: expect.any(String),
        payload: expect.any(String),
      }),
    );
    const manager = await createManager(t.http, adminToken);
    expect((await t.http.get('/admin/dead-letters', { token: manager.token })).status).toBe(403);
  });

  it('keeps the good items of a mixed REST array and names the bad ones', async () => {
    const device = await provisionDevice(t.http, adminToken);
    const items = [sale(), sale({ volume: -1 }), sale()];
    const res = await t.http.post(`/machines/${device.espId}/sales`, items, {
      headers: { 'x-device-key': device.deviceKey },
    });
    expect(res.status).toBe(202);
    expect(res.body).toEqual({ accepted: 2, rejected: [{ index: 1, reason: expect.stringMatching(/volume/) }] });
    await waitFor(
      () => count(`SELECT count(*) AS n FROM sales WHERE esp_id = $1`, [device.espId]),
      (n) => n === 2,
    );
    await waitFor(
      () => count(`SELECT count(*) AS n FROM dead_letters WHERE esp_id = $1`, [device.espId]),
      (n) => n === 1,
    );
    const allBad = await t.http.post(`/machines/${device.espId}/sales`, [{ nope: 1 }], {
      headers: { 'x-device-key': device.deviceKey },
    });
    expect(allBad.status).toBe(400);
    expect(allBad.body.fields[0].path).toBe('[0]');
  });

  it('debits card sales as ledger entries and flags unknown cards and overdrafts', async () => {
    const device = await provisionDevice(t.http, adminToken);
    const [card] = await t.dataSource.query(
      `INSERT INTO cards (card_id, esp_id, holder_first_name, holder_last_name, card_type, balance) VALUES ($1, $2, 'Amina', 'Juma', 'Standard', 100) RETURNING id`,
      [`CARD-${device.espId}`, device.espId],
    );
    const machine = await connect(device.espId, device.deviceKey);
    const sales = [
      sale({ kind: 'card', cardId: `CARD-${device.espId}`, price: 60 }),
      sale({ kind: 'card', cardId: `CARD-${device.espId}`, price: 60 }),
      sale({ kind: 'card', cardId: 'NO-SUCH-CARD', price: 10 }),
    ];
    for (const s of sales) await machine.publishSales(s);
    await machine.waitForAcks(sales.map((s) => s.eventId));
    const flags = await t.dataSource.query(`SELECT event_id, flag FROM sales WHERE esp_id = $1`, [device.espId]);
    const flagOf = (id: string) => flags.find((f: { event_id: string }) => f.event_id === id).flag;
    expect([flagOf(sales[0]!.eventId), flagOf(sales[1]!.eventId), flagOf(sales[2]!.eventId)]).toEqual([
      null,
      'overdrawn',
      'unknown_card',
    ]);
    const [{ balance, entries }] = await t.dataSource.query(
      `SELECT c.balance::text AS balance, (SELECT sum(amount)::text FROM ledger_entries WHERE account_id = c.id) AS entries FROM cards c WHERE c.id = $1`,
      [card.id],
    );
    expect(balance).toBe('-20.00');
    expect(entries).toBe('-120.00'); // the load of 100 is not a ledger entry here: the card was inserted directly
  });

  it('delivers the retained config to a machine that connects later, and its ack marks it applied', async () => {
    const manager = await createManager(t.http, adminToken);
    const espId = manager.devices[0]!.espId;
    const tariffs = { espId, coldTariffs: '50', freshTariffs: 30, coldCalb: '1.25', freshCalb: '0.9' };
    expect((await t.http.post('/insert_tariffs', tariffs, { token: manager.token })).status).toBe(201);
    expect(
      (
        await t.http.put(
          '/update_wifi_credentials',
          { espId, ssid: 'Kiosk', password: 'secret-pass' },
          { token: manager.token },
        )
      ).status,
    ).toBe(200);
    const pending = await t.http.get(`/machines/${espId}/config-state`, { token: manager.token });
    expect(pending.body).toEqual({ version: 2, appliedVersion: 0, appliedAt: null });

    const client = await mqtt.connectAsync(`mqtt://127.0.0.1:${t.mqttPort}`, {
      clientId: espId,
      username: espId,
      password: manager.devices[0]!.deviceKey,
      protocolVersion: 4,
      reconnectPeriod: 0,
    });
    const config = new Promise<{ version: number; wifi: unknown; tariffs: unknown }>((resolve) =>
      client.on(
        'message',
        (topic, payload) => topic === buildConfigTopic(espId) && resolve(JSON.parse(payload.toString())),
      ),
    );
    await client.subscribeAsync(buildConfigTopic(espId), { qos: 1 });
    const received = await config;
    expect(received).toEqual({
      version: 2,
      wifi: { ssid: 'Kiosk', password: 'secret-pass' },
      tariffs: { cold: 50, fresh: 30, coldCalb: 1.25, freshCalb: 0.9 },
    });
    await client.publishAsync(buildConfigAckTopic(espId), JSON.stringify({ version: 2 }), { qos: 1 });
    const applied = await waitFor(
      () => t.http.get(`/machines/${espId}/config-state`, { token: manager.token }),
      (r) => r.body.appliedVersion === 2,
    );
    expect(applied.body.appliedAt).toEqual(expect.any(String));
    await client.endAsync(true);
  });

  it('tracks online and offline from the retained status and the will', async () => {
    const device = await provisionDevice(t.http, adminToken);
    const client = await mqtt.connectAsync(`mqtt://127.0.0.1:${t.mqttPort}`, {
      clientId: device.espId,
      username: device.espId,
      password: device.deviceKey,
      protocolVersion: 4,
      reconnectPeriod: 0,
      will: {
        topic: buildStatusTopic(device.espId),
        payload: Buffer.from(JSON.stringify({ online: false })),
        qos: 1,
        retain: true,
      },
    });
    await client.publishAsync(buildStatusTopic(device.espId), JSON.stringify({ online: true, firmware: 'fw-9' }), {
      qos: 1,
      retain: true,
    });
    const online = () =>
      t.dataSource
        .query(`SELECT online, firmware, last_seen_at FROM devices WHERE esp_id = $1`, [device.espId])
        .then((r: any[]) => r[0]);
    expect(await waitFor(online, (d) => d.online && d.firmware === 'fw-9')).toMatchObject({ online: true });
    (client as unknown as { stream: { destroy(): void } }).stream.destroy(); // no clean disconnect: the will fires
    expect(await waitFor(online, (d) => !d.online)).toMatchObject({ online: false, last_seen_at: expect.any(Date) });
    client.end(true);
  });

  it('provisions the fleet simulator over MQTT: listed after its hello, online with the key the admin was shown', async () => {
    const fleet = new Fleet({ url: `mqtt://127.0.0.1:${t.mqttPort}`, machines: 2, provision: true, rate: 0, seed: 11 });
    try {
      await fleet.start(10_000);
      const macs = fleet.machines.map((m) => m.macAddress);
      const listed = () =>
        t.http.get<{ macAddress: string }[]>('/get_mac_addresses', { token: adminToken }).then((r) => r.body);
      await waitFor(listed, (rows) => macs.every((mac) => rows.some((r) => r.macAddress === mac)));
      const keys = new Map<string, string>();
      for (const [i, macAddress] of macs.entries()) {
        const espId = `SIM-PROV-${randomUUID().slice(0, 8)}-${i}`;
        const res = await t.http.post<{ deviceKey: string }>(
          '/assign_id',
          { macAddress, espId },
          { token: adminToken },
        );
        expect(res.status).toBe(201);
        keys.set(espId, res.body.deviceKey);
      }
      await fleet.waitOnline(15_000);
      for (const m of fleet.machines) expect(keys.get(m.espId!)).toBeDefined();
      const sales = fleet.sell(2);
      const stats = await fleet.drain(15_000);
      expect(stats).toMatchObject({ generated: sales.length, acked: sales.length });
    } finally {
      await fleet.stop();
    }
  }, 60_000);
});
