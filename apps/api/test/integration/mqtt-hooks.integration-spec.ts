/**
 * The HTTP hooks of an external broker (docs/external-mqtt.md, "HTTP hooks (EMQX and others)"): who may
 * connect, and what a connected device may publish or subscribe to, by the embedded broker's rules
 * (docs/device-protocol.md, "Identity and provisioning" and "Topics").
 */
import { afterAll, beforeAll, describe, expect, it, jest } from '@jest/globals';
import {
  buildAssignmentTopic,
  buildConfigTopic,
  buildHelloTopic,
  buildMachinePrefix,
  buildSalesTopic,
  buildStatusTopic,
  macToTopicId,
} from '@wv/contracts';
import { randomBytes } from 'node:crypto';
import { DeviceKeyService } from '../../src/device/device-key.service.js';
import { provisionDevice, randomMac } from '../factories/fleet.factory.js';
import { createTestApp, TEST_ADMIN, type TestApp } from '../support/test-app.js';

const HOOK_TOKEN = randomBytes(24).toString('base64url'); // 32 characters
const WRONG_TOKEN = randomBytes(24).toString('base64url');

/** The hooks' process: no broker role, which in external mode would connect to MQTT_BROKER_URL. */
const hooksApp = (env: Record<string, string> = {}) =>
  createTestApp({
    APP_ROLES: 'api,worker',
    MQTT_MODE: 'external',
    MQTT_BROKER_URL: 'mqtt://127.0.0.1:9',
    MQTT_AUTH_MODE: 'http-hooks',
    MQTT_HOOK_TOKEN: HOOK_TOKEN,
    ...env,
  });

describe('MQTT HTTP hooks (MQTT_MODE=external, MQTT_AUTH_MODE=http-hooks)', () => {
  let t: TestApp;
  let machine: { espId: string; macAddress: string; deviceKey: string };
  let other: { espId: string; macAddress: string; deviceKey: string };

  // `null`: no Authorization header at all.
  const auth = (body: unknown, token: string | null = HOOK_TOKEN) =>
    t.http.post('/mqtt/auth', body, { token: token ?? undefined });
  const acl = (body: unknown, token: string | null = HOOK_TOKEN) =>
    t.http.post('/mqtt/acl', body, { token: token ?? undefined });
  const machineAcl = (espId: string, action: 'publish' | 'subscribe', topic: string) =>
    acl({ clientid: espId, username: espId, topic, action });
  const provisioningAcl = (mac: string, action: 'publish' | 'subscribe', topic: string) =>
    acl({ clientid: mac, username: 'provision', topic, action });

  beforeAll(async () => {
    t = await hooksApp();
    const admin = await t.http.login(TEST_ADMIN.email, TEST_ADMIN.password);
    machine = await provisionDevice(t.http, admin);
    other = await provisionDevice(t.http, admin);
  });
  afterAll(() => t?.close());

  describe('the broker’s token', () => {
    const body = () => ({ clientid: machine.espId, username: machine.espId, password: machine.deviceKey });

    it('is required: without it, 401 with the usual error body, before the body is looked at', async () => {
      for (const res of [await auth(body(), null), await acl({ nope: true }, null)]) {
        expect(res.status).toBe(401);
        expect(res.body).toMatchObject({ statusCode: 401, code: 'Unauthorized', message: expect.any(String) });
        expect(res.body.result).toBeUndefined();
      }
    });

    it('must be the right one', async () => {
      const wrong = await auth(body(), WRONG_TOKEN);
      expect(wrong.status).toBe(401);
      expect(wrong.body).toMatchObject({ statusCode: 401, code: 'Unauthorized' });
      expect((await acl({ nope: true }, WRONG_TOKEN)).status).toBe(401);
      expect((await auth(body(), HOOK_TOKEN.slice(0, -1))).status).toBe(401);
      const basic = await t.http.post('/mqtt/auth', body(), { headers: { authorization: `Basic ${HOOK_TOKEN}` } });
      expect(basic.status).toBe(401);
      expect((await auth(body())).status).toBe(200);
    });
  });

  describe('POST /api/mqtt/auth', () => {
    it('allows a machine with its device key, its ESP ID as username and client id', async () => {
      const res = await auth({
        clientid: machine.espId,
        username: machine.espId,
        password: machine.deviceKey,
        peerhost: '198.51.100.7',
      });
      expect(res.status).toBe(200);
      expect(res.body).toEqual({ result: 'allow', is_superuser: false });
      expect(res.headers.get('content-type')).toMatch(/application\/json/);
    });

    it('denies a wrong key, another machine’s key, a client id that is not the username, an unknown ESP ID', async () => {
      const cases = [
        { clientid: machine.espId, username: machine.espId, password: randomBytes(32).toString('base64url') },
        { clientid: machine.espId, username: machine.espId, password: other.deviceKey },
        { clientid: other.espId, username: machine.espId, password: machine.deviceKey },
        { clientid: `${machine.espId}-2`, username: machine.espId, password: machine.deviceKey },
        { clientid: 'ESP-never-assigned', username: 'ESP-never-assigned', password: machine.deviceKey },
        { clientid: machine.espId, username: machine.espId, password: '' },
        { clientid: 'bad/id', username: 'bad/id', password: machine.deviceKey },
        { clientid: '', username: '', password: '' },
      ];
      for (const body of cases) {
        const res = await auth(body);
        expect({ body, status: res.status, answer: res.body }).toEqual({
          body,
          status: 200,
          answer: { result: 'deny' },
        });
      }
    });

    it('pins a provisioning client’s first secret: that secret is allowed again, another is denied', async () => {
      const mac = macToTopicId(randomMac());
      const secret = randomBytes(16).toString('hex');
      const first = await auth({ clientid: mac, username: 'provision', password: secret, peerhost: '198.51.100.8' });
      expect(first).toMatchObject({ status: 200, body: { result: 'allow', is_superuser: false } });
      const again = await auth({ clientid: mac, username: 'provision', password: secret, peerhost: '198.51.100.8' });
      expect(again.body).toEqual({ result: 'allow', is_superuser: false });
      const thief = await auth({
        clientid: mac,
        username: 'provision',
        password: `${secret}x`,
        peerhost: '203.0.113.9',
      });
      expect(thief).toMatchObject({ status: 200, body: { result: 'deny' } });
    });

    it('denies a provisioning client whose client id is not a MAC, or is a machine’s ESP ID', async () => {
      const lower = macToTopicId(randomMac()).toLowerCase();
      expect((await auth({ clientid: lower, username: 'provision', password: 'secret-1' })).body).toEqual({
        result: 'deny',
      });
      const admin = await t.http.login(TEST_ADMIN.email, TEST_ADMIN.password);
      const hexMachine = await provisionDevice(t.http, admin, macToTopicId(randomMac()));
      const takeover = await auth({ clientid: hexMachine.espId, username: 'provision', password: 'secret-2' });
      expect(takeover.body).toEqual({ result: 'deny' });
      // The machine itself still connects under that id.
      const own = await auth({
        clientid: hexMachine.espId,
        username: hexMachine.espId,
        password: hexMachine.deviceKey,
      });
      expect(own.body).toEqual({ result: 'allow', is_superuser: false });
    });

    it('answers 503 and deny, never allow, when the device keys cannot be read', async () => {
      const keys = t.running.app.get(DeviceKeyService);
      const spy = jest.spyOn(keys, 'verify').mockRejectedValueOnce(new Error('connect ECONNREFUSED 127.0.0.1:5432'));
      try {
        const res = await auth({ clientid: other.espId, username: other.espId, password: other.deviceKey });
        expect(res.status).toBe(503);
        expect(res.body).toMatchObject({ statusCode: 503, code: 'ServiceUnavailable', result: 'deny' });
        expect(res.headers.get('retry-after')).toBe('10');
      } finally {
        spy.mockRestore();
      }
    });

    it('refuses a malformed body with 400 and the usual error body', async () => {
      const bad = [
        { clientid: machine.espId, username: machine.espId },
        { clientid: machine.espId, username: machine.espId, password: 42 },
        { clientid: machine.espId, username: machine.espId, password: machine.deviceKey, extra: 'x' },
        [],
      ];
      for (const body of bad) {
        const res = await auth(body);
        expect({ body, status: res.status }).toEqual({ body, status: 400 });
        expect(res.body).toMatchObject({ statusCode: 400, code: 'ValidationFailed', fields: expect.any(Array) });
      }
      const notJson = await t.http.request('POST', '/mqtt/auth', { token: HOOK_TOKEN, rawBody: '{"clientid":' });
      expect(notJson.status).toBe(400);
      expect(notJson.body).toMatchObject({ statusCode: 400, code: 'MalformedJson' });
    });
  });

  describe('POST /api/mqtt/acl', () => {
    it('allows a machine its own topics', async () => {
      for (const [action, topic] of [
        ['publish', buildSalesTopic(machine.espId)],
        ['publish', buildStatusTopic(machine.espId)],
        ['subscribe', buildConfigTopic(machine.espId)],
      ] as const) {
        const res = await machineAcl(machine.espId, action, topic);
        expect({ action, topic, status: res.status, answer: res.body }).toEqual({
          action,
          topic,
          status: 200,
          answer: { result: 'allow' },
        });
      }
    });

    it('denies another machine’s topics, wildcards, the wrong direction and a mismatched identity', async () => {
      const denied = [
        await machineAcl(machine.espId, 'publish', buildSalesTopic(other.espId)),
        await machineAcl(machine.espId, 'subscribe', buildConfigTopic(other.espId)),
        await machineAcl(machine.espId, 'subscribe', `${buildMachinePrefix(machine.espId)}#`),
        await machineAcl(machine.espId, 'subscribe', '#'),
        await machineAcl(machine.espId, 'subscribe', 'wv/v1/machines/+/config'),
        await machineAcl(machine.espId, 'publish', buildConfigTopic(machine.espId)),
        await machineAcl(machine.espId, 'subscribe', buildSalesTopic(machine.espId)),
        await acl({
          clientid: other.espId,
          username: machine.espId,
          topic: buildSalesTopic(machine.espId),
          action: 'publish',
        }),
        await acl({ clientid: 'x', username: 'not a valid id', topic: 'wv/v1/anything', action: 'publish' }),
      ];
      for (const res of denied)
        expect({ status: res.status, answer: res.body }).toEqual({ status: 200, answer: { result: 'deny' } });
    });

    it('allows a provisioning client its own assignment and hello, and nothing of another MAC', async () => {
      const mac = macToTopicId(randomMac());
      const otherMac = macToTopicId(randomMac());
      expect((await provisioningAcl(mac, 'subscribe', buildAssignmentTopic(mac))).body).toEqual({ result: 'allow' });
      expect((await provisioningAcl(mac, 'publish', buildHelloTopic(mac))).body).toEqual({ result: 'allow' });
      expect((await provisioningAcl(mac, 'subscribe', buildAssignmentTopic(otherMac))).body).toEqual({
        result: 'deny',
      });
      expect((await provisioningAcl(mac, 'subscribe', 'wv/v1/provision/+/assignment')).body).toEqual({
        result: 'deny',
      });
      expect((await provisioningAcl(mac, 'publish', buildSalesTopic(machine.espId))).body).toEqual({ result: 'deny' });
      // `provision` with a client id that is not a MAC is no one.
      const notMac = await acl({
        clientid: mac.toLowerCase(),
        username: 'provision',
        topic: buildAssignmentTopic(mac.toLowerCase()),
        action: 'subscribe',
      });
      expect(notMac.body).toEqual({ result: 'deny' });
    });

    it('refuses a malformed body with 400 and the usual error body', async () => {
      const base = { clientid: machine.espId, username: machine.espId, topic: buildSalesTopic(machine.espId) };
      for (const body of [
        { ...base, action: 'all' },
        { ...base },
        { ...base, action: 'publish', qos: 1 },
        { ...base, topic: 7, action: 'publish' },
      ]) {
        const res = await acl(body);
        expect({ body, status: res.status }).toEqual({ body, status: 400 });
        expect(res.body).toMatchObject({ statusCode: 400, code: 'ValidationFailed', fields: expect.any(Array) });
      }
    });
  });
});

describe('MQTT HTTP hooks under a fleet’s load', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await hooksApp({ HTTP_RATE_LIMIT: '5' });
  });
  afterAll(() => t?.close());

  it('the broker’s token is not limited per address as anonymous callers are; a wrong token is', async () => {
    const ask = (token: string) =>
      t.http.post('/mqtt/acl', { clientid: 'A', username: 'A', topic: 'x', action: 'publish' }, { token });
    // One broker asks for a whole fleet from one address: far more than HTTP_RATE_LIMIT a minute.
    const answers = await Promise.all(Array.from({ length: 30 }, () => ask(HOOK_TOKEN)));
    expect(answers.map((r) => r.status)).toEqual(Array(30).fill(200));
    const anonymous = await Promise.all(Array.from({ length: 10 }, () => t.http.get('/health')));
    expect(anonymous.some((r) => r.status === 429)).toBe(true);
    expect([401, 429]).toContain((await ask(WRONG_TOKEN)).status);
  });
});
