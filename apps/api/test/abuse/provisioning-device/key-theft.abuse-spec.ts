import { afterAll, afterEach, beforeAll, describe, expect, it } from '@jest/globals';
import { macToTopicId, PROVISION_USERNAME } from '@wv/contracts';
import { randomBytes } from 'node:crypto';
import { randomMac } from '../../factories/fleet.factory.js';
import { TestMachine, waitFor } from '../../support/mqtt-machine.js';
import { createTestApp, TEST_ADMIN, type TestApp } from '../../support/test-app.js';
import { Connack, connectOutcome, ProvisioningClient } from './provisioning-client.js';

/**
 * The attacker is anyone who can reach the MQTT port and knows (or guesses) a machine's MAC address,
 * which is printed on the board and broadcast on Wi-Fi. It must never end up holding a device key
 * the admin issued for another machine (docs/security.md, provisioning).
 */
describe('provisioning over MQTT: a device key reaches only the machine that pinned its secret first', () => {
  let t: TestApp;
  let admin: string;
  const clients: ProvisioningClient[] = [];
  const machines: TestMachine[] = [];
  const secret = () => `boot-${randomBytes(8).toString('hex')}`;
  const espId = () => `ESP-${randomBytes(4).toString('hex')}`;

  const listedMacs = async () =>
    (await t.http.get<{ macAddress: string }[]>('/get_mac_addresses', { token: admin })).body.map((r) => r.macAddress);
  const assign = (macAddress: string, id: string) =>
    t.http.post<{ deviceKey: string }>('/assign_id', { macAddress, espId: id }, { token: admin });
  const provisioner = async (mac: string, pin = secret()) => {
    const client = await ProvisioningClient.connect(t.mqttPort, mac, pin);
    clients.push(client);
    return client;
  };
  /**
   * A machine that provisions as docs/device-protocol.md says: pins its secret, subscribes, says hello, gets listed.
   */
  const honestMachine = async () => {
    const mac = randomMac();
    const client = await provisioner(mac);
    expect(await client.subscribe()).toBe(1);
    await client.hello();
    await waitFor(listedMacs, (list) => list.includes(mac), 15_000);
    return client;
  };

  beforeAll(async () => {
    t = await createTestApp();
    admin = await t.http.login(TEST_ADMIN.email, TEST_ADMIN.password);
  }, 60_000);
  afterEach(async () => {
    await Promise.all([...clients.splice(0), ...machines.splice(0)].map((c) => c.end()));
  }, 60_000);
  afterAll(() => t.close(), 60_000);

  it('refuses a provisioning connect for a MAC that was announced over REST and already has an ESP ID', async () => {
    const mac = randomMac();
    expect((await t.http.post('/devices/announce', { macAddress: mac })).status).toBe(202);
    const id = espId();
    const assigned = await assign(mac, id);
    expect(assigned.status).toBe(201);

    // The thief pins "its" secret after the assignment: it must not even get a session.
    for (let attempt = 0; attempt < 2; attempt++) {
      expect(await connectOutcome(t.mqttPort, macToTopicId(mac), PROVISION_USERNAME, secret())).toBe(
        Connack.BadUsernameOrPassword,
      );
    }
    // The real machine, given its key by the admin, still connects.
    machines.push(await TestMachine.connect(t.mqttPort, id, assigned.body.deviceKey));
  }, 60_000);

  it('never publishes over MQTT the assignment of a MAC announced over REST, even to a client that pinned a secret and said hello before /assign_id', async () => {
    const restMac = randomMac();
    expect((await t.http.post('/devices/announce', { macAddress: restMac })).status).toBe(202);
    const thief = await provisioner(restMac);
    expect(await thief.subscribe()).toBe(1);
    await thief.hello();
    const honest = await honestMachine();

    expect((await assign(restMac, espId())).status).toBe(201);
    const honestId = espId();
    const honestAssigned = await assign(honest.macAddress, honestId);
    expect(honestAssigned.status).toBe(201);

    // Assignments travel in order: once the later one arrived, the earlier one would have too.
    expect(await honest.waitForAssignment()).toEqual({ espId: honestId, deviceKey: honestAssigned.body.deviceKey });
    expect(thief.received).toEqual([]);
  }, 60_000);

  it('delivers the assignment to the client that pinned its secret and said hello before /assign_id, and clears it once the machine connected with its key', async () => {
    const honest = await honestMachine();
    const id = espId();
    const assigned = await assign(honest.macAddress, id);
    expect(assigned.status).toBe(201);
    expect(await honest.waitForAssignment()).toEqual({ espId: id, deviceKey: assigned.body.deviceKey });

    // A thief that knows the MAC cannot pin another secret now.
    expect(await connectOutcome(t.mqttPort, honest.topicId, PROVISION_USERNAME, secret())).toBe(
      Connack.BadUsernameOrPassword,
    );

    machines.push(await TestMachine.connect(t.mqttPort, id, assigned.body.deviceKey));
    // The retained assignment is cleared with an empty retained message (MQTT 3.1.1 section 3.3.1.3).
    await honest.waitUntil(() => honest.received.includes(''), 10_000, 'the retained assignment was not cleared');
  }, 60_000);

  it('keeps delivering over MQTT to a machine that said hello when someone announces its MAC over REST afterwards', async () => {
    const honest = await honestMachine();
    expect((await t.http.post('/devices/announce', { macAddress: honest.macAddress })).status).toBe(202);
    const id = espId();
    const assigned = await assign(honest.macAddress, id);
    expect(assigned.status).toBe(201);
    expect(await honest.waitForAssignment()).toEqual({ espId: id, deviceKey: assigned.body.deviceKey });
  }, 60_000);

  it('does not list a MAC whose provisioning client connected without saying hello, nor let the admin assign it', async () => {
    const silentMac = randomMac();
    await provisioner(silentMac);
    // A hello that arrives after the silent connect shows the broker has processed both.
    await honestMachine();
    expect(await listedMacs()).not.toContain(silentMac);
    expect((await assign(silentMac, espId())).status).toBe(404);
  }, 60_000);
});
