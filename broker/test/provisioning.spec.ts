import { afterEach, describe, expect, it } from '@jest/globals';
import type { MqttClient } from 'mqtt';
import { buildAssignmentTopic, buildHelloTopic, PROVISION_USERNAME } from '@wv/contracts';
import { BrokerHarness, createFakeHooks, publishOutcome, subscribeGranted, waitFor } from './support/broker-harness.js';

const MAC = 'A1B2C3D4E5F6';
const OTHER_MAC = 'FFEEDDCCBBAA';

const harness = new BrokerHarness();
afterEach(() => harness.cleanup());

function provisioningClient(mac: string, password = 'first-boot-secret'): Promise<MqttClient> {
  return harness.connect({ clientId: mac, username: PROVISION_USERNAME, password });
}

function nextMessage(client: MqttClient): Promise<{ topic: string; payload: string; retain: boolean }> {
  return new Promise((resolve) =>
    client.once('message', (topic, payload, packet) =>
      resolve({ topic, payload: payload.toString(), retain: packet.retain }),
    ),
  );
}

describe('provisioning clients', () => {
  it('publishes hello and reads its own retained assignment', async () => {
    const { hooks } = createFakeHooks();
    const broker = await harness.start({}, hooks);
    const assignment = JSON.stringify({ espId: 'ESP009', deviceKey: 'k' });
    await broker.publish(buildAssignmentTopic(MAC), assignment, { qos: 1, retain: true });

    const device = await provisioningClient(MAC);
    expect(hooks.verifyProvisioningSecret).toHaveBeenCalledWith(MAC, 'first-boot-secret', {
      remoteAddress: expect.any(String),
    });
    const hello = JSON.stringify({ macAddress: 'A1:B2:C3:D4:E5:F6' });
    expect(await publishOutcome(device, buildHelloTopic(MAC), hello)).toBe('acked');
    await waitFor(() => hooks.onDeviceMessage.mock.calls.length === 1);
    expect(hooks.onDeviceMessage.mock.calls[0]![0]).toMatchObject({ kind: 'hello', mac: MAC, clientId: MAC });

    const message = nextMessage(device);
    expect(await subscribeGranted(device, buildAssignmentTopic(MAC))).toBe(1);
    expect(await message).toEqual({ topic: buildAssignmentTopic(MAC), payload: assignment, retain: true });
  });

  it("cannot read another MAC's assignment", async () => {
    const { hooks } = createFakeHooks();
    const broker = await harness.start({}, hooks);
    await broker.publish(buildAssignmentTopic(OTHER_MAC), '{"espId":"ESP010","deviceKey":"secret"}', { retain: true });
    const device = await provisioningClient(MAC);
    const received: string[] = [];
    device.on('message', (topic) => received.push(topic));
    expect(await subscribeGranted(device, buildAssignmentTopic(OTHER_MAC))).toBe(128);
    expect(await subscribeGranted(device, 'wv/v1/provision/+/assignment')).toBe(128);
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(received).toEqual([]);
  });

  it("cannot publish another MAC's hello", async () => {
    const { hooks } = createFakeHooks();
    await harness.start({}, hooks);
    const device = await provisioningClient(MAC);
    expect(await publishOutcome(device, buildHelloTopic(OTHER_MAC), '{}')).toBe('closed');
    expect(hooks.onDeviceMessage).not.toHaveBeenCalled();
  });

  it('is refused when a second secret is presented for a pinned MAC', async () => {
    const { hooks } = createFakeHooks();
    const broker = await harness.start({}, hooks);
    const first = await provisioningClient(MAC, 'first');
    await first.endAsync();
    await expect(provisioningClient(MAC, 'impostor')).rejects.toMatchObject({ code: 4 });
    expect(broker.stats().refusals['bad-credentials']).toBe(1);
  });

  it('is refused with CONNACK 2 when its client id is a connected machine, and the machine keeps its session', async () => {
    const { hooks } = createFakeHooks({ authenticateMachine: async (espId, key) => espId === MAC && key === 'key' });
    const broker = await harness.start({}, hooks);
    const machine = await harness.connect({ clientId: MAC, username: MAC, password: 'key' });
    await expect(provisioningClient(MAC)).rejects.toMatchObject({ code: 2 });
    expect(broker.stats().refusals['identifier-rejected']).toBe(1);
    expect(machine.connected).toBe(true);
    expect(broker.connectedClients().map((c) => c.identity.kind)).toEqual(['machine']);
  });

  it('maps the API refusing the client id to CONNACK 2 and a limited announcement to CONNACK 3', async () => {
    const verdicts = ['identifier-rejected', 'over-limit'] as const;
    let call = 0;
    const { hooks } = createFakeHooks({ verifyProvisioningSecret: async () => verdicts[call++]! });
    const broker = await harness.start({}, hooks);
    await expect(provisioningClient(MAC)).rejects.toMatchObject({ code: 2 });
    await expect(provisioningClient(MAC)).rejects.toMatchObject({ code: 3 });
    expect(broker.stats().refusals['provisioning-limit']).toBe(1);
  });

  it('is refused when its client id is not an upper-case MAC without separators', async () => {
    const { hooks } = createFakeHooks();
    await harness.start({}, hooks);
    for (const clientId of ['A1:B2:C3:D4:E5:F6', 'a1b2c3d4e5f6', 'ESP001']) {
      await expect(provisioningClient(clientId)).rejects.toMatchObject({ code: 2 });
    }
    expect(hooks.verifyProvisioningSecret).not.toHaveBeenCalled();
  });
});
