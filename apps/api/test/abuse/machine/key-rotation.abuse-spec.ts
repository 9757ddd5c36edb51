/**
 * A machine whose key leaked (docs/security.md): the admin rotates the key, and from that moment the
 * holder of the old key is out everywhere. Its live MQTT sessions are closed on every broker process
 * (the processes run apart, APP_ROLES), before the next configuration (with the Wi-Fi password) is
 * published, so an old session can neither sell nor read the new settings; the old key connects nowhere.
 */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { buildConfigTopic, buildSalesTopic } from '@wv/contracts';
import { randomUUID } from 'node:crypto';
import { provisionDevice } from '../../factories/fleet.factory.js';
import { HttpClient } from '../../support/http-client.js';
import { TestMachine, waitFor } from '../../support/mqtt-machine.js';
import { createDeployment, spawnServer, type Deployment, type ServerProcess } from '../../support/server-process.js';
import { TEST_ADMIN } from '../../support/test-app.js';

/** A live session holding the old key: what it receives and whether the broker closed it. */
class OldSession {
  readonly configs: string[] = [];
  closed = false;

  private constructor(readonly machine: TestMachine) {
    machine.client.on('message', (topic, payload) => {
      if (topic === buildConfigTopic(machine.espId)) this.configs.push(payload.toString('utf8'));
    });
    machine.client.on('close', () => (this.closed = true));
  }

  static async open(port: number, espId: string, key: string): Promise<OldSession> {
    const machine = await TestMachine.connect(port, espId, key);
    await machine.client.subscribeAsync(buildConfigTopic(espId), { qos: 1 });
    return new OldSession(machine);
  }
}

const connackCode = (error: unknown) => (error as { code?: number }).code;

describe('rotating a device key ends the sessions of the old key in every broker process', () => {
  let deployment: Deployment;
  let front: ServerProcess;
  let edge: ServerProcess;
  let http: HttpClient;
  let adminToken: string;
  const sessions: OldSession[] = [];
  const machines: TestMachine[] = [];

  beforeAll(async () => {
    deployment = await createDeployment({ LOG_LEVEL: 'warn' });
    // Every role in one process, and a second process that runs only the broker.
    front = await spawnServer(deployment);
    edge = await spawnServer(deployment, { APP_ROLES: 'broker' });
    http = new HttpClient(front.baseUrl);
    adminToken = await http.login(TEST_ADMIN.email, TEST_ADMIN.password);
  }, 90_000);

  afterAll(async () => {
    await Promise.all([...sessions.map((s) => s.machine), ...machines].map((m) => m.end().catch(() => undefined)));
    await Promise.all([front?.stop(), edge?.stop()]);
    await deployment?.cleanup();
  }, 60_000);

  it('closes the old sessions on both processes before the next config reaches them, and the old key connects nowhere', async () => {
    const device = await provisionDevice(http, adminToken);
    const wifi = (password: string) =>
      http.put('/update_wifi_credentials', { espId: device.espId, ssid: 'kiosk', password }, { token: adminToken });
    expect((await wifi('before-rotation')).status).toBe(200);

    const onFront = await OldSession.open(front.mqttPort, device.espId, device.deviceKey);
    const onEdge = await OldSession.open(edge.mqttPort, device.espId, device.deviceKey);
    sessions.push(onFront, onEdge);
    // Both sessions are live: each got the retained config of before the rotation.
    await waitFor(
      async () => [onFront.configs.length, onEdge.configs.length],
      (n) => n.every((count) => count > 0),
    );

    const rotated = await http.post<{ deviceKey: string }>(`/admin/devices/${device.espId}/rotate-key`, undefined, {
      token: adminToken,
    });
    expect(rotated.status).toBe(201);
    // The owner changes the Wi-Fi password at once: the holder of the old key must never see it.
    expect((await wifi('after-rotation-secret')).status).toBe(200);

    await waitFor(
      async () => ({ front: onFront.closed, edge: onEdge.closed }),
      (s) => s.front && s.edge,
      15_000,
    );
    expect([...onFront.configs, ...onEdge.configs].filter((c) => c.includes('after-rotation-secret'))).toEqual([]);

    for (const port of [front.mqttPort, edge.mqttPort]) {
      const refused = await TestMachine.connect(port, device.espId, device.deviceKey).then(
        (m) => (machines.push(m), 0),
        connackCode,
      );
      expect(refused).toBe(4);
    }
    const renewed = await TestMachine.connect(edge.mqttPort, device.espId, rotated.body.deviceKey);
    machines.push(renewed);
    const eventId = randomUUID();
    await renewed.publishSales(
      { eventId, kind: 'coin', price: 500, volume: 10, waterType: 'pure' },
      buildSalesTopic(device.espId),
    );
    await renewed.waitForAcks([eventId], 20_000);
  }, 90_000);
});
