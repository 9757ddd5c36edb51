import { afterEach, describe, expect, it } from '@jest/globals';
import { buildSalesTopic, buildStatusTopic } from '@wv/contracts';
import type { SaleEnvelope } from '../src/index.js';
import {
  BrokerHarness,
  closed,
  createFakeHooks,
  deferred,
  publishOutcome,
  sale,
  sleep,
  waitFor,
  type Deferred,
} from './support/broker-harness.js';

const harness = new BrokerHarness();
afterEach(() => harness.cleanup());

/** persistSales calls that stay open until the test settles them. */
function heldPersistSales() {
  const calls: Array<{ batch: SaleEnvelope[]; done: Deferred }> = [];
  const persistSales = async (batch: SaleEnvelope[]) => {
    const done = deferred();
    calls.push({ batch, done });
    return done.promise;
  };
  return { calls, persistSales };
}

describe('sales over MQTT', () => {
  it('hands the raw sale payload to persistSales with the machine and receive time', async () => {
    const { hooks, batches } = createFakeHooks();
    await harness.start({}, hooks);
    const device = await harness.machine('ESP001');
    const before = Date.now();
    expect(await publishOutcome(device, buildSalesTopic('ESP001'), sale('e1'))).toBe('acked');
    expect(batches).toHaveLength(1);
    const [item] = batches[0]!;
    expect(item).toMatchObject({ espId: 'ESP001', topic: buildSalesTopic('ESP001') });
    expect(item!.payload.toString()).toBe(sale('e1'));
    expect(item!.receivedAt.getTime()).toBeGreaterThanOrEqual(before);
    expect(hooks.onDeviceMessage).not.toHaveBeenCalled();
  });

  it('does not route a durable sale after its PUBACK, and routes every other device message as before', async () => {
    const { hooks, batches } = createFakeHooks();
    const broker = await harness.start({}, hooks);
    const routed: string[] = [];
    broker.aedes.on('publish', (packet, client) => {
      if (client) routed.push(packet.topic);
    });
    const device = await harness.machine('ESP001');
    const status = JSON.stringify({ online: true });
    expect(await publishOutcome(device, buildSalesTopic('ESP001'), sale('e1'))).toBe('acked');
    expect(await publishOutcome(device, buildSalesTopic('ESP001'), sale('e2'))).toBe('acked');
    expect(await publishOutcome(device, buildStatusTopic('ESP001'), status)).toBe('acked');
    await waitFor(() => hooks.onDeviceMessage.mock.calls.length === 1);
    expect(routed).toEqual([buildStatusTopic('ESP001')]);
    expect(batches.flat().map((s) => s.payload.toString())).toEqual([sale('e1'), sale('e2')]);
    expect(hooks.onDeviceMessage.mock.calls[0]![0]).toMatchObject({ kind: 'status', espId: 'ESP001' });
  });

  it('passes invalid sale JSON through untouched so that the API can dead-letter it', async () => {
    const { hooks, batches } = createFakeHooks();
    await harness.start({}, hooks);
    const device = await harness.machine('ESP001');
    expect(await publishOutcome(device, buildSalesTopic('ESP001'), 'not json')).toBe('acked');
    expect(batches[0]![0]!.payload.toString()).toBe('not json');
    expect(device.connected).toBe(true);
  });

  it('sends the PUBACK of a QoS 1 sale only after persistSales resolved', async () => {
    const { calls, persistSales } = heldPersistSales();
    const { hooks } = createFakeHooks({ persistSales });
    const broker = await harness.start({}, hooks);
    const device = await harness.machine('ESP001');
    let outcome: string | null = null;
    const published = publishOutcome(device, buildSalesTopic('ESP001'), sale('e1')).then((o) => (outcome = o));
    await waitFor(() => calls.length === 1);
    await sleep(100);
    expect(outcome).toBeNull();
    expect(broker.stats().sales.inFlight).toBe(1);
    calls[0]!.done.resolve();
    await published;
    expect(outcome).toBe('acked');
    expect(broker.stats().sales).toMatchObject({ persisted: 1, batches: 1, inFlight: 0 });
  });

  it('groups the sales of many machines that arrive during a flush into one persistSales call', async () => {
    const { calls, persistSales } = heldPersistSales();
    const { hooks } = createFakeHooks({ persistSales });
    const broker = await harness.start({ saleBatchLingerMs: 1 }, hooks);
    const devices = await Promise.all(['ESP001', 'ESP002', 'ESP003'].map((id) => harness.machine(id)));
    const first = publishOutcome(devices[0]!, buildSalesTopic('ESP001'), sale('first'));
    await waitFor(() => calls.length === 1);
    const rest = devices.flatMap((device, d) =>
      [0, 1, 2, 3].map((n) => publishOutcome(device, buildSalesTopic(device.options.clientId!), sale(`${d}-${n}`))),
    );
    await waitFor(() => broker.stats().sales.pending === 12);
    expect(calls).toHaveLength(1);
    calls[0]!.done.resolve();
    await waitFor(() => calls.length === 2);
    expect(calls[1]!.batch).toHaveLength(12);
    expect(new Set(calls[1]!.batch.map((s) => s.espId))).toEqual(new Set(['ESP001', 'ESP002', 'ESP003']));
    calls[1]!.done.resolve();
    expect(await Promise.all([first, ...rest])).toEqual(Array(13).fill('acked'));
  });

  it('batches a burst from concurrent machines into fewer calls than sales', async () => {
    const { hooks, batches } = createFakeHooks();
    await harness.start({ saleBatchLingerMs: 10 }, hooks);
    const ids = ['ESP001', 'ESP002', 'ESP003'];
    const devices = await Promise.all(ids.map((id) => harness.machine(id)));
    const outcomes = await Promise.all(
      devices.flatMap((device, d) =>
        Array.from({ length: 20 }, (_, n) => publishOutcome(device, buildSalesTopic(ids[d]!), sale(`${d}-${n}`))),
      ),
    );
    expect(outcomes.every((o) => o === 'acked')).toBe(true);
    expect(batches.flat()).toHaveLength(60);
    expect(batches.length).toBeLessThan(10);
  });

  it('gives no PUBACK for any sale of a batch whose persistSales rejected, and drops those connections', async () => {
    const { calls, persistSales } = heldPersistSales();
    const { hooks } = createFakeHooks({ persistSales });
    // Both sales wait for each other even on an idle queue, so that they share one batch.
    const broker = await harness.start({ saleBatchLingerMs: 20, saleBatchIdleLingerMs: 20 }, hooks);
    const [a, b] = await Promise.all([harness.machine('ESP001'), harness.machine('ESP002')]);
    const outcomes = Promise.all([
      publishOutcome(a!, buildSalesTopic('ESP001'), sale('a1')),
      publishOutcome(b!, buildSalesTopic('ESP002'), sale('b1')),
    ]);
    await waitFor(() => calls.length === 1);
    expect(calls[0]!.batch).toHaveLength(2);
    calls[0]!.done.reject(new Error('database down'));
    expect(await outcomes).toEqual(['closed', 'closed']);
    expect(broker.stats().refusals['persist-failed']).toBe(2);
    expect(broker.stats().sales).toMatchObject({ persisted: 0, failedBatches: 1 });
    expect(broker.stats().publishes.accepted).toBe(0);
  });

  it('refuses a payload just over maxPayloadBytes without persisting it', async () => {
    const { hooks } = createFakeHooks();
    const broker = await harness.start({ maxPayloadBytes: 1024 }, hooks);
    const device = await harness.machine('ESP001');
    expect(await publishOutcome(device, buildSalesTopic('ESP001'), Buffer.alloc(1025, 'x'))).toBe('closed');
    expect(hooks.persistSales).not.toHaveBeenCalled();
    expect(broker.stats().refusals['payload-too-large']).toBe(1);
  });

  it('drops a connection whose packet header announces more than the limit, before reading it all', async () => {
    const { hooks } = createFakeHooks();
    const broker = await harness.start({ maxPayloadBytes: 1024 }, hooks);
    const device = await harness.machine('ESP001');
    // 0x30 = PUBLISH QoS 0; remaining length 10 MB as a variable byte integer; no body follows.
    device.stream.write(Buffer.from([0x30, 0x80, 0xad, 0xe2, 0x04]));
    await closed(device);
    expect(broker.stats().refusals['payload-too-large']).toBe(1);
    expect(hooks.persistSales).not.toHaveBeenCalled();
  });

  it('accepts a payload of exactly maxPayloadBytes', async () => {
    const { hooks } = createFakeHooks();
    await harness.start({ maxPayloadBytes: 1024 }, hooks);
    const device = await harness.machine('ESP001');
    expect(await publishOutcome(device, buildSalesTopic('ESP001'), Buffer.alloc(1024, 'x'))).toBe('acked');
  });
});
