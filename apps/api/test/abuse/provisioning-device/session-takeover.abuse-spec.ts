import { afterAll, afterEach, beforeAll, describe, expect, it } from '@jest/globals';
import { PROVISION_USERNAME } from '@wv/contracts';
import { randomBytes, randomUUID } from 'node:crypto';
import { provisionDevice } from '../../factories/fleet.factory.js';
import { TestMachine } from '../../support/mqtt-machine.js';
import { createTestApp, TEST_ADMIN, type TestApp } from '../../support/test-app.js';
import { Connack, connectOutcome } from './provisioning-client.js';

/**
 * MQTT hands a session to the newest connection with the same client id (MQTT 3.1.1 section 3.1.4).
 * A provisioning client needs no key, and its client id is any 12 upper-case hex digits, which is
 * also a valid ESP ID: it must never be able to take an authenticated machine's session.
 */
describe('provisioning over MQTT: an anonymous client cannot take over a machine session', () => {
  let t: TestApp;
  let admin: string;
  const machines: TestMachine[] = [];
  const hexEspId = () => randomBytes(6).toString('hex').toUpperCase();

  beforeAll(async () => {
    t = await createTestApp();
    admin = await t.http.login(TEST_ADMIN.email, TEST_ADMIN.password);
  }, 60_000);
  afterEach(async () => {
    await Promise.all(machines.splice(0).map((m) => m.end()));
  }, 60_000);
  afterAll(() => t.close(), 60_000);

  it('refuses, every time, a provisioning client whose client id is a connected machine’s ESP ID, and the machine stays connected', async () => {
    const device = await provisionDevice(t.http, admin, hexEspId());
    const machine = await TestMachine.connect(t.mqttPort, device.espId, device.deviceKey);
    machines.push(machine);
    let kicked = 0;
    machine.client.on('close', () => kicked++);

    for (let attempt = 0; attempt < 3; attempt++) {
      expect(await connectOutcome(t.mqttPort, device.espId, PROVISION_USERNAME, `guess-${attempt}`)).toBe(
        Connack.IdentifierRejected,
      );
    }
    // Still the same session: a sale goes through and is acknowledged on it.
    const eventId = randomUUID();
    await machine.publishSales({ eventId, kind: 'coin', price: 100, volume: 1, waterType: 'pure' });
    await machine.waitForAcks([eventId]);
    expect(kicked).toBe(0);
    expect(machine.client.connected).toBe(true);
  }, 60_000);

  it('refuses a provisioning client whose client id is an offline machine’s ESP ID, so it cannot hold that id', async () => {
    const device = await provisionDevice(t.http, admin, hexEspId());
    expect(await connectOutcome(t.mqttPort, device.espId, PROVISION_USERNAME, 'any-secret')).toBe(
      Connack.IdentifierRejected,
    );
    // The machine itself connects as usual.
    machines.push(await TestMachine.connect(t.mqttPort, device.espId, device.deviceKey));
  }, 60_000);
});
