import {
  buildSalesTopic,
  buildStatusTopic,
  buildTelemetryTopic,
  saleSchema,
  telemetryPayloadSchema,
} from '@wv/contracts';
import { afterEach, beforeEach, describe, expect, it } from '@jest/globals';
import type { TelemetryMessage } from './machine-health.js';
import { Machine, type MeteredSale } from './machine.js';
import type { MachineOptions } from './machine.types.js';
import { createRandom } from './prng.js';
import { TestServer } from './testing/test-server.js';

const ESP = 'ESP-TELE-1';
let server: TestServer;
let machines: Machine[];

function machine(options: Partial<MachineOptions> = {}): Machine {
  const m = new Machine({
    url: server.url,
    identity: { espId: ESP, deviceKey: 'key-1' },
    random: createRandom(21),
    reconnectDelayMs: 20,
    resendAfterMs: 0,
    dayCurve: false,
    ...options,
  });
  machines.push(m);
  return m;
}

const telemetry = () => server.payloads<TelemetryMessage>(buildTelemetryTopic(ESP));
const sales = () => server.sales(buildSalesTopic(ESP)) as MeteredSale[];
const statuses = () => server.payloads<{ online: boolean }>(buildStatusTopic(ESP)).map((s) => s.online);
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

beforeEach(async () => {
  server = await TestServer.start({ autoAck: true });
  machines = [];
});

afterEach(async () => {
  await Promise.all(machines.map((m) => m.stop()));
  await server.close();
});

describe('a machine’s telemetry', () => {
  it('is sent when the machine connects and then every interval, each message valid for the shared schema', async () => {
    const m = machine({ telemetryIntervalMs: 100 });
    m.start();
    await m.waitOnline();
    await server.waitFor('the first reading', () => telemetry().length >= 1);
    await server.waitFor('4 more readings', () => telemetry().length >= 5);
    for (const reading of telemetry()) expect(telemetryPayloadSchema.safeParse(reading).success).toBe(true);
    // Counted at each PUBACK, which may come a moment after the server has the message.
    await server.waitFor('5 PUBACKs', () => m.stats().telemetrySent >= 5);
  });

  it('is not sent at all without an interval', async () => {
    const m = machine();
    m.start();
    await m.waitOnline();
    m.sell();
    await server.waitFor('the sale', () => sales().length === 1);
    expect(telemetry()).toEqual([]);
  });

  it('shows the tank falling with the litres sold and the coin box filling with coin takings', async () => {
    const m = machine({ health: { tankCapacityLitres: 1_000, refillBelowPct: 0, coinBoxCapacity: 1_000_000 } });
    const before = m.readTelemetry();
    const sold = Array.from({ length: 20 }, () => m.sell());
    const after = m.readTelemetry();
    const litres = sold.reduce((sum, s) => sum + s.dispensed, 0);
    const coins = sold.filter((s) => s.kind === 'coin').reduce((sum, s) => sum + s.price, 0);
    expect(before.tankLevelPct - after.tankLevelPct).toBeCloseTo(litres / 10, 0);
    expect(after.coinBoxPct - before.coinBoxPct).toBeCloseTo(coins / 10_000, 0);
  });
});

describe('sales and the flow meter', () => {
  it('carry dispensed equal to the volume normally, and short while the flow meter fails; the schema takes both', async () => {
    const m = machine();
    m.start();
    await m.waitOnline();
    for (let i = 0; i < 10; i++) m.sell();
    m.startFault('flow-meter', 60_000);
    for (let i = 0; i < 10; i++) m.sell();
    m.endFault('flow-meter');
    m.sell();
    await server.waitFor('21 sales', () => sales().length === 21);
    const received = sales();
    for (const s of received) expect(saleSchema.safeParse(s).success).toBe(true);
    expect(received.slice(0, 10).every((s) => s.dispensed === s.volume)).toBe(true);
    expect(received.slice(10, 20).every((s) => s.dispensed < 0.9 * s.volume)).toBe(true);
    expect(received[20]!.dispensed).toBe(received[20]!.volume);
  });
});

describe('scripted faults', () => {
  it('low tank: the readings fall under 15 % while the supply is cut, and climb back after the fault ends', async () => {
    const m = machine({
      telemetryIntervalMs: 50,
      health: { tankCapacityLitres: 100, leakLitresPerMinute: 6_000, refillLitresPerMinute: 3_000 },
    });
    m.start();
    await m.waitOnline();
    m.startFault('low-tank', 800);
    expect(m.faultKinds).toEqual(['low-tank']);
    await server.waitFor('a low reading', () => telemetry().some((r) => r.tankLevelPct < 15), 5_000);
    await server.waitFor('the fault ends', () => m.faultKinds.length === 0, 5_000);
    const low = telemetry().length;
    await server.waitFor(
      'a refilled reading',
      () =>
        telemetry()
          .slice(low)
          .some((r) => r.tankLevelPct >= 20),
      5_000,
    );
  });

  it('TDS spike: readings above 500 ppm during the fault, normal again after', () => {
    // The membrane reacts within about 20 s of machine time: a clock 30 s further at every reading.
    let t = Date.parse('2026-11-25T10:00:00Z');
    const m = machine({ now: () => new Date((t += 30_000)) });
    expect(m.readTelemetry().tdsPpm).toBeLessThan(200);
    m.startFault('tds-spike', 60_000);
    const during = Array.from({ length: 6 }, () => m.readTelemetry().tdsPpm);
    expect(during.slice(2).every((tds) => tds > 500)).toBe(true);
    m.endFault('tds-spike');
    const after = Array.from({ length: 10 }, () => m.readTelemetry().tdsPpm);
    expect(after.slice(4).every((tds) => tds <= 500)).toBe(true);
  });

  it('dark: the will says offline, nothing is sold or sent while away, and it comes back by itself', async () => {
    const m = machine({ telemetryIntervalMs: 50, rate: 50 });
    m.start();
    await m.waitOnline();
    await server.waitFor('some sales', () => sales().length > 0);
    m.startFault('dark', 600);
    expect(m.online).toBe(false);
    await server.waitFor('the will', () => statuses().includes(false));
    const [salesAtDark, telemetryAtDark, generatedAtDark] = [sales().length, telemetry().length, m.stats().generated];
    await sleep(300);
    expect(m.stats().generated).toBe(generatedAtDark);
    expect(telemetry().length).toBe(telemetryAtDark);
    expect(sales().length).toBe(salesAtDark);
    await m.waitOnline(5_000);
    expect(m.faultKinds).toEqual([]);
    expect(statuses().at(-1)).toBe(true);
    await server.waitFor('sales again', () => m.stats().generated > generatedAtDark, 5_000);
    await server.waitFor('telemetry again', () => telemetry().length > telemetryAtDark, 5_000);
  });

  it('a random outage ending during a dark fault does not bring the machine back early', async () => {
    const m = machine();
    m.start();
    await m.waitOnline();
    m.goOffline(50);
    m.startFault('dark', 800);
    await sleep(400);
    expect(m.online).toBe(false);
    await m.waitOnline(5_000);
  });

  it('stop selling: online, still reporting, no sale until the fault ends', async () => {
    const m = machine({ telemetryIntervalMs: 50, rate: 50 });
    m.start();
    await m.waitOnline();
    await server.waitFor('some sales', () => m.stats().generated > 0);
    m.startFault('stop-selling', 500);
    const [generated, readings] = [m.stats().generated, telemetry().length];
    await sleep(300);
    expect(m.online).toBe(true);
    expect(m.stats().generated).toBe(generated);
    expect(telemetry().length).toBeGreaterThan(readings);
    await server.waitFor('sales again', () => m.stats().generated > generated, 5_000);
    expect(m.faultKinds).toEqual([]);
  });

  it('a machine paused by its caller stays paused when a fault that stopped sales ends', async () => {
    const m = machine({ rate: 50 });
    m.start();
    await m.waitOnline();
    m.pauseSelling();
    m.startFault('stop-selling', 100);
    await server.waitFor('the fault ends', () => m.faultKinds.length === 0);
    const generated = m.stats().generated;
    await sleep(200);
    expect(m.stats().generated).toBe(generated);
  });
});
