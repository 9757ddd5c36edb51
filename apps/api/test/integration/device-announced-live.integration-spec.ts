import { afterAll, afterEach, beforeAll, describe, expect, it } from '@jest/globals';
import { io as connect, type Socket } from 'socket.io-client';
import { createAttendant, createManager, randomMac } from '../factories/fleet.factory.js';
import { waitFor } from '../support/mqtt-machine.js';
import { createTestApp, TEST_ADMIN, type TestApp } from '../support/test-app.js';

interface Received {
  event: string;
  payload: any;
}

/** A Socket.IO client that records every event it receives. */
async function openSocket(baseUrl: string, token: string): Promise<{ socket: Socket; events: Received[] }> {
  const socket = connect(baseUrl, {
    path: '/socket.io',
    auth: { token },
    transports: ['websocket'],
    reconnection: false,
    forceNew: true,
  });
  const events: Received[] = [];
  socket.onAny((event: string, payload: unknown) => events.push({ event, payload }));
  await new Promise<void>((resolve, reject) => {
    socket.once('connect', () => resolve());
    socket.once('connect_error', (error) => {
      socket.close();
      reject(error);
    });
  });
  return { socket, events };
}

const pause = (ms: number) => new Promise((r) => setTimeout(r, ms));
const announced = (events: Received[]) => events.filter((e) => e.event === 'device.announced');

/** `device.announced` (docs/live-events.md, "Events"): admins learn of a new MAC without reloading their list. */
describe('the device.announced live event', () => {
  let t: TestApp;
  let admin: string;
  let manager: Awaited<ReturnType<typeof createManager>>;
  let attendant: Awaited<ReturnType<typeof createAttendant>>;
  const sockets: Socket[] = [];
  const open = async (token: string) => {
    const s = await openSocket(t.baseUrl, token);
    sockets.push(s.socket);
    return s;
  };

  beforeAll(async () => {
    t = await createTestApp();
    admin = await t.http.login(TEST_ADMIN.email, TEST_ADMIN.password);
    manager = await createManager(t.http, admin, 1);
    attendant = await createAttendant(t.http, manager.token, manager.devices[0]!.espId);
  });
  afterEach(() => sockets.splice(0).forEach((s) => s.close()));
  afterAll(() => t.close());

  it('reaches admins when a new MAC announces, and never a manager or an attendant', async () => {
    const asAdmin = await open(admin);
    const asManager = await open(manager.token);
    const asAttendant = await open(attendant.token);
    const mac = randomMac();
    const before = Date.now();

    expect((await t.http.post('/devices/announce', { macAddress: mac.toLowerCase() })).status).toBe(202);

    const [event] = await waitFor(
      async () => announced(asAdmin.events),
      (list) => list.length === 1,
    );
    expect(event!.payload).toEqual({ macAddress: mac.toUpperCase(), at: expect.any(String) });
    expect(Date.parse(event!.payload.at)).toBeGreaterThanOrEqual(before - 1_000);
    const listed = await t.http.get<{ macAddress: string }[]>('/get_mac_addresses', { token: admin });
    expect(listed.body.map((row) => row.macAddress)).toContain(mac.toUpperCase());

    await pause(500);
    expect(announced(asManager.events)).toEqual([]);
    expect(announced(asAttendant.events)).toEqual([]);
  });

  it('sends one event per MAC however often an anonymous caller announces it', async () => {
    const asAdmin = await open(admin);
    const flooded = randomMac();
    const statuses = await Promise.all(
      Array.from({ length: 8 }, () => t.http.post('/devices/announce', { macAddress: flooded })),
    );
    expect(statuses.map((s) => s.status)).toEqual(Array(8).fill(202));
    for (let i = 0; i < 4; i++) {
      expect((await t.http.post('/devices/announce', { macAddress: flooded, firmware: `1.${i}` })).status).toBe(202);
    }
    const other = randomMac();
    expect((await t.http.post('/devices/announce', { macAddress: other })).status).toBe(202);

    await waitFor(
      async () => announced(asAdmin.events).map((e) => e.payload.macAddress),
      (macs) => macs.includes(other.toUpperCase()),
    );
    await pause(500);
    const macs = announced(asAdmin.events).map((e) => e.payload.macAddress);
    expect(macs.filter((m) => m === flooded.toUpperCase())).toHaveLength(1);
    expect(macs.filter((m) => m === other.toUpperCase())).toHaveLength(1);
  });

  it('sends nothing for a refused announce or a MAC that already has an ESP ID', async () => {
    const asAdmin = await open(admin);
    expect((await t.http.post('/devices/announce', { macAddress: 'not-a-mac' })).status).toBe(400);
    const mac = randomMac();
    expect((await t.http.post('/devices/announce', { macAddress: mac })).status).toBe(202);
    await waitFor(
      async () => announced(asAdmin.events).length,
      (n) => n === 1,
    );
    const espId = `ESP-ANN-${Date.now()}`;
    expect((await t.http.post('/assign_id', { macAddress: mac, espId }, { token: admin })).status).toBe(201);
    expect((await t.http.post('/devices/announce', { macAddress: mac })).status).toBe(202);
    await pause(500);
    expect(announced(asAdmin.events)).toHaveLength(1);
  });
});
