/**
 * Operations under stress (docs/security.md): PostgreSQL goes away, or the sales backlog grows faster
 * than the workers store it. Machines whose keys the program verified before keep connecting and
 * selling (their sales wait durably in the queue); HTTP calls that need the database answer 503 with
 * Retry-After (RFC 9110, section 10.2.3) instead of 500; and once the backlog passes its bound, new
 * sales are refused with a stable reason (503 over REST, no PUBACK over MQTT) so machines keep them
 * in flash and send them again later, before Redis runs out of memory.
 */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { buildSalesTopic } from '@wv/contracts';
import mqtt from 'mqtt';
import { createConnection, createServer, type Server, type Socket } from 'node:net';
import { provisionDevice } from '../../factories/fleet.factory.js';
import { TestMachine, waitFor } from '../../support/mqtt-machine.js';
import { createTestApp, createTestDatabase, TEST_ADMIN, type TestApp } from '../../support/test-app.js';
import { databaseUrl, dropDatabase } from '../../support/test-databases.js';
import { saleMessage } from '../../factories/sales.factory.js';

const sale = () => saleMessage();

/**
 * A TCP proxy in front of the shared PostgreSQL that the test can take down (listener closed, every
 * connection cut: new connections are refused) and bring back on the same port.
 */
class OutageProxy {
  private server: Server;
  private readonly sockets = new Set<Socket>();
  port = 0;

  constructor(private readonly targetPort: number) {
    this.server = this.createServer();
  }

  private createServer(): Server {
    return createServer((client) => {
      const upstream = createConnection(this.targetPort, '127.0.0.1');
      for (const socket of [client, upstream]) {
        this.sockets.add(socket);
        socket.once('close', () => this.sockets.delete(socket));
        socket.on('error', () => undefined);
      }
      client.pipe(upstream).pipe(client);
      client.once('close', () => upstream.destroy());
      upstream.once('close', () => client.destroy());
    });
  }

  async up(): Promise<number> {
    await new Promise<void>((resolve) => this.server.listen(this.port, '127.0.0.1', () => resolve()));
    this.port = (this.server.address() as { port: number }).port;
    return this.port;
  }

  async down(): Promise<void> {
    const closed = new Promise<void>((resolve) => this.server.close(() => resolve()));
    for (const socket of this.sockets) socket.destroy();
    await closed;
    this.server = this.createServer();
  }
}

describe('while PostgreSQL is unreachable', () => {
  const proxy = new OutageProxy(Number(new URL(databaseUrl('x')).port || 5432));
  let database: { name: string };
  let t: TestApp;
  let adminToken: string;
  const machines: TestMachine[] = [];

  beforeAll(async () => {
    database = await createTestDatabase();
    const port = await proxy.up();
    const url = new URL(databaseUrl(database.name));
    url.hostname = '127.0.0.1';
    url.port = String(port);
    t = await createTestApp({ DATABASE_URL: url.toString() });
    adminToken = await t.http.login(TEST_ADMIN.email, TEST_ADMIN.password);
  });
  afterAll(async () => {
    await Promise.all(machines.map((m) => m.end().catch(() => undefined)));
    await proxy.up().catch(() => undefined);
    await t?.close();
    await proxy.down();
    if (database) await dropDatabase(database.name);
  });

  it('lets a machine whose key was verified before reconnect and sell, and its sale gets the PUBACK and is stored later', async () => {
    const device = await provisionDevice(t.http, adminToken);
    const before = await TestMachine.connect(t.mqttPort, device.espId, device.deviceKey);
    await before.end();

    await proxy.down();
    try {
      const during = await TestMachine.connect(t.mqttPort, device.espId, device.deviceKey);
      machines.push(during);
      const s = sale();
      await during.publishSales(s, buildSalesTopic(device.espId));
      await proxy.up();
      await during.waitForAcks([s.eventId], 60_000);
    } finally {
      await proxy.up().catch(() => undefined);
    }
  }, 120_000);

  it('answers 503 with Retry-After to calls that need the database, and keeps taking sales from known machines', async () => {
    const device = await provisionDevice(t.http, adminToken);
    const ingest = (key: string) =>
      t.http.post(`/machines/${device.espId}/sales`, sale(), { headers: { 'x-device-key': key } });
    expect((await ingest(device.deviceKey)).status).toBe(202);

    await proxy.down();
    try {
      const info = await t.http.get('/user/info', { token: adminToken });
      expect(info.status).toBe(503);
      expect(info.body.code).toBe('ServiceUnavailable');
      expect(Number(info.headers.get('retry-after'))).toBeGreaterThan(0);
      // REST ingest only needs the queue: a machine whose key was verified before keeps selling.
      expect((await ingest(device.deviceKey)).status).toBe(202);
      const unknownKey = await ingest('a-key-nobody-verified');
      expect(unknownKey.status).toBe(503);
      expect(Number(unknownKey.headers.get('retry-after'))).toBeGreaterThan(0);
    } finally {
      await proxy.up();
    }
    await waitFor(
      () => t.http.get('/user/info', { token: adminToken }).then((r) => r.status),
      (status) => status === 200,
      30_000,
    );
  }, 120_000);
});

describe('when the sales backlog passes INGEST_MAX_BACKLOG', () => {
  let t: TestApp;
  let adminToken: string;

  beforeAll(async () => {
    // No worker role: nothing drains the queue, so the backlog only grows.
    t = await createTestApp({ APP_ROLES: 'api,broker', INGEST_MAX_BACKLOG: '5' });
    adminToken = await t.http.login(TEST_ADMIN.email, TEST_ADMIN.password);
  });
  afterAll(() => t.close());

  it('refuses new sales with 503, a stable code and Retry-After over REST, and withholds the PUBACK over MQTT', async () => {
    const device = await provisionDevice(t.http, adminToken);
    const headers = { 'x-device-key': device.deviceKey };
    let refused: Awaited<ReturnType<typeof t.http.post>> | undefined;
    // The backlog is sampled about once a second: keep selling until the bound is noticed.
    for (const deadline = Date.now() + 30_000; !refused && Date.now() < deadline;) {
      const res = await t.http.post(`/machines/${device.espId}/sales`, sale(), { headers });
      if (res.status !== 202) refused = res;
      else await new Promise((r) => setTimeout(r, 50));
    }
    expect(refused?.status).toBe(503);
    expect((refused?.body as { code?: string } | undefined)?.code).toBe('IngestBacklogFull');
    expect(Number(refused?.headers.get('retry-after'))).toBeGreaterThan(0);

    const client = await mqtt.connectAsync(`mqtt://127.0.0.1:${t.mqttPort}`, {
      clientId: device.espId,
      username: device.espId,
      password: device.deviceKey,
      protocolVersion: 4,
      reconnectPeriod: 0,
    });
    let pubacked = false;
    const closed = new Promise<void>((resolve) => client.once('close', () => resolve()));
    client.publishAsync(buildSalesTopic(device.espId), JSON.stringify(sale()), { qos: 1 }).then(
      () => (pubacked = true),
      () => undefined,
    );
    // MQTT 3.1.1 has no negative PUBACK: the broker closes the connection, and the machine sends
    // the sale again on its next connection.
    await closed;
    expect(pubacked).toBe(false);
    await client.endAsync(true);
  }, 60_000);
});
