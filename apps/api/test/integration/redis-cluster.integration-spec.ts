import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { Redis } from 'ioredis';
import { io as connect, type Socket } from 'socket.io-client';
import { ALARM_SWEEP_QUEUE } from '../../src/alarm/alarm-sweep.scheduler.js';
import { SALES_QUEUE } from '../../src/queue/queue-connection.js';
import { TELEMETRY_QUEUE } from '../../src/telemetry/telemetry.types.js';
import { provisionDevice } from '../factories/fleet.factory.js';
import { saleMessage } from '../factories/sales.factory.js';
import { TestMachine, waitFor } from '../support/mqtt-machine.js';
import { redisClusterAvailable, startRedisCluster, type RedisCluster } from '../support/redis-cluster.js';
import { createTestApp, TEST_ADMIN, type TestApp } from '../support/test-app.js';

/**
 * The program on a Redis Cluster (REDIS_CLUSTER_NODES, docs/redis-cluster.md): three real redis-server nodes in
 * cluster mode. Sales go through BullMQ and come back as sales/ack, live events reach a Socket.IO client through the
 * adapter and the sharded event batches, rate limits still count, and every key the program wrote carries its hash tag.
 */
(redisClusterAvailable() ? describe : describe.skip)('the program on a Redis Cluster', () => {
  let cluster: RedisCluster;
  let t: TestApp;
  let admin: string;
  const machines: TestMachine[] = [];
  const sockets: Socket[] = [];

  beforeAll(async () => {
    cluster = await startRedisCluster();
    t = await createTestApp({ REDIS_CLUSTER_NODES: cluster.nodes.join(','), HTTP_RATE_LIMIT: '40' });
    admin = await t.http.login(TEST_ADMIN.email, TEST_ADMIN.password);
  }, 120_000);
  afterAll(async () => {
    sockets.forEach((s) => s.close());
    await Promise.all(machines.map((m) => m.end()));
    // close() also deletes the test prefix on the machine's ordinary Redis: nothing there, a no-op.
    await t?.close();
    await cluster?.stop();
  });

  it('stores an MQTT sale exactly once, acknowledges it, and sends the live sale and summary events', async () => {
    const socket = connect(t.baseUrl, {
      path: '/socket.io',
      auth: { token: admin },
      transports: ['websocket'],
      reconnection: false,
      forceNew: true,
    });
    sockets.push(socket);
    const events: { event: string; payload: any }[] = [];
    socket.onAny((event: string, payload: unknown) => events.push({ event, payload }));
    await new Promise<void>((resolve, reject) => {
      socket.once('connect', () => resolve());
      socket.once('connect_error', reject);
    });

    const device = await provisionDevice(t.http, admin);
    const machine = await TestMachine.connect(t.mqttPort, device.espId, device.deviceKey);
    machines.push(machine);
    const sales = [saleMessage({ price: 500 }), saleMessage({ price: 250 })];
    await machine.publishSales(sales[0]);
    await machine.publishSales(sales[1]);
    // The same sale again, as a machine that missed its ack would: stored once.
    await machine.publishSales(sales[0]);
    await machine.waitForAcks(sales.map((s) => s.eventId));

    const rows = await t.dataSource.query<{ event_id: string }[]>(
      'SELECT event_id FROM sales WHERE esp_id = $1 ORDER BY event_id',
      [device.espId],
    );
    expect(rows.map((r) => r.event_id)).toEqual(sales.map((s) => s.eventId).sort());

    const seen = await waitFor(
      async () => events.filter((e) => e.event === 'sale' && e.payload.machineId === device.espId),
      (e) => e.length === 2,
    );
    expect(seen.map((e) => e.payload.price).sort()).toEqual([250, 500]);
    await waitFor(
      async () => events.find((e) => e.event === 'summary' && e.payload.machineId === device.espId),
      (e) => e !== undefined,
    );
  });

  it('keeps every key of the program under its hash tags', async () => {
    const prefix = t.config.redisPrefix;
    const tags = [
      `{${prefix}}:`,
      ...[SALES_QUEUE, TELEMETRY_QUEUE, ALARM_SWEEP_QUEUE].map((q) => `{${prefix}:bull:${q}}:`),
    ];
    const keys: string[] = [];
    for (const node of cluster.nodes) {
      const [host, port] = node.split(':');
      const redis = new Redis({ host, port: Number(port), lazyConnect: true, maxRetriesPerRequest: 1 });
      await redis.connect();
      let cursor = '0';
      do {
        const [next, found] = await redis.scan(cursor, 'COUNT', 1000);
        keys.push(...found);
        cursor = next;
      } while (cursor !== '0');
      redis.disconnect();
    }
    expect(keys.length).toBeGreaterThan(0);
    expect(keys.filter((k) => !tags.some((tag) => k.startsWith(tag)))).toEqual([]);
    // The sales queue has its own slot, apart from the program's other keys.
    expect(keys.some((k) => k.startsWith(`{${prefix}:bull:${SALES_QUEUE}}:${SALES_QUEUE}:`))).toBe(true);
    expect(keys.some((k) => k.startsWith(`{${prefix}}:`))).toBe(true);
  });

  it('still answers 429 past HTTP_RATE_LIMIT', async () => {
    const statuses: number[] = [];
    for (let i = 0; i < 60; i++) statuses.push((await fetch(`${t.baseUrl}/api/health/live`)).status);
    expect(statuses.filter((s) => s === 429).length).toBeGreaterThan(0);
    const limited = await fetch(`${t.baseUrl}/api/health/live`);
    expect(await limited.json()).toMatchObject({ statusCode: 429, code: 'RateLimited' });
  });
});
