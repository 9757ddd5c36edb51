import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { randomUUID } from 'node:crypto';
import { createManager } from '../factories/fleet.factory.js';
import { TestMachine } from '../support/mqtt-machine.js';
import { createTestApp, TEST_ADMIN, type TestApp } from '../support/test-app.js';

const METRICS_TOKEN = 'scraper-token-0123456789abcdef';

describe('observability', () => {
  let t: TestApp;
  let admin: string;
  beforeAll(async () => {
    t = await createTestApp({ METRICS_TOKEN });
    admin = await t.http.login(TEST_ADMIN.email, TEST_ADMIN.password);
  });
  afterAll(() => t.close());

  it('serves Prometheus metrics to admins and to the METRICS_TOKEN, and to nobody else', async () => {
    const manager = await createManager(t.http, admin);
    const device = manager.devices[0]!;
    const sale = { eventId: randomUUID(), kind: 'coin', price: 100, volume: 2.5, waterType: 'cold' };
    await t.http.post(`/machines/${device.espId}/sales`, sale, { headers: { 'x-device-key': device.deviceKey } });
    await t.http.post(
      `/machines/${device.espId}/sales`,
      { nope: true },
      { headers: { 'x-device-key': device.deviceKey } },
    );

    const deadline = Date.now() + 10_000;
    let text = '';
    while (Date.now() < deadline) {
      text = (await t.http.get<string>('/metrics', { token: admin })).body;
      if (/wv_sales_ingested_total\{[^}]*\} 1\b/.test(text) && /wv_dead_letters_total\{[^}]*\} 1\b/.test(text)) break;
      await new Promise((r) => setTimeout(r, 200));
    }
    expect(text).toMatch(/wv_sales_ingested_total\{[^}]*\} 1\b/);
    expect(text).toMatch(/wv_dead_letters_total\{[^}]*\} 1\b/);
    expect(text).toMatch(/wv_sales_queue_depth/);
    expect(text).toMatch(/wv_machines_connected/);
    expect(text).toMatch(/wv_http_request_duration_seconds_bucket\{[^}]*route="\/api\/machines\/:espId\/sales"/);

    const scraper = await fetch(`${t.baseUrl}/api/metrics`, { headers: { authorization: `Bearer ${METRICS_TOKEN}` } });
    expect(scraper.status).toBe(200);
    expect(scraper.headers.get('content-type')).toMatch(/text\/plain/);
    expect((await t.http.get('/metrics')).status).toBe(401);
    expect((await t.http.get('/metrics', { token: manager.token })).status).toBe(403);
    expect((await t.http.get('/metrics', { token: 'wrong-token-0123456789abcdef' })).status).toBe(401);
  });

  it('counts how long MQTT sales waited in the broker before they were durable, as a histogram of every broker process', async () => {
    const manager = await createManager(t.http, admin);
    const device = manager.devices[0]!;
    const machine = await TestMachine.connect(t.mqttPort, device.espId, device.deviceKey);
    const sell = async (n: number) => {
      for (let i = 0; i < n; i++) {
        await machine.publishSales({ eventId: randomUUID(), kind: 'coin', price: 50, volume: 1, waterType: 'cold' });
      }
    };
    const bucket = (text: string, le: string) =>
      Number(
        new RegExp(`wv_broker_sale_durable_seconds_bucket\\{le="${le.replace('+', '\\+')}"[^}]*\\} (\\d+)`).exec(
          text,
        )?.[1],
      );
    // Each broker process adds its counts every few seconds (docs/operations.md, "Metrics and alerts").
    const scrapeUntil = async (count: number) => {
      const deadline = Date.now() + 15_000;
      let text = '';
      while (Date.now() < deadline) {
        text = (await t.http.get<string>('/metrics', { token: admin })).body;
        if (bucket(text, '+Inf') >= count) break;
        await new Promise((r) => setTimeout(r, 250));
      }
      return text;
    };
    let text: string;
    try {
      await sell(3);
      text = await scrapeUntil(3);
      expect(text).toMatch(/# TYPE wv_broker_sale_durable_seconds histogram/);
      expect(bucket(text, '+Inf')).toBe(3);
      expect(text).toMatch(/wv_broker_sale_durable_seconds_count\{[^}]*\} 3\n/);
      // A report adds what is new since the last one: counted again, the first three would make 6 or more here.
      await sell(2);
      text = await scrapeUntil(5);
      expect(bucket(text, '+Inf')).toBe(5);
    } finally {
      await machine.end();
    }
    // Cumulative: no bucket holds more than the next one.
    const les = [...text.matchAll(/wv_broker_sale_durable_seconds_bucket\{le="([^"]+)"/g)].map((m) => m[1]!);
    expect(les.at(-1)).toBe('+Inf');
    const counts = les.map((le) => bucket(text, le));
    expect(counts).toEqual([...counts].sort((a, b) => a - b));
    const sum = Number(/wv_broker_sale_durable_seconds_sum\{[^}]*\} ([\d.e-]+)/.exec(text)?.[1]);
    expect(sum).toBeGreaterThanOrEqual(0);
    expect(sum).toBeLessThan(30);
  });

  it('gives every response a request id, echoing a sane one from the caller', async () => {
    const own = await fetch(`${t.baseUrl}/api/health`, { headers: { 'x-request-id': 'trace-123' } });
    expect(own.headers.get('x-request-id')).toBe('trace-123');
    const generated = await fetch(`${t.baseUrl}/api/health`, { headers: { 'x-request-id': 'bad id with spaces' } });
    expect(generated.headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/);
  });

  it('answers liveness and readiness', async () => {
    expect(await t.http.get('/health/live')).toMatchObject({ status: 200, body: { status: 'ok' } });
    expect(await t.http.get('/health')).toMatchObject({
      status: 200,
      body: { status: 'ok', db: 'up', redis: 'up', mqtt: 'up' },
    });
  });
});
