import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { randomUUID } from 'node:crypto';
import { io as connect, type Socket } from 'socket.io-client';
import { startApp, type RunningApp } from '../../src/bootstrap.js';
import { LiveWatchService } from '../../src/live/live-watch.service.js';
import { createManager } from '../factories/fleet.factory.js';
import { TestMachine, waitFor } from '../support/mqtt-machine.js';
import { createTestApp, TEST_ADMIN, type TestApp } from '../support/test-app.js';

/**
 * APP_ROLES apart (docs/operations.md, "Configuration"; docs/live-events.md, "Across processes"): the sale is committed
 * by a worker-only process, which serves no clients; its events reach the api process's Socket.IO clients through the
 * Redis adapter.
 */
describe('live events with the roles in separate processes', () => {
  let t: TestApp;
  let worker: RunningApp;
  let socket: Socket;

  beforeAll(async () => {
    t = await createTestApp({ APP_ROLES: 'api,broker' });
    // The same database and Redis prefix: one deployment, two programs.
    worker = await startApp({ ...t.config, port: 0, roles: new Set(['worker']) });
  });
  afterAll(async () => {
    socket?.close();
    await worker?.close();
    await t.close();
  });

  it('delivers the sale and its summary, committed in the worker, to a client of the api process', async () => {
    const admin = await t.http.login(TEST_ADMIN.email, TEST_ADMIN.password);
    const manager = await createManager(t.http, admin, 1);
    const device = manager.devices[0]!;
    // The worker builds a machine's events only for machines some api process watches: wait until it trusts what
    // it heard from the api process, so that the dashboard below is known to it through Redis alone.
    const watch = worker.app.get(LiveWatchService);
    await waitFor(
      async () => watch.watchesMachine(device.espId),
      (watched) => !watched,
    );
    socket = connect(t.baseUrl, { path: '/socket.io', auth: { token: manager.token }, transports: ['websocket'] });
    const events: { event: string; payload: any }[] = [];
    socket.onAny((event: string, payload: unknown) => events.push({ event, payload }));
    await new Promise<void>((resolve, reject) => socket.once('connect', () => resolve()).once('connect_error', reject));

    const machine = await TestMachine.connect(t.mqttPort, device.espId, device.deviceKey);
    const sale = { eventId: randomUUID(), kind: 'coin', price: 420, volume: 8.5, waterType: 'fresh' };
    await machine.publishSales(sale);
    await machine.waitForAcks([sale.eventId]);
    await machine.end();

    await waitFor(
      async () => events.map((e) => e.event),
      (names) => names.includes('sale') && names.includes('summary'),
    );
    expect(events.find((e) => e.event === 'sale')!.payload).toMatchObject({ machineId: device.espId, price: 420 });
    expect(events.find((e) => e.event === 'summary')!.payload).toMatchObject({
      machineId: device.espId,
      coinBased: { dailyPriceCollected: 420, volumeSold: 8.5 },
    });
  });
});
