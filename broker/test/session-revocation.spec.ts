import { afterEach, describe, expect, it, jest } from '@jest/globals';
import { buildConfigTopic } from '@wv/contracts';
import { BrokerHarness, closed, createFakeHooks, deferred, MACHINE_KEYS, waitFor } from './support/broker-harness.js';

const harness = new BrokerHarness();
afterEach(() => harness.cleanup());

describe('revoking a machine', () => {
  it('closes every session of that machine and no other, and delivers nothing published afterwards', async () => {
    const { hooks } = createFakeHooks();
    const broker = await harness.start({}, hooks);
    const revoked = await harness.machine('ESP001');
    const other = await harness.machine('ESP002');
    const received: string[] = [];
    revoked.on('message', (_topic, payload) => received.push(payload.toString()));
    await revoked.subscribeAsync(buildConfigTopic('ESP001'), { qos: 1 });

    expect(broker.disconnectMachine('ESP001')).toBe(1);
    await broker.publish(buildConfigTopic('ESP001'), '{"version":2}', { retain: true });
    await closed(revoked);
    expect(received).toEqual([]);
    expect(other.connected).toBe(true);
    expect(broker.stats().refusals.revoked).toBe(1);
    await waitFor(() => broker.connectedClients().length === 1);
    expect(broker.disconnectMachine('ESP001')).toBe(0);
  });

  it('closes a session whose key check was still running when the machine was revoked', async () => {
    const check = deferred<boolean>();
    const { hooks } = createFakeHooks({ authenticateMachine: () => check.promise });
    const broker = await harness.start({}, hooks);
    const connecting = harness.machine('ESP001');
    await waitFor(() => hooks.authenticateMachine.mock.calls.length === 1);
    broker.disconnectMachine('ESP001');
    check.resolve(true);
    const client = await connecting.catch(() => null);
    if (client) await closed(client);
    await waitFor(() => broker.connectedClients().length === 0);
    // A connection that begins after the revocation is the machine's own business again.
    hooks.authenticateMachine.mockImplementation(async () => true);
    const later = await harness.machine('ESP001');
    expect(later.connected).toBe(true);
  });
});

describe('the wrong-key limit per address', () => {
  it('answers wrong keys until the limit, then refuses with CONNACK 5 without asking the API', async () => {
    const { hooks } = createFakeHooks();
    const knownMachineKey = jest.fn((espId: string, key: string) => espId === 'ESP002' && key === MACHINE_KEYS.ESP002);
    const broker = await harness.start({ authFailuresPerAddress: 3 }, { ...hooks, knownMachineKey });
    for (let i = 0; i < 3; i++) {
      await expect(harness.machine('ESP001', { password: `wrong-${i}` })).rejects.toMatchObject({ code: 4 });
    }
    expect(hooks.authenticateMachine).toHaveBeenCalledTimes(3);

    await expect(harness.machine('ESP001', { password: 'wrong-again' })).rejects.toMatchObject({ code: 5 });
    await expect(harness.machine('ESP001')).rejects.toMatchObject({ code: 5 });
    expect(hooks.authenticateMachine).toHaveBeenCalledTimes(3);
    expect(broker.stats().refusals['auth-failure-limit']).toBe(2);
    // A key the API verified recently is known without a lookup: that machine still connects.
    expect((await harness.machine('ESP002')).connected).toBe(true);
  });

  it('never limits machines whose keys are right, however many share the address', async () => {
    const { hooks } = createFakeHooks();
    await harness.start({ authFailuresPerAddress: 2 }, hooks);
    for (let i = 0; i < 10; i++) expect((await harness.machine(`ESP00${(i % 3) + 1}`)).connected).toBe(true);
  });
});
