import { afterEach, describe, expect, it } from '@jest/globals';
import { macToTopicId, PROVISION_USERNAME } from '@wv/contracts';
import { randomBytes } from 'node:crypto';
import { randomMac } from '../../factories/fleet.factory.js';
import { HttpClient } from '../../support/http-client.js';
import { TestMachine, waitFor } from '../../support/mqtt-machine.js';
import { createDeployment, spawnServer, type Deployment, type ServerProcess } from '../../support/server-process.js';
import { TEST_ADMIN } from '../../support/test-app.js';
import { Connack, connectOutcome, ProvisioningClient } from './provisioning-client.js';

/**
 * An assignment is server → machine state: it must reach the machine that pinned its secret
 * whichever process took the admin's /assign_id, and whatever restarted meanwhile. These run the
 * built program (`apps/api/dist/main.js`) as separate processes.
 */
describe('provisioning over MQTT: the assignment reaches the pinned machine across processes and restarts', () => {
  let deployment: Deployment | undefined;
  const processes: ServerProcess[] = [];
  const clients: { end(): Promise<void> }[] = [];
  const secret = () => `boot-${randomBytes(8).toString('hex')}`;
  const espId = () => `ESP-${randomBytes(4).toString('hex')}`;

  const spawn = async (env: Record<string, string> = {}) => {
    const p = await spawnServer(deployment!, env, 60_000);
    processes.push(p);
    return p;
  };
  const listed = (http: HttpClient, token: string) => async () =>
    (await http.get<{ macAddress: string }[]>('/get_mac_addresses', { token })).body.map((r) => r.macAddress);

  afterEach(async () => {
    await Promise.all(clients.splice(0).map((c) => c.end().catch(() => undefined)));
    await Promise.all(processes.splice(0).map((p) => p.stop()));
    await deployment?.cleanup();
    deployment = undefined;
  }, 60_000);

  it('delivers an assignment made on an api-only process to the machine waiting on a separate broker process', async () => {
    deployment = await createDeployment({ LOG_LEVEL: 'warn' });
    const api = await spawn({ APP_ROLES: 'api' });
    const broker = await spawn({ APP_ROLES: 'broker,worker' });
    expect(broker.mqttPort).toBeGreaterThan(0);
    const http = new HttpClient(api.baseUrl);
    const admin = await http.login(TEST_ADMIN.email, TEST_ADMIN.password);

    const mac = randomMac();
    const machine = await ProvisioningClient.connect(broker.mqttPort, mac, secret());
    clients.push(machine);
    expect(await machine.subscribe()).toBe(1);
    await machine.hello();
    await waitFor(listed(http, admin), (list) => list.includes(mac), 15_000);

    const id = espId();
    const assigned = await http.post<{ deviceKey: string }>(
      '/assign_id',
      { macAddress: mac, espId: id },
      { token: admin },
    );
    expect(assigned.status).toBe(201);
    expect(await machine.waitForAssignment(20_000)).toEqual({ espId: id, deviceKey: assigned.body.deviceKey });
  }, 180_000);

  it('delivers an assignment made while the machine was offline after the program restarted, and only to the pinned secret', async () => {
    deployment = await createDeployment({ LOG_LEVEL: 'warn' });
    const first = await spawn();
    const http = new HttpClient(first.baseUrl);
    const admin = await http.login(TEST_ADMIN.email, TEST_ADMIN.password);

    const mac = randomMac();
    const pin = secret();
    const before = await ProvisioningClient.connect(first.mqttPort, mac, pin);
    expect(await before.subscribe()).toBe(1);
    await before.hello();
    await waitFor(listed(http, admin), (list) => list.includes(mac), 15_000);
    await before.end();

    const id = espId();
    const assigned = await http.post<{ deviceKey: string }>(
      '/assign_id',
      { macAddress: mac, espId: id },
      { token: admin },
    );
    expect(assigned.status).toBe(201);
    await first.stop();
    processes.splice(0);

    const second = await spawn();
    expect(await connectOutcome(second.mqttPort, macToTopicId(mac), PROVISION_USERNAME, secret())).toBe(
      Connack.BadUsernameOrPassword,
    );
    const after = await ProvisioningClient.connect(second.mqttPort, mac, pin);
    clients.push(after);
    expect(await after.subscribe()).toBe(1);
    expect(await after.waitForAssignment(20_000)).toEqual({ espId: id, deviceKey: assigned.body.deviceKey });

    // The key works, and once used the assignment is gone for good: assigning again is still a conflict.
    const machineSession = await TestMachine.connect(second.mqttPort, id, assigned.body.deviceKey);
    clients.push(machineSession);
    await after.waitUntil(() => after.received.includes(''), 10_000, 'the retained assignment was not cleared');
    const secondHttp = new HttpClient(second.baseUrl);
    const again = await secondHttp.post('/assign_id', { macAddress: mac, espId: espId() }, { token: admin });
    expect(again.status).toBe(409);
  }, 180_000);
});
