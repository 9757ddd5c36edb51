import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { buildHelloTopic, buildSalesTopic, macToTopicId, PROVISION_USERNAME } from '@wv/contracts';
import mqtt from 'mqtt';
import { randomBytes, randomUUID } from 'node:crypto';
import { createAttendant, createManager, provisionDevice, randomMac } from '../factories/fleet.factory.js';
import { HttpClient } from '../support/http-client.js';
import { TestMachine, waitFor } from '../support/mqtt-machine.js';
import { startServer, type RunningServer } from '../support/server-process.js';

/**
 * A full run of the built program at the most verbose log level, touching every secret the program
 * ever holds (passwords, tokens, device keys, the provisioning secret, Wi-Fi passwords, the JWT
 * secret, wrong guesses at all of them), then a grep of everything it wrote for each of them.
 */
describe('logs of a full run', () => {
  let server: RunningServer;
  let http: HttpClient;
  const secrets = new Map<string, string>();
  const keep = (what: string, value: string) => {
    secrets.set(what, value);
    return value;
  };

  beforeAll(async () => {
    server = await startServer({ env: { LOG_LEVEL: 'verbose' } });
    http = new HttpClient(server.baseUrl);
  }, 60_000);
  afterAll(() => server?.stop());

  /** A machine without an id yet, connecting as the provisioning identity with `password`. */
  const provisioner = (macTopicId: string, password: string) =>
    mqtt.connectAsync(`mqtt://127.0.0.1:${server.mqttPort}`, {
      clientId: macTopicId,
      username: PROVISION_USERNAME,
      password,
      protocolVersion: 4,
      reconnectPeriod: 0,
    });

  it('never contain a password, token, device key or Wi-Fi password', async () => {
    keep('admin password', server.admin.password);
    keep('JWT secret', server.env.JWT_SECRET!);

    // Sign-in, right and wrong.
    const adminToken = keep('admin token', await http.login(server.admin.email, server.admin.password));
    const wrong = keep('wrong password', `wrong-${randomBytes(6).toString('hex')}`);
    expect((await http.post('/login', { identifier: server.admin.email, password: wrong })).status).toBe(401);
    const badToken = keep('forged token', `${adminToken.slice(0, -8)}AAAAAAAA`);
    expect((await http.get('/user/info', { token: badToken })).status).toBe(401);

    // Users: a manager and an attendant, with their passwords and tokens; a password change.
    const manager = await createManager(http, adminToken);
    keep('manager password', manager.password);
    keep('manager token', manager.token);
    const device = manager.devices[0]!;
    keep('device key', device.deviceKey);
    const attendant = await createAttendant(http, manager.token, device.espId);
    keep('attendant password', attendant.password);
    keep('attendant token', attendant.token);
    const newPassword = keep('new password', `new-${randomBytes(6).toString('hex')}`);
    const changed = await http.post(
      '/user/password',
      { currentPassword: manager.password, newPassword },
      { token: manager.token },
    );
    expect(changed.status).toBe(200);
    const managerToken = keep('manager token after the change', await http.login(manager.email, newPassword));

    // Machines: provisioning over MQTT with a chosen secret, REST and MQTT sales with the key,
    // a wrong key, a key rotation.
    const mac = randomMac();
    const macHex = macToTopicId(mac);
    const provisionSecret = keep('provisioning secret', `prov-${randomBytes(8).toString('hex')}`);
    const first = await provisioner(macHex, provisionSecret);
    await first.publishAsync(buildHelloTopic(macHex), JSON.stringify({ macAddress: mac }), { qos: 1 });
    await first.endAsync(true);
    const stolen = keep(
      'another machine’s guess at the provisioning secret',
      `guess-${randomBytes(6).toString('hex')}`,
    );
    await expect(provisioner(macHex, stolen)).rejects.toThrow();

    const sale = { eventId: randomUUID(), kind: 'coin', price: 500, volume: 10, waterType: 'cold' };
    const rest = await http.post(`/machines/${device.espId}/sales`, sale, {
      headers: { 'x-device-key': device.deviceKey },
    });
    expect(rest.status).toBe(202);
    const wrongKey = keep('wrong device key', randomBytes(16).toString('hex'));
    expect(
      (await http.post(`/machines/${device.espId}/sales`, sale, { headers: { 'x-device-key': wrongKey } })).status,
    ).toBe(401);
    await expect(
      TestMachine.connect(server.mqttPort, device.espId, wrongKey, { connectTimeout: 3000 }),
    ).rejects.toThrow();
    const machine = await TestMachine.connect(server.mqttPort, device.espId, device.deviceKey);
    const mqttSale = { ...sale, eventId: randomUUID() };
    await machine.publishSales(mqttSale);
    await machine.publishSales('{"eventId":"broken"', buildSalesTopic(device.espId));
    await machine.waitForAcks([mqttSale.eventId]);
    await machine.end();

    const other = await provisionDevice(http, adminToken);
    keep('second device key', other.deviceKey);
    const rotated = await http.post(`/admin/devices/${other.espId}/rotate-key`, undefined, { token: adminToken });
    expect(rotated.status).toBe(201);
    keep('rotated device key', rotated.body.deviceKey);

    // Remote configuration: a Wi-Fi password, read back by the machine with its key.
    const wifiPassword = keep('Wi-Fi password', `wifi-${randomBytes(6).toString('hex')}`);
    const wifi = await http.put(
      '/update_wifi_credentials',
      { espId: device.espId, ssid: 'Kiosk', password: wifiPassword },
      { token: managerToken },
    );
    expect(wifi.status).toBe(200);
    const readBack = await http.get(`/get_wifi_credentials/${device.espId}`, {
      headers: { 'x-device-key': device.deviceKey },
    });
    expect(JSON.stringify(readBack.body)).toContain(wifiPassword);

    // Removing the attendant revokes their token; the refused call with it is logged, the token not.
    expect((await http.delete(`/manager/attendants/${attendant.userId}`, { token: managerToken })).status).toBeLessThan(
      300,
    );
    expect((await http.get('/attendant/float-balance', { token: attendant.token })).status).toBe(401);

    // Everything the program wrote, shutdown included.
    await waitFor(
      async () => (await http.get(`/machines/${device.espId}/coin-transactions`, { token: managerToken })).body,
      (body: { total?: number }) => body.total === 2,
    );
    await server.stop();
    const logs = server.output();
    expect(logs.split('\n').length).toBeGreaterThan(20);
    // The run did log the events around the secrets: refusals name the identity, never the secret.
    expect(logs).toContain(device.espId);
    const leaked = [...secrets].filter(([, value]) => logs.includes(value)).map(([what]) => what);
    expect(leaked).toEqual([]);
  }, 60_000);
});
