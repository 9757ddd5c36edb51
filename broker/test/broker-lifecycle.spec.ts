import { afterEach, describe, expect, it } from '@jest/globals';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { Duplex } from 'node:stream';
import type { AddressInfo } from 'node:net';
import { buildConfigTopic, buildSalesTopic } from '@wv/contracts';
import {
  BrokerHarness,
  closed,
  createFakeHooks,
  MACHINE_KEYS,
  publishOutcome,
  sale,
  sleep,
  subscribeGranted,
  waitFor,
} from './support/broker-harness.js';

const harness = new BrokerHarness();
let httpServer: Server | null = null;
afterEach(async () => {
  await harness.cleanup();
  if (httpServer) {
    httpServer.closeAllConnections();
    await new Promise((resolve) => httpServer!.close(resolve));
  }
  httpServer = null;
});

describe('server-side publishes', () => {
  it('delivers a retained config published before the machine subscribed', async () => {
    const { hooks } = createFakeHooks();
    const broker = await harness.start({}, hooks);
    const config = JSON.stringify({ version: 2 });
    await broker.publish(buildConfigTopic('ESP001'), config, { qos: 1, retain: true });
    const device = await harness.machine('ESP001');
    const message = new Promise<string>((resolve) =>
      device.once('message', (_t, payload) => resolve(payload.toString())),
    );
    expect(await subscribeGranted(device, buildConfigTopic('ESP001'))).toBe(1);
    expect(await message).toBe(config);
  });
});

describe('close()', () => {
  it('finishes within the drain timeout with clients connected and a persistSales that never answers', async () => {
    const { hooks } = createFakeHooks({ persistSales: () => new Promise<void>(() => {}) });
    const broker = await harness.start({ drainTimeout: 300 }, hooks);
    const devices = await Promise.all(['ESP001', 'ESP002'].map((id) => harness.machine(id)));
    const unacked = publishOutcome(devices[0]!, buildSalesTopic('ESP001'), sale('e1'));
    await waitFor(() => broker.stats().sales.inFlight === 1);

    const started = Date.now();
    await broker.close();
    expect(Date.now() - started).toBeLessThan(1000);
    expect(await unacked).toBe('closed');
    await Promise.all(devices.map(closed));
    expect(broker.connectedClients()).toEqual([]);
    await waitFor(() => hooks.onClientDisconnected.mock.calls.length === 2);
  });

  it('lets sales already taken finish before the clients are closed', async () => {
    let release!: () => void;
    const { hooks } = createFakeHooks({ persistSales: () => new Promise<void>((resolve) => (release = resolve)) });
    const broker = await harness.start({ drainTimeout: 2000 }, hooks);
    const device = await harness.machine('ESP001');
    const outcome = publishOutcome(device, buildSalesTopic('ESP001'), sale('e1'));
    await waitFor(() => broker.stats().sales.inFlight === 1);
    const closing = broker.close();
    setTimeout(() => release(), 50);
    await closing;
    expect(await outcome).toBe('acked');
  });

  it('stops accepting connections once closing', async () => {
    const { hooks } = createFakeHooks();
    const broker = await harness.start({}, hooks);
    await broker.close();
    await expect(harness.machine('ESP001')).rejects.toThrow();
    await expect(broker.publish('wv/v1/machines/ESP001/config', '{}')).rejects.toThrow('closed');
  });
});

describe('listen()', () => {
  it('says which port is taken', async () => {
    const { hooks } = createFakeHooks();
    const broker = await harness.start({}, hooks);
    const port = Number(new URL(harness.url).port);
    await expect(broker.listen(port, '127.0.0.1')).rejects.toThrow(`MQTT port 127.0.0.1:${port} is already in use`);
  });
});

describe('MQTT over WebSocket', () => {
  it('serves devices on the WebSocket path of an HTTP server and leaves other upgrades alone', async () => {
    const { hooks, batches } = createFakeHooks();
    const broker = await harness.start({}, hooks);
    const server = createServer();
    httpServer = server;
    await broker.attachWebSocket(server, '/mqtt');
    // Stands in for Socket.IO, which owns the other upgrade paths of the same server.
    const otherUpgrades: string[] = [];
    server.on('upgrade', (request: IncomingMessage, socket: Duplex) => {
      if (request.url === '/mqtt') return;
      otherUpgrades.push(request.url ?? '');
      socket.destroy();
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as AddressInfo;

    const device = await harness.connect(
      { clientId: 'ESP001', username: 'ESP001', password: MACHINE_KEYS.ESP001 },
      `ws://127.0.0.1:${port}/mqtt`,
    );
    expect(await publishOutcome(device, buildSalesTopic('ESP001'), sale('ws1'))).toBe('acked');
    expect(batches.flat().map((s) => s.espId)).toEqual(['ESP001']);

    const elsewhere = { clientId: 'ESP002', username: 'ESP002', password: MACHINE_KEYS.ESP002 };
    await expect(harness.connect(elsewhere, `ws://127.0.0.1:${port}/other`)).rejects.toThrow();
    expect(otherUpgrades).toEqual(['/other']);

    await broker.close();
    await closed(device);
  });
});

describe('a backlog of messages inside the broker', () => {
  it('delivers thousands of messages queued behind slow deliveries without overflowing the stack', async () => {
    const { hooks } = createFakeHooks();
    const broker = await harness.start({}, hooks);
    // Deliveries held open, as to clients whose sockets are slow: more of them than Aedes lets run at once.
    const held: Array<() => void> = [];
    await new Promise<void>((resolve) =>
      broker.aedes.subscribe(
        'slow/+',
        (_packet, done) => held.push(done),
        () => resolve(),
      ),
    );
    const published = (topic: string) =>
      new Promise<void>((resolve, reject) =>
        broker.aedes.publish(
          { cmd: 'publish', topic, payload: Buffer.from('x'), qos: 0, retain: false, dup: false },
          (error) => (error ? reject(error) : resolve()),
        ),
      );
    const slow = Array.from({ length: 150 }, (_, i) => published(`slow/${i}`));
    await waitFor(() => held.length >= 100, 30_000);
    // Messages nobody subscribed to, which complete at once when their turn comes.
    const quick = Array.from({ length: 20_000 }, (_, i) => published(`nobody/${i}`));
    const all = Promise.all([...slow, ...quick]);
    let settled = false;
    void all.then(() => (settled = true));
    while (!settled) {
      for (const done of held.splice(0)) done();
      await sleep(5);
    }
    await all;
    expect(quick).toHaveLength(20_000);
  });
});
