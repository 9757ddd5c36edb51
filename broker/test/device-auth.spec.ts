import { afterEach, describe, expect, it } from '@jest/globals';
import { buildConfigTopic, buildSalesAckTopic, buildSalesTopic, buildStatusTopic } from '@wv/contracts';
import {
  BrokerHarness,
  closed,
  createFakeHooks,
  deferred,
  type Deferred,
  publishOutcome,
  sale,
  sleep,
  subscribeGranted,
  waitFor,
} from './support/broker-harness.js';

const harness = new BrokerHarness();
afterEach(() => harness.cleanup());

describe('machine identity', () => {
  it('accepts a machine whose client id and username are its ESP ID and whose password is its key', async () => {
    const { hooks } = createFakeHooks();
    const broker = await harness.start({}, hooks);
    await harness.machine('ESP001');
    expect(hooks.authenticateMachine).toHaveBeenCalledWith('ESP001', 'key-001');
    await waitFor(() => hooks.onClientConnected.mock.calls.length === 1);
    expect(hooks.onClientConnected).toHaveBeenCalledWith({ kind: 'machine', espId: 'ESP001', clientId: 'ESP001' });
    expect(broker.connectedClients().map((c) => c.identity)).toEqual([
      { kind: 'machine', espId: 'ESP001', clientId: 'ESP001' },
    ]);
  });

  it('refuses a machine with a wrong key with CONNACK 4 and counts the refusal', async () => {
    const { hooks } = createFakeHooks();
    const broker = await harness.start({}, hooks);
    await expect(harness.machine('ESP001', { password: 'wrong' })).rejects.toMatchObject({ code: 4 });
    expect(broker.stats().refusals['bad-credentials']).toBe(1);
    expect(broker.connectedClients()).toEqual([]);
    expect(hooks.onClientConnected).not.toHaveBeenCalled();
  });

  it('refuses a machine whose client id is not its ESP ID, without asking the API', async () => {
    const { hooks } = createFakeHooks();
    const broker = await harness.start({}, hooks);
    await expect(harness.machine('ESP001', { clientId: 'ESP002' })).rejects.toMatchObject({ code: 2 });
    expect(hooks.authenticateMachine).not.toHaveBeenCalled();
    expect(broker.stats().refusals['identifier-rejected']).toBe(1);
  });

  it('refuses a connection without a password', async () => {
    const { hooks } = createFakeHooks();
    await harness.start({}, hooks);
    await expect(harness.connect({ clientId: 'ESP001', username: 'ESP001' })).rejects.toMatchObject({ code: 4 });
  });

  it('answers CONNACK 3 when the API cannot check the key', async () => {
    const { hooks } = createFakeHooks({
      authenticateMachine: async () => {
        throw new Error('database down');
      },
    });
    const broker = await harness.start({}, hooks);
    await expect(harness.machine('ESP001')).rejects.toMatchObject({ code: 3 });
    expect(broker.stats().refusals['auth-unavailable']).toBe(1);
  });

  it('refuses a will on any topic but the machine status', async () => {
    const { hooks } = createFakeHooks();
    const broker = await harness.start({}, hooks);
    const will = {
      topic: buildStatusTopic('ESP002'),
      payload: Buffer.from('{"online":false}'),
      qos: 1 as const,
      retain: true,
    };
    await expect(harness.machine('ESP001', { will })).rejects.toMatchObject({ code: 5 });
    expect(broker.stats().refusals['will-denied']).toBe(1);
    await harness.machine('ESP001', { will: { ...will, topic: buildStatusTopic('ESP001') } });
  });

  it("publishes the machine's status will when it drops, and reports the disconnect", async () => {
    const { hooks } = createFakeHooks();
    await harness.start({}, hooks);
    const will = {
      topic: buildStatusTopic('ESP001'),
      payload: Buffer.from('{"online":false}'),
      qos: 1 as const,
      retain: true,
    };
    const device = await harness.machine('ESP001', { will });
    device.stream.destroy();
    await waitFor(
      () => hooks.onDeviceMessage.mock.calls.length === 1 && hooks.onClientDisconnected.mock.calls.length === 1,
    );
    expect(hooks.onDeviceMessage.mock.calls[0]![0]).toMatchObject({ kind: 'status', espId: 'ESP001' });
    expect(hooks.onDeviceMessage.mock.calls[0]![0].payload.toString()).toBe('{"online":false}');
    expect(hooks.onClientDisconnected).toHaveBeenCalledWith({ kind: 'machine', espId: 'ESP001', clientId: 'ESP001' });
  });

  it('lets a second connection with the same ESP ID take the session over, and the machine stays online', async () => {
    const { hooks } = createFakeHooks();
    const broker = await harness.start({}, hooks);
    const will = {
      topic: buildStatusTopic('ESP001'),
      payload: Buffer.from('{"online":false}'),
      qos: 1 as const,
      retain: true,
    };
    const first = await harness.machine('ESP001', { will });
    const firstClosed = closed(first);
    await harness.machine('ESP001', { will });
    await firstClosed;
    await waitFor(() => hooks.onClientConnected.mock.calls.length === 2);
    await sleep(50);
    expect(hooks.onClientDisconnected).toHaveBeenCalledTimes(1);
    // The old session's will must not land after the new session came up.
    expect(hooks.onDeviceMessage).not.toHaveBeenCalled();
    expect(broker.connectedClients()).toHaveLength(1);
  });

  it('refuses a client that asks for no keepalive or one above keepaliveLimit', async () => {
    const { hooks } = createFakeHooks();
    const broker = await harness.start({ keepaliveLimit: 120 }, hooks);
    await expect(harness.machine('ESP001', { keepalive: 0 })).rejects.toThrow();
    await expect(harness.machine('ESP001', { keepalive: 121 })).rejects.toThrow();
    await waitFor(() => broker.stats().refusals['keepalive-out-of-range'] === 2);
    await harness.machine('ESP001', { keepalive: 120 });
  });
});

describe('machine topic ACL', () => {
  it('closes the connection on a publish to another machine and never persists it', async () => {
    const { hooks } = createFakeHooks();
    const broker = await harness.start({}, hooks);
    const device = await harness.machine('ESP001');
    expect(await publishOutcome(device, buildSalesTopic('ESP002'), sale('e1'))).toBe('closed');
    expect(hooks.persistSales).not.toHaveBeenCalled();
    expect(broker.stats().refusals['publish-denied']).toBe(1);
    expect(broker.stats().publishes.accepted).toBe(0);
  });

  it('refuses wildcard and foreign subscriptions with SUBACK 0x80 and keeps the connection', async () => {
    const { hooks } = createFakeHooks();
    const broker = await harness.start({}, hooks);
    const device = await harness.machine('ESP001');
    expect(await subscribeGranted(device, '#')).toBe(128);
    expect(await subscribeGranted(device, 'wv/v1/machines/+/config')).toBe(128);
    expect(await subscribeGranted(device, buildConfigTopic('ESP002'))).toBe(128);
    expect(await subscribeGranted(device, buildConfigTopic('ESP001'))).toBe(1);
    expect(await subscribeGranted(device, buildSalesAckTopic('ESP001'))).toBe(1);
    expect(device.connected).toBe(true);
    expect(broker.stats().refusals['subscribe-denied']).toBe(3);
  });

  it('does not deliver another machine’s retained config through a refused wildcard', async () => {
    const { hooks } = createFakeHooks();
    const broker = await harness.start({}, hooks);
    await broker.publish(buildConfigTopic('ESP002'), '{"version":1}', { retain: true });
    const device = await harness.machine('ESP001');
    const received: string[] = [];
    device.on('message', (topic) => received.push(topic));
    await subscribeGranted(device, 'wv/v1/machines/#');
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(received).toEqual([]);
  });

  it('closes the connection on a topic deeper than maxTopicLevels', async () => {
    const { hooks } = createFakeHooks();
    const broker = await harness.start({ maxTopicLevels: 8 }, hooks);
    const device = await harness.machine('ESP001');
    const deep = `${buildSalesTopic('ESP001')}/a/b/c/d`;
    expect(await publishOutcome(device, deep, sale('e1'))).toBe('closed');
    await closed(device);
    expect(hooks.persistSales).not.toHaveBeenCalled();
    expect(broker.stats().refusals['topic-too-deep']).toBe(1);
  });

  it('hands status and config acks to onDeviceMessage after they are authorized', async () => {
    const { hooks } = createFakeHooks();
    await harness.start({}, hooks);
    const device = await harness.machine('ESP001');
    expect(await publishOutcome(device, buildStatusTopic('ESP001'), '{"online":true}')).toBe('acked');
    expect(await publishOutcome(device, 'wv/v1/machines/ESP001/config/ack', '{"version":3}')).toBe('acked');
    await waitFor(() => hooks.onDeviceMessage.mock.calls.length === 2);
    expect(hooks.onDeviceMessage.mock.calls.map(([m]) => [m.kind, 'espId' in m ? m.espId : null])).toEqual([
      ['status', 'ESP001'],
      ['config-ack', 'ESP001'],
    ]);
    expect(hooks.persistSales).not.toHaveBeenCalled();
  });
});

describe('stale connections', () => {
  /** Fake hooks whose first key check waits for `slow`; later ones answer at once. */
  function firstCheckWaits(slow: Deferred<boolean>) {
    let calls = 0;
    return createFakeHooks({
      authenticateMachine: async (_espId, key) => (++calls === 1 ? slow.promise : key === 'key-001'),
    });
  }

  it('drops a connection the device closed while it was being authenticated, instead of letting it take over', async () => {
    const slow = deferred<boolean>();
    const { hooks } = createFakeHooks();
    const broker = await harness.start({}, hooks);
    const live = await harness.machine('ESP001');
    hooks.authenticateMachine.mockImplementationOnce(async () => slow.promise);
    // A second CONNECT for the same id whose device gives up before its key check returns.
    await expect(harness.machine('ESP001', { connectTimeout: 200 })).rejects.toThrow();
    slow.resolve(true);
    await waitFor(() => hooks.authenticateMachine.mock.calls.length === 2);
    await sleep(200);
    expect(live.connected).toBe(true);
    expect(await publishOutcome(live, buildSalesTopic('ESP001'), sale('after-dead-connect'))).toBe('acked');
    expect(hooks.onClientDisconnected).not.toHaveBeenCalled();
    expect(broker.connectedClients()).toHaveLength(1);
  });

  it('refuses a connection whose CONNECT came before that of the session now holding its client id', async () => {
    const slow = deferred<boolean>();
    const { hooks } = firstCheckWaits(slow);
    const broker = await harness.start({}, hooks);
    // The older connection stays open, waiting for its CONNACK, while a newer one is registered.
    const older = harness.machine('ESP001');
    await waitFor(() => hooks.authenticateMachine.mock.calls.length === 1);
    const newer = await harness.machine('ESP001');
    slow.resolve(true);
    await expect(older).rejects.toMatchObject({ code: 3 });
    expect(broker.stats().refusals.superseded).toBe(1);
    expect(newer.connected).toBe(true);
    expect(await publishOutcome(newer, buildSalesTopic('ESP001'), sale('after-stale'))).toBe('acked');
  });
});
