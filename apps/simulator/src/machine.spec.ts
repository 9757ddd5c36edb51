import {
  buildAssignmentTopic,
  buildConfigAckTopic,
  buildConfigTopic,
  buildHelloTopic,
  buildSalesAckTopic,
  buildSalesTopic,
  buildStatusTopic,
  PROVISION_USERNAME,
  type ConfigPayload,
  type Sale,
} from '@wv/contracts';
import { afterEach, beforeEach, describe, expect, it } from '@jest/globals';
import { connectAsync } from 'mqtt';
import { Machine } from './machine.js';
import type { MachineOptions } from './machine.types.js';
import { createRandom } from './prng.js';
import { TestServer } from './testing/test-server.js';

const ESP = 'ESP-TEST-1';
let server: TestServer;
let machines: Machine[];

function machine(options: Partial<MachineOptions> = {}): Machine {
  const m = new Machine({
    url: server.url,
    identity: { espId: ESP, deviceKey: 'key-1' },
    random: createRandom(11),
    reconnectDelayMs: 20,
    resendAfterMs: 0,
    ...options,
  });
  machines.push(m);
  return m;
}

/** volume × tariff rounded to the cent: at most half a cent away (toBeCloseTo is strict at exactly half). */
function expectPriced(sale: Sale, perLitre: Record<Sale['waterType'], number>): void {
  expect(Math.abs(sale.price - sale.volume * perLitre[sale.waterType])).toBeLessThanOrEqual(0.005 + 1e-9);
  expect(Math.round(sale.price * 100)).toBeCloseTo(sale.price * 100, 6);
}

const config = (version: number, cold: number, fresh: number): ConfigPayload => ({
  version,
  wifi: { ssid: 'kiosk', password: 'secret' },
  tariffs: { cold, fresh, coldCalb: 1.5, freshCalb: 1.2 },
});

beforeEach(async () => {
  server = await TestServer.start({ autoAck: false });
  machines = [];
});

afterEach(async () => {
  await Promise.all(machines.map((m) => m.stop()));
  await server.close();
});

describe('a machine and its sales', () => {
  it('keeps every sale until its sales/ack and republishes the unacknowledged after a reconnect', async () => {
    const m = machine();
    m.start();
    await m.waitOnline();
    const sold = [m.sell(), m.sell(), m.sell()];
    const topic = buildSalesTopic(ESP);
    await server.waitFor('3 sales', () => server.sales(topic).length === 3);
    await server.waitFor('3 PUBACKs', () => m.stats().pubacked === 3);
    // PUBACK is not enough: the machine keeps them until the server says they are committed.
    expect(m.outboxSize).toBe(3);

    await server.publish(buildSalesAckTopic(ESP), { eventIds: [sold[0]!.eventId] });
    await server.waitFor('the ack', () => m.outboxSize === 2);

    m.dropConnection();
    await server.waitFor('the replay', () => server.sales(topic).length === 5);
    const replayed = server.sales(topic).slice(3);
    expect(replayed.map((s) => s.eventId)).toEqual([sold[1]!.eventId, sold[2]!.eventId]);
    expect(replayed).toEqual([sold[1], sold[2]]);

    await server.publish(buildSalesAckTopic(ESP), { eventIds: [sold[1]!.eventId, sold[2]!.eventId] });
    await m.drain(2_000);
    expect(m.stats()).toMatchObject({ generated: 3, acked: 3, outbox: 0, republished: 2, reconnects: 1 });
  });

  it('sells into its outbox while offline and flushes the backlog in arrays when back', async () => {
    server.autoAck = true;
    const m = machine({ backlogBatchSize: 3 });
    m.start();
    await m.waitOnline();
    m.goOffline(300);
    expect(m.online).toBe(false);
    const sold = Array.from({ length: 7 }, () => m.sell());
    expect(m.outboxSize).toBe(7);

    await m.waitOnline(3_000);
    await m.drain(2_000);
    const batches = server.payloads<Sale | Sale[]>(buildSalesTopic(ESP));
    expect(batches.map((b) => (Array.isArray(b) ? b.length : 1))).toEqual([3, 3, 1]);
    expect(batches.flat().map((s) => s.eventId)).toEqual(sold.map((s) => s.eventId));
  });

  it('re-sends already sent sales with the same eventId when asked to duplicate', async () => {
    server.autoAck = true;
    const m = machine({ duplicateProbability: 1 });
    m.start();
    await m.waitOnline();
    for (let i = 0; i < 20; i++) m.sell();
    await m.drain(2_000);
    const received = server.sales(buildSalesTopic(ESP));
    const unique = new Set(received.map((s) => s.eventId));
    expect(unique.size).toBe(20);
    expect(m.stats().duplicatesSent).toBeGreaterThan(0);
    expect(received.length).toBe(20 + m.stats().duplicatesSent);
  });
});

describe('a machine and the day curve', () => {
  it('sells far more at 07:30 than at 02:30 local time at the same mean rate', async () => {
    const at = (espId: string, iso: string) =>
      machine({
        identity: { espId, deviceKey: 'k' },
        rate: 100,
        now: () => new Date(iso),
        timeZone: 'Africa/Dar_es_Salaam',
      });
    const morning = at('ESP-AM', '2024-05-01T04:30:00Z'); // 07:30 in Dar es Salaam
    const night = at('ESP-PM', '2024-05-01T23:30:00Z'); // 02:30
    morning.start();
    night.start();
    await new Promise((r) => setTimeout(r, 600));
    const [busy, quiet] = [morning.stats().generated, night.stats().generated];
    // Expected about 150 against 3 (factors 2.5 and 0.05 of the mean).
    expect(busy).toBeGreaterThan(60);
    expect(busy).toBeGreaterThan(10 * Math.max(1, quiet));
  });
});

describe('a machine and its config', () => {
  it('applies the retained config, acks its version, and prices sales with its tariffs', async () => {
    await server.publish(buildConfigTopic(ESP), config(2, 100, 60), true);
    const m = machine();
    m.start();
    await server.waitFor('config/ack 2', () => server.payloads(buildConfigAckTopic(ESP)).length === 1);
    expect(server.payloads(buildConfigAckTopic(ESP))).toEqual([{ version: 2 }]);
    expect(m.tariffs).toEqual({ cold: 100, fresh: 60, pure: 40 });
    expect(m.stats().configVersion).toBe(2);

    const perLitre = { cold: 100, fresh: 60, pure: 40 };
    for (let i = 0; i < 200; i++) {
      expectPriced(m.sell(), perLitre);
    }

    await server.publish(buildConfigTopic(ESP), config(3, 55.5, 25), true);
    await server.waitFor('config 3 applied', () => m.config?.version === 3);
    const newPerLitre = { cold: 55.5, fresh: 25, pure: 40 };
    for (let i = 0; i < 200; i++) {
      expectPriced(m.sell(), newPerLitre);
    }

    // A stale version is neither applied nor acknowledged: versions only grow.
    await server.publish(buildConfigTopic(ESP), config(1, 1, 1));
    await server.publish(buildConfigTopic(ESP), config(4, 55.5, 25));
    await server.waitFor('config/ack 4', () => server.payloads(buildConfigAckTopic(ESP)).length === 3);
    expect(server.payloads(buildConfigAckTopic(ESP))).toEqual([{ version: 2 }, { version: 3 }, { version: 4 }]);
    expect(m.tariffs).toEqual(newPerLitre);
  });
});

describe('a machine and its status', () => {
  it('publishes a retained online status, and the broker publishes its will when the socket dies', async () => {
    const m = machine({ firmware: 'fw-1.2.3' });
    m.start();
    await m.waitOnline();
    const status = buildStatusTopic(ESP);
    const online = server.messages.find((x) => x.topic === status)!;
    expect(online.retain).toBe(true);
    expect(JSON.parse(online.payload.toString())).toMatchObject({ online: true, firmware: 'fw-1.2.3' });
    expect(typeof JSON.parse(online.payload.toString()).rssi).toBe('number');

    m.goOffline(60_000);
    await server.waitFor('the will', () => server.payloads(status).length === 2);
    const will = server.messages.filter((x) => x.topic === status)[1]!;
    expect(JSON.parse(will.payload.toString())).toEqual({ online: false });
    expect(will.retain).toBe(true);

    // A newcomer (the server after a restart) reads the retained offline status.
    const observer = await connectAsync(server.url, { protocolVersion: 4, clientId: 'observer' });
    const retained = new Promise<string>((resolve) => observer.on('message', (_t, p) => resolve(p.toString())));
    await observer.subscribeAsync(status, { qos: 1 });
    expect(JSON.parse(await retained)).toEqual({ online: false });
    await observer.endAsync();
  });

  it('says offline itself on a clean stop, since a DISCONNECT fires no will', async () => {
    const m = machine();
    m.start();
    await m.waitOnline();
    await m.stop();
    await server.waitFor('offline status', () => server.payloads(buildStatusTopic(ESP)).length === 2);
    const last = server.messages.filter((x) => x.topic === buildStatusTopic(ESP))[1]!;
    expect(last.clientId).toBe(ESP);
    expect(JSON.parse(last.payload.toString())).toEqual({ online: false });
  });
});

describe('provisioning', () => {
  const MAC = 'a4-cf-12-00-00-01';
  const TOPIC_ID = 'A4CF12000001';

  it('says hello as provision, receives the retained assignment, and reconnects as the machine', async () => {
    const m = machine({ identity: { macAddress: MAC, provisionPassword: 'first-boot' } });
    const waiting = new Promise<string>((resolve) => m.once('waiting', resolve));
    m.start();
    expect(await waiting).toBe('A4:CF:12:00:00:01');
    expect(m.state).toBe('provisioning');
    expect(server.payloads(buildHelloTopic(TOPIC_ID))).toEqual([
      { macAddress: 'A4:CF:12:00:00:01', firmware: 'wv-sim/0.1.0' },
    ]);
    m.sell(); // A machine without an id still dispenses; the sale waits in flash.

    await server.publish(buildAssignmentTopic(TOPIC_ID), { espId: 'ESP-NEW', deviceKey: 'new-key' }, true);
    expect(await m.waitProvisioned()).toEqual({ espId: 'ESP-NEW', deviceKey: 'new-key' });
    await m.waitOnline();
    expect(server.connects).toEqual([
      { clientId: TOPIC_ID, username: PROVISION_USERNAME, password: 'first-boot' },
      { clientId: 'ESP-NEW', username: 'ESP-NEW', password: 'new-key' },
    ]);
    await server.waitFor('the early sale', () => server.sales(buildSalesTopic('ESP-NEW')).length === 1);
  });

  it('picks up an assignment made while it was away from the retained message', async () => {
    await server.publish(buildAssignmentTopic(TOPIC_ID), { espId: 'ESP-OLD', deviceKey: 'k' }, true);
    const m = machine({ identity: { macAddress: MAC } });
    m.start();
    await m.waitOnline();
    expect(m.espId).toBe('ESP-OLD');
    // The first-boot password is the same across reconnects: the broker pins it.
    expect(server.connects[0]!.password).toMatch(/^[0-9A-F]{16}$/);
  });
});
