/**
 * Anonymous internet, credential guessing (docs/security.md): someone who tries device keys over MQTT
 * or REST, or forged bearer tokens, from one address gets a bounded number of answers before that
 * address is refused for a while (over MQTT without a key lookup: CONNACK 5 instead of 4; over HTTP
 * 429). Only failures count: machines and users whose credentials hold are still served, from that
 * address too when the program verified them before, and other addresses are not affected.
 */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { buildSalesTopic } from '@wv/contracts';
import mqtt from 'mqtt';
import { randomUUID } from 'node:crypto';
import { request } from 'node:http';
import { createConnection } from 'node:net';
import { io } from 'socket.io-client';
import { provisionDevice } from '../../factories/fleet.factory.js';
import { createTestApp, TEST_ADMIN, type TestApp } from '../../support/test-app.js';
import { saleMessage } from '../../factories/sales.factory.js';

/** Wrong credentials answered normally from one address before it is refused. */
const FAILURES_ANSWERED = 20;

/** The whole of 127.0.0.0/8 is loopback on Linux: the guesser gets addresses of its own. */
const MQTT_GUESSER = '127.0.3.7';
const DEVICE_KEY_GUESSER = '127.0.3.8';
const TOKEN_FORGER = '127.0.3.9';
const SOCKET_FORGER = '127.0.3.10';

const sale = () => saleMessage();

/** CONNECTs as a machine from `localAddress`; resolves with the CONNACK code (0 = accepted) and closes. */
async function connackFrom(port: number, localAddress: string, espId: string, key: string): Promise<number> {
  const client = new mqtt.MqttClient(() => createConnection({ port, host: '127.0.0.1', localAddress }), {
    clientId: espId,
    username: espId,
    password: key,
    protocolVersion: 4,
    reconnectPeriod: 0,
    connectTimeout: 5000,
  });
  try {
    return await new Promise<number>((resolve, reject) => {
      client.once('connect', () => resolve(0));
      client.once('error', (error) => {
        const code = (error as { code?: unknown }).code;
        if (typeof code === 'number') resolve(code);
        else reject(error);
      });
    });
  } finally {
    await client.endAsync(true);
  }
}

/** One HTTP request from `localAddress`; resolves with the status and body. */
function httpFrom(
  t: TestApp,
  localAddress: string,
  method: string,
  path: string,
  headers: Record<string, string>,
  body?: unknown,
): Promise<{ status: number; body: any }> {
  const url = new URL(`${t.baseUrl}/api${path}`);
  const payload = body === undefined ? undefined : JSON.stringify(body);
  return new Promise((resolve, reject) => {
    const req = request(
      {
        host: url.hostname,
        port: url.port,
        path: url.pathname,
        method,
        localAddress,
        headers: {
          ...headers,
          ...(payload ? { 'content-type': 'application/json', 'content-length': Buffer.byteLength(payload) } : {}),
        },
        timeout: 20_000,
      },
      (res) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => (text += chunk));
        res.once('end', () => resolve({ status: res.statusCode ?? 0, body: text ? JSON.parse(text) : undefined }));
      },
    );
    req.once('error', reject);
    req.once('timeout', () => req.destroy(new Error(`${method} ${path} timed out`)));
    req.end(payload);
  });
}

describe('credential guessing is limited per client address', () => {
  let t: TestApp;
  let adminToken: string;

  beforeAll(async () => {
    t = await createTestApp();
    adminToken = await t.http.login(TEST_ADMIN.email, TEST_ADMIN.password);
  });
  afterAll(() => t.close());

  it('refuses MQTT connects from an address that keeps presenting wrong device keys without looking keys up, and keeps serving known machines and other addresses', async () => {
    const known = await provisionDevice(t.http, adminToken);
    const target = await provisionDevice(t.http, adminToken);
    expect(await connackFrom(t.mqttPort, MQTT_GUESSER, known.espId, known.deviceKey)).toBe(0);

    for (let i = 0; i < FAILURES_ANSWERED; i++) {
      expect(await connackFrom(t.mqttPort, MQTT_GUESSER, target.espId, `guess-${i}-${randomUUID()}`)).toBe(4);
    }
    // From now on this address is refused before any key lookup: "not authorized", not "bad key".
    expect(await connackFrom(t.mqttPort, MQTT_GUESSER, target.espId, `guess-${randomUUID()}`)).toBe(5);
    expect(await connackFrom(t.mqttPort, MQTT_GUESSER, target.espId, target.deviceKey)).toBe(5);
    // A machine whose key the broker verified recently is known without a lookup: it still connects.
    expect(await connackFrom(t.mqttPort, MQTT_GUESSER, known.espId, known.deviceKey)).toBe(0);
    // Other addresses are not affected.
    expect(await connackFrom(t.mqttPort, '127.0.0.1', target.espId, target.deviceKey)).toBe(0);
  });

  it('answers 429 to an address that keeps sending wrong device keys over REST, and keeps serving known machines and other addresses', async () => {
    const known = await provisionDevice(t.http, adminToken);
    const target = await provisionDevice(t.http, adminToken);
    const post = (from: string, espId: string, key: string) =>
      httpFrom(t, from, 'POST', `/machines/${espId}/sales`, { 'x-device-key': key }, sale());
    expect((await post(DEVICE_KEY_GUESSER, known.espId, known.deviceKey)).status).toBe(202);

    for (let i = 0; i < FAILURES_ANSWERED; i++) {
      const res = await post(DEVICE_KEY_GUESSER, target.espId, `guess-${i}-${randomUUID()}`);
      expect(res.status).toBe(401);
    }
    const limited = await post(DEVICE_KEY_GUESSER, target.espId, `guess-${randomUUID()}`);
    expect(limited.status).toBe(429);
    expect(limited.body.code).toBe('RateLimited');
    expect((await post(DEVICE_KEY_GUESSER, target.espId, target.deviceKey)).status).toBe(429);

    expect((await post(DEVICE_KEY_GUESSER, known.espId, known.deviceKey)).status).toBe(202);
    expect((await post('127.0.0.1', target.espId, target.deviceKey)).status).toBe(202);
    expect((await post('127.0.0.1', target.espId, 'a-wrong-key')).status).toBe(401);
  });

  it('answers 429 to an address that keeps presenting forged bearer tokens, and keeps serving real tokens and other addresses', async () => {
    const [header, payload] = adminToken.split('.');
    const forged = () => `${header}.${payload}.${Buffer.from(randomUUID()).toString('base64url')}`;
    const userInfo = (from: string, token: string) =>
      httpFrom(t, from, 'GET', '/user/info', { authorization: `Bearer ${token}` });

    for (let i = 0; i < FAILURES_ANSWERED; i++) {
      expect((await userInfo(TOKEN_FORGER, forged())).status).toBe(401);
    }
    const limited = await userInfo(TOKEN_FORGER, forged());
    expect(limited.status).toBe(429);
    expect(limited.body.code).toBe('RateLimited');
    expect((await userInfo(TOKEN_FORGER, 'not.a.token')).status).toBe(429);

    expect((await userInfo(TOKEN_FORGER, adminToken)).status).toBe(200);
    expect((await userInfo('127.0.0.1', forged())).status).toBe(401);
  });

  it('counts forged tokens on the live Socket.IO handshake like those over HTTP, and keeps serving real tokens', async () => {
    const [header, payload] = adminToken.split('.');
    const forged = () => `${header}.${payload}.${Buffer.from(randomUUID()).toString('base64url')}`;
    /** Resolves with "connected" or the refusal's code. */
    const handshake = (token: string) =>
      new Promise<string>((resolve) => {
        const socket = io(t.baseUrl, {
          transports: ['websocket'],
          auth: { token },
          reconnection: false,
          localAddress: SOCKET_FORGER,
        } as Parameters<typeof io>[1]);
        socket.on('connect', () => {
          socket.close();
          resolve('connected');
        });
        socket.on('connect_error', (error) => {
          socket.close();
          resolve(String((error as { data?: { code?: string } }).data?.code));
        });
      });

    for (let i = 0; i < FAILURES_ANSWERED; i++) expect(await handshake(forged())).toBe('Unauthorized');
    expect(await handshake(forged())).toBe('RateLimited');
    // The address shares one budget over both doors: HTTP is refused too.
    expect(
      (await httpFrom(t, SOCKET_FORGER, 'GET', '/user/info', { authorization: `Bearer ${forged()}` })).status,
    ).toBe(429);
    expect(await handshake(adminToken)).toBe('connected');
  });

  it('keeps machines with the right key selling over MQTT from the same address however many connect', async () => {
    const devices = await Promise.all(Array.from({ length: 30 }, () => provisionDevice(t.http, adminToken)));
    for (const device of devices)
      expect(await connackFrom(t.mqttPort, '127.0.0.1', device.espId, device.deviceKey)).toBe(0);
    const client = await mqtt.connectAsync(`mqtt://127.0.0.1:${t.mqttPort}`, {
      clientId: devices[0]!.espId,
      username: devices[0]!.espId,
      password: devices[0]!.deviceKey,
      protocolVersion: 4,
      reconnectPeriod: 0,
    });
    await client.publishAsync(buildSalesTopic(devices[0]!.espId), JSON.stringify(sale()), { qos: 1 });
    await client.endAsync(true);
  });
});
