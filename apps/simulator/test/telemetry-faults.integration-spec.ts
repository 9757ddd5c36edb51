/**
 * The simulator against the real program (PostgreSQL, Redis, the embedded broker): a simulated machine
 * reports telemetry and runs scripted faults, and the server's machine health and alarms follow, opening
 * while the fault lasts and clearing by themselves after it ends (docs/alarms.md).
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from '@jest/globals';
import type { Alarm, TelemetryReading } from '@wv/contracts';
import { FaultScheduler, Fleet, type FaultStep } from '@wv/simulator';
import { provisionDevice } from '../../api/test/factories/fleet.factory.js';
import { waitFor } from '../../api/test/support/mqtt-machine.js';
import { createTestApp, TEST_ADMIN, type TestApp } from '../../api/test/support/test-app.js';

const LONG = 30_000;

describe('simulated machines with scripted faults against the real program', () => {
  let t: TestApp;
  let admin: string;
  let fleet: Fleet | undefined;
  let scheduler: FaultScheduler | undefined;

  const alarms = async (espId: string, kind: string) => {
    const res = await t.http.get<{ data: Alarm[] }>(`/alarms?status=all&machineId=${espId}&kind=${kind}`, {
      token: admin,
    });
    if (res.status !== 200) throw new Error(`GET /alarms: ${res.status} ${JSON.stringify(res.body)}`);
    return res.body.data;
  };
  /** The readings since `from`: over a minute or two the 2,000 points are the readings themselves, not averages. */
  const telemetry = async (espId: string, from: Date) => {
    const range = `from=${from.toISOString()}&to=${new Date(Date.now() + 1_000).toISOString()}`;
    const res = await t.http.get<{ data: TelemetryReading[] }>(`/machines/${espId}/telemetry?${range}`, {
      token: admin,
    });
    if (res.status !== 200) throw new Error(`GET telemetry: ${res.status} ${JSON.stringify(res.body)}`);
    return res.body.data;
  };

  beforeAll(async () => {
    // The time-driven rules (offline, no sales) are checked every second instead of every minute.
    t = await createTestApp({ ALARM_SWEEP_INTERVAL_MS: '1000' });
    admin = await t.http.login(TEST_ADMIN.email, TEST_ADMIN.password);
  });
  afterEach(async () => {
    scheduler?.stop();
    await fleet?.stop();
    fleet = undefined;
  });
  afterAll(() => t.close());

  it('a low tank and a TDS spike from the schedule: telemetry is stored, both alarms open, and both clear by themselves', async () => {
    const device = await provisionDevice(t.http, admin);
    const started = new Date();
    fleet = new Fleet({
      url: `mqtt://127.0.0.1:${t.mqttPort}`,
      identities: [device],
      rate: 0,
      seed: 5,
      telemetryIntervalMs: 250,
      // A 100-litre tank that a cut supply drains within a second and the float valve refills as fast,
      // and a membrane that reacts within a second rather than a minute.
      health: {
        tankCapacityLitres: 100,
        leakLitresPerMinute: 6_000,
        refillLitresPerMinute: 6_000,
        membraneResponseSeconds: 0.3,
      },
    });
    await fleet.start(10_000);
    const steps: FaultStep[] = [
      { kind: 'low-tank', machine: 1, afterSeconds: 0.5, forSeconds: 3 },
      { kind: 'tds-spike', machine: 1, afterSeconds: 0.5, forSeconds: 3 },
    ];
    scheduler = new FaultScheduler(steps, (ref) => fleet!.resolve(ref));
    scheduler.start();

    const lowTank = await waitFor(
      () => alarms(device.espId, 'low_tank'),
      (a) => a.length === 1,
      LONG,
    );
    expect(lowTank[0]).toMatchObject({ machineId: device.espId, kind: 'low_tank', severity: 'major' });
    const spike = await waitFor(
      () => alarms(device.espId, 'water_quality'),
      (a) => a.length === 1,
      LONG,
    );
    expect(spike[0]).toMatchObject({ kind: 'water_quality', severity: 'critical' });

    // The readings the machine sent are the ones stored: low while the supply was cut, high TDS.
    const stored = await telemetry(device.espId, started);
    expect(stored.some((r) => r.tankLevelPct !== null && r.tankLevelPct < 15)).toBe(true);
    expect(stored.some((r) => r.tdsPpm !== null && r.tdsPpm > 500)).toBe(true);
    expect(fleet.machines[0]!.stats().telemetrySent).toBeGreaterThan(0);

    // The faults end by themselves after 3 s; the next readings clear both alarms.
    const [cleared] = await waitFor(
      () => alarms(device.espId, 'low_tank'),
      (a) => a[0]?.status === 'cleared',
      LONG,
    );
    expect(cleared).toMatchObject({ clearedBy: 'auto' });
    await waitFor(
      () => alarms(device.espId, 'water_quality'),
      (a) => a[0]?.status === 'cleared' && a[0]?.clearedBy === 'auto',
      LONG,
    );
    expect(fleet.machines[0]!.faultKinds).toEqual([]);
  });

  it('a failing flow meter: sales carry the short dispensed litres and a short_dispense alarm opens', async () => {
    const device = await provisionDevice(t.http, admin);
    fleet = new Fleet({ url: `mqtt://127.0.0.1:${t.mqttPort}`, identities: [device], rate: 0, seed: 9 });
    await fleet.start(10_000);
    const machine = fleet.machines[0]!;
    const good = machine.sell({ kind: 'coin', cardId: undefined });
    fleet.startFault(1, 'flow-meter', 60_000);
    const short = [1, 2, 3].map(() => machine.sell({ kind: 'coin', cardId: undefined, volume: 10, price: 300 }));
    await fleet.drain(LONG);

    const rows: { event_id: string; volume: string; dispensed: string }[] = await t.dataSource.query(
      `SELECT event_id, volume::text, dispensed::text FROM sales WHERE esp_id = $1 ORDER BY event_id`,
      [device.espId],
    );
    const byId = new Map(rows.map((r) => [r.event_id, Number(r.dispensed)]));
    expect(byId.get(good.eventId)).toBe(good.volume);
    for (const s of short) {
      expect(byId.get(s.eventId)).toBe(s.dispensed);
      expect(s.dispensed).toBeLessThan(9);
    }
    const [alarm] = await waitFor(
      () => alarms(device.espId, 'short_dispense'),
      (a) => a.length === 1,
      LONG,
    );
    expect(alarm).toMatchObject({ kind: 'short_dispense', status: 'open' });
  });

  it('a machine gone dark and one that stops selling: offline and no_sales open past their thresholds and clear when the faults end', async () => {
    const [dark, idle] = [await provisionDevice(t.http, admin), await provisionDevice(t.http, admin)];
    for (const d of [dark, idle]) {
      // The shortest thresholds the settings allow, all day long.
      const put = await t.http.put(
        `/machines/${d.espId}/alarm-settings`,
        { offlineAfterMinutes: 1, noSalesAfterMinutes: 1, businessHours: { from: '00:00', to: '00:00' } },
        { token: admin },
      );
      expect(put.status).toBe(200);
    }
    fleet = new Fleet({
      url: `mqtt://127.0.0.1:${t.mqttPort}`,
      identities: [dark, idle],
      rate: 4,
      dayCurve: false,
      seed: 13,
      telemetryIntervalMs: 5_000,
    });
    await fleet.start(10_000);
    await waitFor(
      async () => fleet!.machines.map((m) => m.stats().acked),
      (acked) => acked.every((n) => n > 0),
      LONG,
    );
    scheduler = new FaultScheduler(
      [
        { kind: 'dark', machine: dark.espId, afterSeconds: 0, forSeconds: 75 },
        { kind: 'stop-selling', machine: 2, afterSeconds: 0, forSeconds: 75 },
      ],
      (ref) => fleet!.resolve(ref),
    );
    const faultsFrom = Date.now();
    scheduler.start();
    // A new machine may have had a no_sales alarm before its first sale: only those opened since count.
    const openedSince = async (espId: string, kind: string) =>
      (await alarms(espId, kind)).filter((x) => Date.parse(x.openedAt) >= faultsFrom);

    const [offline] = await waitFor(
      () => openedSince(dark.espId, 'offline'),
      (a) => a.length === 1,
      110_000,
    );
    expect(offline).toMatchObject({ severity: 'critical' });
    const [noSales] = await waitFor(
      () => openedSince(idle.espId, 'no_sales'),
      (a) => a.length === 1,
      110_000,
    );
    expect(noSales).toMatchObject({ severity: 'major' });
    // Both past their one-minute thresholds, not before.
    expect(Date.parse(offline!.openedAt) - faultsFrom).toBeGreaterThanOrEqual(59_000);
    expect(Date.parse(noSales!.openedAt) - faultsFrom).toBeGreaterThanOrEqual(55_000);
    // The idle machine stayed online all along: no offline alarm for it.
    expect(await alarms(idle.espId, 'offline')).toEqual([]);

    for (const [espId, alarm] of [
      [dark.espId, offline!],
      [idle.espId, noSales!],
    ] as const) {
      await waitFor(
        async () => (await alarms(espId, alarm.kind)).find((x) => x.id === alarm.id),
        (x) => x?.status === 'cleared' && x.clearedBy === 'auto',
        90_000,
      );
    }
  }, 300_000);
});
