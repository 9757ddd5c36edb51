import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { buildConfigTopic, buildSalesTopic } from '@wv/contracts';
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { provisionDevice } from '../factories/fleet.factory.js';
import { saleMessage } from '../factories/sales.factory.js';
import { HttpClient } from '../support/http-client.js';
import { MosquittoInstance, mosquittoAvailable } from '../support/mosquitto-instance.js';
import { TestMachine, waitFor } from '../support/mqtt-machine.js';
import { createDeployment, spawnServer, type Deployment, type ServerProcess } from '../support/server-process.js';
import { createTestApp, TEST_ADMIN, type TestApp } from '../support/test-app.js';

const available = mosquittoAvailable();
if (!available) {
  // Debian's mosquitto package is part of this machine kind (docs/operations.md, "Toolchain notes").
  console.warn(
    'external-mqtt: /usr/sbin/mosquitto with its dynamic-security plugin is missing; these tests are skipped',
  );
}
const describeWithMosquitto = available ? describe : describe.skip;

/** Connects as soon as the broker knows the machine (its identity reaches Mosquitto within a second). */
async function connectWhenKnown(port: number, espId: string, key: string, timeoutMs = 10_000): Promise<TestMachine> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    try {
      return await TestMachine.connect(port, espId, key);
    } catch (error) {
      if (Date.now() > deadline) throw error;
      await new Promise((r) => setTimeout(r, 100));
    }
  }
}

const refusal = (port: number, espId: string, key: string) =>
  TestMachine.connect(port, espId, key).then(
    async (m) => {
      await m.end();
      return 'connected';
    },
    (error: Error) => error.message,
  );

/**
 * docs/external-mqtt.md: with MQTT_MODE=external machines talk to Mosquitto, which learns who they are from the
 * program (dynamic security) and enforces their topics itself; the program consumes their sales through shared
 * subscriptions and acknowledges each to the broker only once it is durable.
 */
describeWithMosquitto('external MQTT mode with Mosquitto and dynamic security', () => {
  let broker: MosquittoInstance;
  let t: TestApp;
  let admin: string;
  const machines: TestMachine[] = [];
  const count = async (sql: string, params: unknown[] = []) => Number((await t.dataSource.query(sql, params))[0].n);
  const connect = async (espId: string, key: string) => {
    const m = await connectWhenKnown(broker.port, espId, key);
    machines.push(m);
    return m;
  };

  beforeAll(async () => {
    broker = await MosquittoInstance.create();
    t = await createTestApp({ ...broker.env, MQTT_CLIENT_ID: `wvt-${randomBytes(4).toString('hex')}` });
    admin = await t.http.login(TEST_ADMIN.email, TEST_ADMIN.password);
  }, 60_000);
  afterAll(async () => {
    await Promise.all(machines.map((m) => m.end().catch(() => undefined)));
    await t?.close();
    await broker?.destroy();
  });

  it('provisions the machine on the broker and stores its sales exactly once, acknowledged', async () => {
    const device = await provisionDevice(t.http, admin);
    const machine = await connect(device.espId, device.deviceKey);
    const sale = saleMessage();
    // QoS 1 duplicates and a resend: one row.
    for (let i = 0; i < 3; i++) await machine.publishSales(sale);
    await waitFor(
      () => count(`SELECT count(*) AS n FROM sales WHERE esp_id = $1`, [device.espId]),
      (n) => n === 1,
    );
    await machine.waitForAcks([sale.eventId]);
    const batch = [saleMessage(), saleMessage()];
    await machine.publishSales(batch);
    await machine.waitForAcks(batch.map((s) => s.eventId));
    expect(await count(`SELECT count(*) AS n FROM sales WHERE esp_id = $1`, [device.espId])).toBe(3);
    const health = await t.http.get<{ mqtt: string }>('/health');
    expect(health.body.mqtt).toBe('up');
  });

  it('the broker refuses a wrong key, another machine’s topics and wildcards', async () => {
    const [mine, other] = [await provisionDevice(t.http, admin), await provisionDevice(t.http, admin)];
    const machine = await connect(mine.espId, mine.deviceKey);
    // Known to the broker now (it connected), so a refusal below is about the key, not a late identity.
    await connect(other.espId, other.deviceKey);
    expect(await refusal(broker.port, mine.espId, 'a-wrong-key-of-the-right-length-000000000000')).toMatch(
      /Not authorized/,
    );
    expect(await refusal(broker.port, mine.espId, other.deviceKey)).toMatch(/Not authorized/);

    const subscribed = await machine.client
      .subscribeAsync([buildConfigTopic(other.espId), 'wv/v1/machines/+/config', '#'], { qos: 1 })
      .then(
        () => [] as number[],
        (error: { packet?: { granted?: number[] } }) => error.packet?.granted ?? [],
      );
    expect(subscribed).toEqual([0x80, 0x80, 0x80]);

    // MQTT 3.1.1 has no way to refuse a publish. Mosquitto 2.0 drops it and answers with a PUBACK that carries MQTT
    // 5's reason code 135, which a 3.1.1 client may take for a protocol error and close: either way nothing arrives.
    const forged = saleMessage();
    const closed = new Promise<void>((resolve) => machine.client.once('close', () => resolve()));
    await Promise.race([machine.publishSales(forged, buildSalesTopic(other.espId)).catch(() => undefined), closed]);
    await Promise.race([closed, new Promise((r) => setTimeout(r, 1000))]);
    const again = machine.client.connected ? machine : await connect(mine.espId, mine.deviceKey);
    const own = saleMessage();
    await again.publishSales(own);
    await again.waitForAcks([own.eventId]);
    await new Promise((r) => setTimeout(r, 500));
    expect(await count(`SELECT count(*) AS n FROM sales WHERE event_id = $1`, [forged.eventId])).toBe(0);
    expect(await count(`SELECT count(*) AS n FROM sales WHERE esp_id = $1`, [other.espId])).toBe(0);
  });

  it('a key rotation ends the live session of the old key; the new key works', async () => {
    const device = await provisionDevice(t.http, admin);
    const machine = await connect(device.espId, device.deviceKey);
    const closed = new Promise<void>((resolve) => machine.client.once('close', () => resolve()));
    const rotated = await t.http.post<{ deviceKey: string }>(
      `/admin/devices/${device.espId}/rotate-key`,
      {},
      { token: admin },
    );
    expect(rotated.status).toBe(201);
    await closed;
    expect(await refusal(broker.port, device.espId, device.deviceKey)).toMatch(/Not authorized/);
    const renewed = await connect(device.espId, rotated.body.deviceKey);
    const sale = saleMessage();
    await renewed.publishSales(sale);
    await renewed.waitForAcks([sale.eventId]);
  });

  it('reconnects with backoff when the broker goes away and comes back, and takes sales again', async () => {
    const device = await provisionDevice(t.http, admin);
    await connect(device.espId, device.deviceKey);
    const mqttHealth = () => t.http.get<{ mqtt: string }>('/health').then((r) => r.body.mqtt);
    await broker.stop('SIGTERM');
    await waitFor(mqttHealth, (mqtt) => mqtt === 'down');
    await broker.start();
    // Back within its backoff (1 s, then about 2 s …), subscribed again. Until then Mosquitto 2.0 drops what machines
    // publish, because it does not restore shared subscriptions from its persistence file (docs/external-mqtt.md,
    // "Mosquitto"); the machines keep those sales in flash until their sales/ack.
    await waitFor(mqttHealth, (mqtt) => mqtt === 'up', 30_000);
    const machine = await connect(device.espId, device.deviceKey);
    const sale = saleMessage();
    await machine.publishSales(sale);
    await machine.waitForAcks([sale.eventId]);
    expect(await count(`SELECT count(*) AS n FROM sales WHERE event_id = $1`, [sale.eventId])).toBe(1);
  }, 60_000);
});

describeWithMosquitto('external MQTT mode: the program as a process', () => {
  let broker: MosquittoInstance;
  let deployment: Deployment;
  let db: pg.Client;
  const processes: ServerProcess[] = [];
  const machines: TestMachine[] = [];

  beforeAll(async () => {
    broker = await MosquittoInstance.create();
    deployment = await createDeployment({ ...broker.env, LOG_LEVEL: 'warn' });
    db = new pg.Client({ connectionString: deployment.databaseUrl });
    await db.connect();
  }, 60_000);
  afterAll(async () => {
    await Promise.all(machines.map((m) => m.end().catch(() => undefined)));
    await Promise.all(processes.map((p) => p.kill()));
    await db?.end();
    await deployment?.cleanup();
    await broker?.destroy();
  });

  it('says in one line that the broker cannot be reached at start', async () => {
    const closed = await MosquittoInstance.create();
    await closed.destroy();
    const failed = await spawnServer(deployment, { MQTT_BROKER_URL: closed.url }).then(
      (p) => {
        processes.push(p);
        return '';
      },
      (error: Error) => error.message,
    );
    const lines = failed.split('\n').filter((line) => line.includes('MQTT broker'));
    expect(lines).toHaveLength(1);
    expect(lines[0]).toContain(`Cannot use the MQTT broker at ${closed.url}`);
    expect(failed).not.toMatch(/\n\s+at /);
  });

  it('a consumer killed by SIGKILL mid-stream loses and doubles nothing', async () => {
    const env = { MQTT_CLIENT_ID: `wvk-${randomBytes(4).toString('hex')}` };
    const first = await spawnServer(deployment, env);
    processes.push(first);
    const http = new HttpClient(first.baseUrl);
    const device = await provisionDevice(http, await http.login(TEST_ADMIN.email, TEST_ADMIN.password));
    const machine = await connectWhenKnown(broker.port, device.espId, device.deviceKey);
    machines.push(machine);

    const total = 600;
    const sent: string[] = [];
    let killed = false;
    // Every publish below is acknowledged by Mosquitto: from then on the sale must reach PostgreSQL once.
    for (let i = 0; i < total; i++) {
      const sale = saleMessage();
      await machine.publishSales(sale);
      sent.push(sale.eventId);
      if (i === 200) {
        await first.kill();
        killed = true;
      }
    }
    expect(killed).toBe(true);
    const second = await spawnServer(deployment, env);
    processes.push(second);
    const stored = async () =>
      (
        await db.query<{ n: number; distinct: number }>(
          `SELECT count(*)::int AS n, count(DISTINCT event_id)::int AS distinct FROM sales WHERE esp_id = $1`,
          [device.espId],
        )
      ).rows[0]!;
    await waitFor(stored, (s) => s.n >= total, 60_000);
    await new Promise((r) => setTimeout(r, 1000));
    expect(await stored()).toEqual({ n: total, distinct: total });
    const ids = await db.query<{ event_id: string }>(`SELECT event_id FROM sales WHERE esp_id = $1`, [device.espId]);
    expect(new Set(ids.rows.map((r) => r.event_id))).toEqual(new Set(sent));
  }, 120_000);
});
