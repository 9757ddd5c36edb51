import { afterAll, afterEach, beforeAll, describe, expect, it } from '@jest/globals';
import { JwtService } from '@nestjs/jwt';
import { buildConfigAckTopic } from '@wv/contracts';
import { randomUUID } from 'node:crypto';
import { io as connect, type Socket } from 'socket.io-client';
import { Redis } from 'ioredis';
import { DomainEvents } from '../../src/events/domain-events.js';
import { LiveWatchService } from '../../src/live/live-watch.service.js';
import { channelName } from '../../src/redis/redis-connection.js';
import { createAttendant, createManager } from '../factories/fleet.factory.js';
import { TestMachine, waitFor } from '../support/mqtt-machine.js';
import { createTestApp, TEST_ADMIN, type TestApp } from '../support/test-app.js';
import { saleMessage } from '../factories/sales.factory.js';

interface Received {
  event: string;
  payload: any;
  at: number;
}

/** A Socket.IO client that records every event it receives. */
async function openSocket(baseUrl: string, token: unknown): Promise<{ socket: Socket; events: Received[] }> {
  const socket = connect(baseUrl, {
    path: '/socket.io',
    auth: { token },
    transports: ['websocket'],
    reconnection: false,
    forceNew: true,
  });
  const events: Received[] = [];
  socket.onAny((event: string, payload: unknown) => events.push({ event, payload, at: Date.now() }));
  await new Promise<void>((resolve, reject) => {
    socket.once('connect', () => resolve());
    socket.once('connect_error', (error) => {
      socket.close();
      reject(error);
    });
  });
  return { socket, events };
}

const sale = saleMessage;
const today = () => new Intl.DateTimeFormat('en-CA', { timeZone: 'Africa/Dar_es_Salaam' }).format(new Date());
const pause = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Live events over Socket.IO (docs/live-events.md): authentication, rooms by scope, coalesced summaries. */
describe('live events', () => {
  let t: TestApp;
  let admin: string;
  let managerA: Awaited<ReturnType<typeof createManager>>;
  let managerB: Awaited<ReturnType<typeof createManager>>;
  let attendant: Awaited<ReturnType<typeof createAttendant>>;
  const sockets: Socket[] = [];
  const machines: TestMachine[] = [];
  const open = async (token: unknown) => {
    const s = await openSocket(t.baseUrl, token);
    sockets.push(s.socket);
    return s;
  };
  const machine = async (device: { espId: string; deviceKey: string }) => {
    const m = await TestMachine.connect(t.mqttPort, device.espId, device.deviceKey);
    machines.push(m);
    return m;
  };

  beforeAll(async () => {
    t = await createTestApp();
    admin = await t.http.login(TEST_ADMIN.email, TEST_ADMIN.password);
    managerA = await createManager(t.http, admin, 2);
    managerB = await createManager(t.http, admin, 1);
    attendant = await createAttendant(t.http, managerA.token, managerA.devices[1]!.espId);
  });
  afterEach(async () => {
    sockets.splice(0).forEach((s) => s.close());
    await Promise.all(machines.splice(0).map((m) => m.end()));
  });
  afterAll(() => t.close());

  it('sends a manager the sale and a summary of their machine after an MQTT publish, and nothing of another tenant', async () => {
    const [a, b] = [managerA.devices[0]!, managerB.devices[0]!];
    const asA = await open(managerA.token);
    const asB = await open(managerB.token);
    const asAdmin = await open(admin);
    const [ma, mb] = [await machine(a), await machine(b)];
    const s = sale({ price: 750.5, volume: 15.25, waterType: 'cold' });
    await ma.publishSales(s);
    await ma.waitForAcks([s.eventId]);
    const saleEvent = await waitFor(
      async () => asA.events.find((e) => e.event === 'sale'),
      (e) => e !== undefined,
    );
    expect(saleEvent!.payload).toEqual({
      id: expect.any(String),
      machineId: a.espId,
      kind: 'coin',
      price: 750.5,
      volume: 15.25,
      waterType: 'cold',
      time: s.time,
    });
    const summary = await waitFor(
      async () => asA.events.find((e) => e.event === 'summary'),
      (e) => e !== undefined,
    );
    expect(summary!.payload).toEqual({
      machineId: a.espId,
      date: today(),
      coinBased: { dailyPriceCollected: 750.5, volumeSold: 15.25 },
      cardBased: { dailyPriceCollected: 0, volumeSold: 0 },
    });
    const other = sale({ kind: 'card', cardId: 'CARD-B' });
    await mb.publishSales(other);
    await mb.waitForAcks([other.eventId]);
    await waitFor(
      async () => asAdmin.events.filter((e) => e.event === 'sale').map((e) => e.payload.machineId),
      (ids) => ids.includes(a.espId) && ids.includes(b.espId),
    );
    await waitFor(
      async () => asB.events.filter((e) => e.event === 'summary').length,
      (n) => n === 1,
    );
    await pause(500);
    expect(JSON.stringify(asA.events)).not.toContain(b.espId);
    expect(JSON.stringify(asB.events)).not.toContain(a.espId);
    expect(asB.events.find((e) => e.event === 'sale')!.payload).toMatchObject({ kind: 'card', cardId: 'CARD-B' });
  });

  it('coalesces summaries: a burst of sales gives a few summary events, the last equal to the rollup', async () => {
    const device = managerA.devices[0]!;
    const m = await machine(device);
    const asA = await open(managerA.token);
    const started = Date.now();
    const burst = Array.from({ length: 40 }, () => sale({ price: 100, volume: 2 }));
    for (let i = 0; i < burst.length; i += 2) {
      await m.publishSales(burst.slice(i, i + 2));
      await pause(25);
    }
    await m.waitForAcks(burst.map((x) => x.eventId));
    const [expected] = await t.dataSource.query(
      `SELECT price_total::float8 AS price, volume_total::float8 AS volume FROM sales_daily
       WHERE esp_id = $1 AND day = $2 AND kind = 'coin'`,
      [device.espId, today()],
    );
    const summaries = () => asA.events.filter((e) => e.event === 'summary' && e.payload.machineId === device.espId);
    await waitFor(
      async () => summaries().at(-1)?.payload.coinBased.dailyPriceCollected,
      (v) => v === expected.price,
    );
    await pause(700);
    const elapsed = Date.now() - started;
    expect(asA.events.filter((e) => e.event === 'sale')).toHaveLength(burst.length);
    // One summary per flush (300 ms) at most, whatever the number of sales.
    expect(summaries().length).toBeLessThanOrEqual(Math.ceil(elapsed / 300) + 1);
    expect(summaries().length).toBeLessThan(burst.length / 2);
    expect(summaries().at(-1)!.payload.coinBased).toEqual({
      dailyPriceCollected: expected.price,
      volumeSold: expected.volume,
    });
  });

  it('sends machine status and config applied to the machine’s rooms', async () => {
    const device = managerA.devices[1]!;
    const asA = await open(managerA.token);
    const asB = await open(managerB.token);
    const m = await machine(device);
    const status = await waitFor(
      async () => asA.events.find((e) => e.event === 'machine.status' && e.payload.machineId === device.espId),
      (e) => e !== undefined,
    );
    expect(status!.payload).toEqual({ machineId: device.espId, online: true, lastSeen: expect.any(String) });
    const put = await t.http.put(
      '/update_wifi_credentials',
      { espId: device.espId, ssid: 'Kiosk', password: 'secret-123' },
      { token: managerA.token },
    );
    expect(put.status).toBe(200);
    const { version } = await waitFor(
      async () => (await t.http.get(`/user/machines/overview`, { token: managerA.token })).body.machines,
      (list: any[]) => list.find((x) => x.machineId === device.espId).config.version > 0,
    ).then((list: any[]) => list.find((x) => x.machineId === device.espId).config);
    await m.client.publishAsync(buildConfigAckTopic(device.espId), JSON.stringify({ version }), { qos: 1 });
    const applied = await waitFor(
      async () => asA.events.find((e) => e.event === 'config.applied'),
      (e) => e !== undefined,
    );
    expect(applied!.payload).toEqual({ machineId: device.espId, version });
    expect(JSON.stringify(asB.events)).not.toContain(device.espId);
  });

  it('sends each status of a batch that holds two tenants’ machines only to its own tenant and admins', async () => {
    const a = managerA.devices[0]!.espId;
    const b = managerB.devices[0]!.espId;
    const asA = await open(managerA.token);
    const asB = await open(managerB.token);
    const asAdmin = await open(admin);
    const lastSeen = new Date().toISOString();
    // Emitted in one turn, as MachineStatusService does for one written batch: they travel as one Redis message.
    const events = t.running.app.get(DomainEvents);
    events.emit('machine.status', { espId: a, online: false, lastSeen });
    events.emit('machine.status', { espId: b, online: false, lastSeen });
    const statusOf = (r: { events: Received[] }, espId: string) =>
      r.events.find((e) => e.event === 'machine.status' && e.payload.machineId === espId);
    await waitFor(
      async () => [statusOf(asAdmin, a), statusOf(asAdmin, b), statusOf(asA, a), statusOf(asB, b)],
      (found) => found.every((e) => e !== undefined),
    );
    expect(statusOf(asA, a)!.payload).toEqual({ machineId: a, online: false, lastSeen });
    expect(statusOf(asB, b)!.payload).toEqual({ machineId: b, online: false, lastSeen });
    expect(JSON.stringify(asA.events)).not.toContain(b);
    expect(JSON.stringify(asB.events)).not.toContain(a);
  });

  it('sends float events to the people concerned only', async () => {
    const asManager = await open(managerA.token);
    const asAttendant = await open(attendant.token);
    const asOther = await open(managerB.token);
    const events = t.running.app.get(DomainEvents);
    const requested = {
      requestId: randomUUID(),
      attendantId: attendant.userId,
      attendantName: 'attendant-first attendant-last',
      requestedAmount: 5000,
      requestedAt: new Date().toISOString(),
    };
    events.emit('float.requested', { managerId: managerA.userId, event: requested });
    const updated = {
      requestId: requested.requestId,
      status: 'approved' as const,
      approvedAmount: 5000,
      approvedAt: new Date().toISOString(),
    };
    events.emit('float.updated', { attendantId: attendant.userId, managerId: managerA.userId, event: updated });
    await waitFor(
      async () => asManager.events.map((e) => e.event),
      (names) => names.includes('float.requested') && names.includes('float.updated'),
    );
    expect(asManager.events.find((e) => e.event === 'float.requested')!.payload).toEqual(requested);
    await waitFor(
      async () => asAttendant.events.find((e) => e.event === 'float.updated')?.payload,
      (p) => JSON.stringify(p) === JSON.stringify(updated),
    );
    await pause(300);
    const floats = (received: Received[]) => received.filter((e) => e.event.startsWith('float.')).map((e) => e.event);
    expect(floats(asAttendant.events)).toEqual(['float.updated']);
    expect(floats(asOther.events)).toEqual([]);
  });

  it('refuses a missing, forged or expired token, and ends the sockets of a removed user', async () => {
    await expect(open(undefined)).rejects.toThrow(/Sign in/);
    await expect(open('not-a-token')).rejects.toThrow(/Sign in/);
    const jwt = new JwtService({ secret: t.config.jwt.secret });
    const now = Math.floor(Date.now() / 1000);
    const expired = jwt.sign({ sub: managerA.userId, role: 'manager', iat: now - 2000, exp: now - 800 });
    await expect(open(expired)).rejects.toThrow(/expired/);
    const forged = new JwtService({ secret: 'another-secret-0123456789' }).sign({
      sub: managerA.userId,
      role: 'admin',
    });
    await expect(open(forged)).rejects.toThrow(/Sign in/);

    const leaving = await createAttendant(t.http, managerA.token, managerA.devices[0]!.espId);
    const { socket } = await open(leaving.token);
    const closed = new Promise((resolve) => socket.once('disconnect', resolve));
    expect((await t.http.delete(`/manager/attendants/${leaving.userId}`, { token: managerA.token })).status).toBe(200);
    await closed;
    await expect(open(leaving.token)).rejects.toThrow(/Sign in/);
  });

  it('broadcasts no events of machines nobody watches, and those of a machine as soon as a dashboard watches it', async () => {
    const watch = t.running.app.get(LiveWatchService);
    const a = managerA.devices[0]!;
    const b = managerB.devices[0]!;
    // Every socket of the earlier tests has left: once the registry is trusted, nobody watches a or b.
    await waitFor(
      async () => watch.watchesMachine(a.espId) || watch.watchesMachine(b.espId),
      (watched) => !watched,
    );
    // What the worker broadcasts to the api processes (docs/live-events.md, "Across processes").
    const broadcast: { event: string; payload: any }[] = [];
    const sub = new Redis(t.config.redisUrl);
    const channel = channelName(t.config, 'live-batch');
    sub.on('message', (_channel: string, raw: string) =>
      broadcast.push(...(JSON.parse(raw.slice(raw.indexOf('\n') + 1)) as { event: string; payload: any }[])),
    );
    await sub.subscribe(channel);
    // Whatever else reaches the watch channel is ignored, and the process goes on.
    const pub = new Redis(t.config.redisUrl);
    for (const junk of ['not json', 'null', '{"node":"x","op":"add","rooms":[1,null,{}]}', '{"node":"x","op":"put"}'])
      await pub.publish(channelName(t.config, 'live-watch'), junk);
    await pub.quit();
    const committed = (eventIds: string[]) =>
      waitFor(
        async () =>
          (await t.dataSource.query(`SELECT count(*)::int AS n FROM sales WHERE event_id = ANY($1)`, [eventIds]))[0].n,
        (n) => n === eventIds.length,
      );
    const salesBroadcast = () => broadcast.filter((e) => e.event === 'sale').map((e) => e.payload.price);
    try {
      const [ma, mb] = [await machine(a), await machine(b)];
      const unwatched = [sale({ price: 11 }), sale({ price: 12 })];
      await ma.publishSales(unwatched[0]);
      await mb.publishSales(unwatched[1]);
      await committed(unwatched.map((x) => x.eventId));

      // A handshake that is refused (no token, a forged admin token) announces nothing: no machine becomes watched.
      await expect(open(undefined)).rejects.toThrow(/Sign in/);
      const forged = new JwtService({ secret: 'another-secret-0123456789' }).sign({ sub: 'x', role: 'admin' });
      await expect(open(forged)).rejects.toThrow(/Sign in/);
      expect(watch.watchesMachine(a.espId) || watch.watchesMachine(b.espId)).toBe(false);

      // A manager's dashboard opens and a sale follows at once: it is sent, to the manager's machine only.
      const asA = await open(managerA.token);
      const watched = sale({ price: 13 });
      await ma.publishSales(watched);
      const unwatchedB = sale({ price: 14 });
      await mb.publishSales(unwatchedB);
      await waitFor(
        async () => asA.events.filter((e) => e.event === 'sale').map((e) => e.payload.price),
        (prices) => prices.includes(13),
      );
      await committed([unwatchedB.eventId]);

      // An admin watches every machine.
      const asAdmin = await open(admin);
      const forAdmin = sale({ price: 15 });
      await mb.publishSales(forAdmin);
      await waitFor(
        async () => asAdmin.events.filter((e) => e.event === 'sale').map((e) => e.payload.price),
        (prices) => prices.includes(15),
      );

      // Everyone leaves: the machines' events stop again; a later dashboard gets the next sale.
      sockets.splice(0).forEach((s) => s.close());
      await waitFor(
        async () => watch.watchesMachine(a.espId) || watch.watchesMachine(b.espId),
        (still) => !still,
      );
      const afterLeaving = sale({ price: 16 });
      await ma.publishSales(afterLeaving);
      await committed([afterLeaving.eventId]);
      const again = await open(managerA.token);
      const last = sale({ price: 17 });
      await ma.publishSales(last);
      await waitFor(
        async () => again.events.filter((e) => e.event === 'sale').map((e) => e.payload.price),
        (prices) => prices.includes(17),
      );
      expect(salesBroadcast()).toEqual([13, 15, 17]);
      // No summary of a machine was broadcast while nobody watched it either.
      const summaries = broadcast.filter((e) => e.event === 'summary').map((e) => e.payload.machineId);
      expect(summaries.filter((id) => id === b.espId).length).toBeLessThanOrEqual(1);
      expect(JSON.stringify(asA.events)).not.toContain(b.espId);
    } finally {
      await sub.quit();
    }
  });
});
