import { afterAll, beforeAll, describe, expect, it, jest } from '@jest/globals';
import { buildTelemetryTopic, type AlarmKind } from '@wv/contracts';
import { AlarmNotices } from '../../src/alarm/alarm-notices.js';
import { AlarmSweepService } from '../../src/alarm/alarm-sweep.service.js';
import { TelemetryIngestService } from '../../src/alarm/telemetry-ingest.service.js';
import type { AlarmNotice } from '../../src/alarm-notice/alarm-notifier.port.js';
import { MachineStatusService } from '../../src/device-bridge/machine-status.service.js';
import { createManager } from '../factories/fleet.factory.js';
import { saleMessage } from '../factories/sales.factory.js';
import { TestMachine, waitFor } from '../support/mqtt-machine.js';
import { createTestApp, TEST_ADMIN, type TestApp } from '../support/test-app.js';

const MINUTE = 60_000;

interface AlarmRow {
  id: string;
  esp_id: string;
  kind: AlarmKind;
  severity: string;
  status: string;
  cleared_by: string | null;
  escalated: boolean;
  details: Record<string, unknown>;
}

/**
 * Every alarm rule of docs/alarms.md opens and clears, against the real PostgreSQL and Redis: telemetry
 * through the broker and the worker, sales through the ingest, and the sweep at chosen instants.
 */
describe('alarm rules', () => {
  let t: TestApp;
  let admin: string;
  let manager: Awaited<ReturnType<typeof createManager>>;
  let enqueue: jest.SpiedFunction<AlarmNotices['enqueue']>;
  let sweep: AlarmSweepService;
  let telemetry: TelemetryIngestService;
  let spare: { espId: string; deviceKey: string }[];

  const take = () => {
    const device = spare.shift();
    if (!device) throw new Error('no spare device left: raise the count in beforeAll');
    return device;
  };
  const alarmsOf = (espId: string, kind?: AlarmKind): Promise<AlarmRow[]> =>
    t.dataSource.query(
      `SELECT * FROM alarms WHERE esp_id = $1 AND ($2::text IS NULL OR kind = $2) ORDER BY opened_at, id`,
      [espId, kind ?? null],
    );
  const activeOf = async (espId: string, kind: AlarmKind) =>
    (await alarmsOf(espId, kind)).filter((a) => a.status !== 'cleared');
  const notices = (alarmId: string): AlarmNotice[] =>
    enqueue.mock.calls.flatMap((call) => call[1]).filter((n) => n.alarmId === alarmId);
  // Each reading a millisecond after the one before, across calls too: a reading older than the newest one
  // applied decides nothing (docs/alarms.md), and two calls within the same few milliseconds must not
  // make one reading older than another.
  let lastReadingAt = 0;
  const read = (espId: string, ...readings: object[]) =>
    telemetry.ingest(
      readings.map((r) => {
        lastReadingAt = Math.max(Date.now(), lastReadingAt + 1);
        return { espId, payload: JSON.stringify(r), receivedAt: new Date(lastReadingAt).toISOString() };
      }),
    );
  const settings = async (espId: string, body: object) => {
    const res = await t.http.put(`/machines/${espId}/alarm-settings`, body, { token: manager.token });
    expect(res.status).toBe(200);
    return res.body;
  };
  const setLastSeen = (espId: string, at: Date, online: boolean) =>
    t.dataSource.query(`UPDATE devices SET online = $3, last_seen_at = $2 WHERE esp_id = $1`, [
      espId,
      at.toISOString(),
      online,
    ]);

  beforeAll(async () => {
    // The scheduled sweep ticks once an hour here: the tests run the sweep themselves at chosen instants.
    t = await createTestApp({ ALARM_SWEEP_INTERVAL_MS: '3600000' });
    admin = await t.http.login(TEST_ADMIN.email, TEST_ADMIN.password);
    manager = await createManager(t.http, admin, 23);
    spare = [...manager.devices];
    enqueue = jest.spyOn(t.running.app.get(AlarmNotices), 'enqueue');
    sweep = t.running.app.get(AlarmSweepService);
    telemetry = t.running.app.get(TelemetryIngestService);
  }, 120_000);
  afterAll(() => t.close());

  it('stores telemetry published over MQTT, shows it as the machine health, and opens low_tank below 15 % until the level reaches 20 %', async () => {
    const device = take();
    const machine = await TestMachine.connect(t.mqttPort, device.espId, device.deviceKey);
    try {
      const publish = (body: object) =>
        machine.client.publishAsync(buildTelemetryTopic(device.espId), JSON.stringify(body), { qos: 1 });
      await publish({ tankLevelPct: 40, tdsPpm: 120, coldWaterTempC: 8, coinBoxPct: 10, errorCode: null });
      const health = await waitFor(
        () => t.http.get(`/machines/${device.espId}/health`, { token: manager.token }),
        (r) => r.body.telemetry?.tankLevelPct === 40,
        20_000,
      );
      expect(health.body).toMatchObject({
        machineId: device.espId,
        online: true,
        telemetry: { tankLevelPct: 40, tdsPpm: 120, coldWaterTempC: 8, coinBoxPct: 10, errorCode: null },
        activeAlarms: [],
        maintenanceUntil: null,
      });

      await publish({ tankLevelPct: 12 });
      const [opened] = await waitFor(
        () => activeOf(device.espId, 'low_tank'),
        (rows) => rows.length === 1,
        20_000,
      );
      expect(opened).toMatchObject({ severity: 'major', status: 'open' });
      expect(opened!.details).toMatchObject({ tankLevelPct: 12, lowTankPct: 15 });
      expect(notices(opened!.id)).toEqual([
        expect.objectContaining({ event: 'opened', espId: device.espId, kind: 'low_tank', ownerId: manager.userId }),
      ]);

      // Between 15 and 20 it neither clears nor opens a second alarm.
      await publish({ tankLevelPct: 17 });
      await publish({ tankLevelPct: 10 });
      await publish({ tankLevelPct: 20 });
      const [cleared] = await waitFor(
        () => alarmsOf(device.espId, 'low_tank'),
        (rows) => rows[0]?.status === 'cleared',
        20_000,
      );
      expect(cleared).toMatchObject({ id: opened!.id, cleared_by: 'auto' });
      expect(await alarmsOf(device.espId, 'low_tank')).toHaveLength(1);
      expect(notices(opened!.id)).toHaveLength(1);
    } finally {
      await machine.end();
    }
  });

  it('opens water_quality above maxTdsPpm and clears it at a reading at or under it', async () => {
    const { espId } = take();
    await read(espId, { tdsPpm: 500 });
    expect(await alarmsOf(espId)).toEqual([]);
    await read(espId, { tdsPpm: 501.5 });
    const [open] = await activeOf(espId, 'water_quality');
    expect(open).toMatchObject({ severity: 'critical', details: expect.objectContaining({ tdsPpm: 501.5 }) });
    await read(espId, { tdsPpm: 800 });
    expect(await alarmsOf(espId, 'water_quality')).toHaveLength(1);
    await read(espId, { tdsPpm: 500 });
    expect(await alarmsOf(espId, 'water_quality')).toEqual([
      expect.objectContaining({ id: open!.id, status: 'cleared', cleared_by: 'auto' }),
    ]);
  });

  it('opens water_temperature only after three readings in a row above the maximum, and clears it at one at or under it', async () => {
    const { espId } = take();
    await read(espId, { coldWaterTempC: 13 }, { coldWaterTempC: 14 }, { coldWaterTempC: 12 }, { coldWaterTempC: 13 });
    await read(espId, { coldWaterTempC: 13 });
    expect(await alarmsOf(espId)).toEqual([]);
    // Readings without a temperature do not break the run.
    await read(espId, { tankLevelPct: 50 });
    await read(espId, { coldWaterTempC: 15 });
    const [open] = await activeOf(espId, 'water_temperature');
    expect(open).toMatchObject({ severity: 'minor', details: expect.objectContaining({ readings: 3 }) });
    await read(espId, { coldWaterTempC: 12 });
    expect((await alarmsOf(espId, 'water_temperature'))[0]).toMatchObject({ status: 'cleared', cleared_by: 'auto' });
  });

  it('opens coin_box_full at 90 % and clears it under 90 %', async () => {
    const { espId } = take();
    await read(espId, { coinBoxPct: 89.99 });
    expect(await alarmsOf(espId)).toEqual([]);
    await read(espId, { coinBoxPct: 90 });
    expect(await activeOf(espId, 'coin_box_full')).toEqual([expect.objectContaining({ severity: 'minor' })]);
    await read(espId, { coinBoxPct: 89.5 });
    expect(await activeOf(espId, 'coin_box_full')).toEqual([]);
  });

  it('opens device_error on an error code, keeps it while readings leave errorCode out, and clears it on null', async () => {
    const { espId } = take();
    await read(espId, { errorCode: 'E42-FLOW' });
    const [open] = await activeOf(espId, 'device_error');
    expect(open).toMatchObject({ severity: 'major', details: expect.objectContaining({ errorCode: 'E42-FLOW' }) });
    await read(espId, { tankLevelPct: 70 });
    expect(await activeOf(espId, 'device_error')).toHaveLength(1);
    await read(espId, { errorCode: null });
    expect(await activeOf(espId, 'device_error')).toEqual([]);
  });

  it('closes the connection of a machine that publishes telemetry for another machine, whose health stays as it was', async () => {
    const [mine, theirs] = [take(), take()];
    const machine = await TestMachine.connect(t.mqttPort, mine.espId, mine.deviceKey);
    const closed = new Promise<void>((resolve) => machine.client.once('close', () => resolve()));
    machine.client.publish(buildTelemetryTopic(theirs.espId), JSON.stringify({ tankLevelPct: 1, errorCode: 'X' }), {
      qos: 1,
    });
    await closed;
    await machine.end();
    await new Promise((r) => setTimeout(r, 300));
    expect(await t.dataSource.query(`SELECT * FROM telemetry WHERE esp_id = $1`, [theirs.espId])).toEqual([]);
    expect(await alarmsOf(theirs.espId)).toEqual([]);
  });

  it('drops invalid telemetry and readings too far in the future, and applies none older than the newest', async () => {
    const { espId } = take();
    await read(
      espId,
      { tankLevelPct: 101 },
      { tankLevelPct: 5, colour: 'blue' },
      { tankLevelPct: '5' },
      { tankLevelPct: 5, time: new Date(Date.now() + 10 * MINUTE).toISOString() },
    );
    await telemetry.ingest([{ espId, payload: 'not json', receivedAt: new Date().toISOString() }]);
    expect(await t.dataSource.query(`SELECT * FROM telemetry WHERE esp_id = $1`, [espId])).toEqual([]);
    await read(espId, { tankLevelPct: 60 });
    // Stored (it is history), but the newer reading stays the latest and decides the alarm.
    await read(espId, { tankLevelPct: 5, time: new Date(Date.now() - 30 * MINUTE).toISOString() });
    expect(await t.dataSource.query(`SELECT count(*)::int AS n FROM telemetry WHERE esp_id = $1`, [espId])).toEqual([
      { n: 2 },
    ]);
    expect(await alarmsOf(espId)).toEqual([]);
    const health = await t.http.get(`/machines/${espId}/health`, { token: manager.token });
    expect(health.body.telemetry.tankLevelPct).toBe(60);
  });

  it('opens offline after offlineAfterMinutes without a connection and clears it when the machine connects', async () => {
    const device = take();
    const now = Date.now();
    await setLastSeen(device.espId, new Date(now - 9 * MINUTE), false);
    await sweep.sweep(new Date(now));
    expect(await alarmsOf(device.espId)).toEqual([]);
    await sweep.sweep(new Date(now + MINUTE));
    const [open] = await activeOf(device.espId, 'offline');
    expect(open).toMatchObject({ severity: 'critical', status: 'open' });
    expect(notices(open!.id)).toHaveLength(1);
    // A second sweep opens nothing more.
    await sweep.sweep(new Date(now + 2 * MINUTE));
    expect(await alarmsOf(device.espId, 'offline')).toHaveLength(1);

    const machine = await TestMachine.connect(t.mqttPort, device.espId, device.deviceKey);
    try {
      await waitFor(
        () => alarmsOf(device.espId, 'offline'),
        (rows) => rows[0]?.status === 'cleared' && rows[0]?.cleared_by === 'auto',
        20_000,
      );
    } finally {
      await machine.end();
    }
  });

  it('reopens the same offline alarm of a machine flapping online and offline every few seconds, sending nothing new, and opens a new one after the flap window', async () => {
    const device = take();
    await settings(device.espId, { offlineAfterMinutes: 1 });
    let first: AlarmRow | undefined;
    for (let flap = 0; flap < 4; flap++) {
      const machine = await TestMachine.connect(t.mqttPort, device.espId, device.deviceKey);
      const online = () => t.dataSource.query(`SELECT online FROM devices WHERE esp_id = $1`, [device.espId]);
      await waitFor(online, (rows: { online: boolean }[]) => rows[0]?.online === true, 20_000);
      // Connected: any offline alarm clears by itself.
      await waitFor(
        () => activeOf(device.espId, 'offline'),
        (rows) => rows.length === 0,
        20_000,
      );
      await machine.end();
      await waitFor(online, (rows: { online: boolean }[]) => rows[0]?.online === false, 20_000);
      // Two workers' sweeps a couple of minutes into the outage.
      const at = new Date(Date.now() + 2 * MINUTE);
      await Promise.all([sweep.sweep(at), sweep.sweep(at)]);
      const rows = await alarmsOf(device.espId, 'offline');
      expect(rows).toHaveLength(1);
      expect(rows[0]!.status).toBe('open');
      first ??= rows[0];
      expect(rows[0]!.id).toBe(first!.id);
      expect(rows[0]!.details.reopened ?? 0).toBe(flap);
    }
    expect(notices(first!.id)).toHaveLength(1);

    // Cleared more than 15 minutes before the next outage: a new alarm, with its own message.
    await t.dataSource.query(
      `UPDATE alarms SET status = 'cleared', cleared_by = 'auto', cleared_at = now() - interval '16 minutes' WHERE id = $1`,
      [first!.id],
    );
    await sweep.sweep(new Date(Date.now() + 2 * MINUTE));
    const rows = await alarmsOf(device.espId, 'offline');
    expect(rows).toHaveLength(2);
    expect(rows[1]!.status).toBe('open');
    expect(notices(rows[1]!.id)).toHaveLength(1);
  });

  it('opens no_sales only inside business hours, across midnight, counting from the later of the last sale and the opening of the window', async () => {
    // Africa/Dar_es_Salaam is UTC+3 all year: local 20:00 is 17:00Z.
    const night = take();
    await settings(night.espId, { businessHours: { from: '20:00', to: '04:00' }, noSalesAfterMinutes: 60 });
    await setLastSeen(night.espId, new Date(), true);
    const day = (h: number, m = 0) => new Date(Date.UTC(2031, 2, 10, h - 3, m));
    await sweep.sweep(day(12)); // outside business hours
    await sweep.sweep(day(20, 30)); // 30 minutes into them
    await sweep.sweep(day(4, 30)); // outside (the window closed at 04:00)
    expect(await alarmsOf(night.espId)).toEqual([]);
    await sweep.sweep(day(21, 1)); // 61 minutes into them
    const [open] = await activeOf(night.espId, 'no_sales');
    expect(open).toMatchObject({ severity: 'major' });
    expect(open!.details.since).toBe(day(20).toISOString());

    // After midnight the window still started the evening before.
    const late = take();
    await settings(late.espId, { businessHours: { from: '20:00', to: '04:00' }, noSalesAfterMinutes: 300 });
    await setLastSeen(late.espId, new Date(), true);
    await sweep.sweep(day(0, 59));
    expect(await alarmsOf(late.espId)).toEqual([]);
    await sweep.sweep(day(1, 1));
    expect((await activeOf(late.espId, 'no_sales'))[0]!.details.since).toBe(
      new Date(day(20).getTime() - 24 * 60 * MINUTE).toISOString(),
    );

    // An offline machine is the offline rule's business, not this one's.
    const dark = take();
    await setLastSeen(dark.espId, new Date(), false);
    await sweep.sweep(day(21, 1));
    expect(await activeOf(dark.espId, 'no_sales')).toEqual([]);

    // A sale clears it.
    const machine = await TestMachine.connect(
      t.mqttPort,
      night.espId,
      manager.devices.find((d) => d.espId === night.espId)!.deviceKey,
    );
    try {
      const sale = saleMessage();
      await machine.publishSales(sale);
      await machine.waitForAcks([sale.eventId], 20_000);
      await waitFor(
        () => alarmsOf(night.espId, 'no_sales'),
        (rows) => rows[0]?.status === 'cleared',
        20_000,
      );
      // With that sale (now) and the default 06:00–22:00 window, an hour later nothing opens.
      await settings(night.espId, { businessHours: { from: '00:00', to: '00:00' } });
      await sweep.sweep(new Date(Date.now() + 59 * MINUTE));
      expect(await activeOf(night.espId, 'no_sales')).toEqual([]);
      await sweep.sweep(new Date(Date.now() + 61 * MINUTE));
      expect(await activeOf(night.espId, 'no_sales')).toHaveLength(1);
    } finally {
      await machine.end();
    }
  });

  it('starts the no_sales clock no earlier than the machine connected', async () => {
    const device = take();
    await settings(device.espId, { businessHours: { from: '00:00', to: '00:00' }, noSalesAfterMinutes: 30 });
    const machine = await TestMachine.connect(t.mqttPort, device.espId, device.deviceKey);
    try {
      const [health] = await waitFor(
        () => t.dataSource.query(`SELECT online_since FROM machine_health WHERE esp_id = $1`, [device.espId]),
        (rows: { online_since: Date | null }[]) => rows[0]?.online_since != null,
        20_000,
      );
      const since = (health as { online_since: Date }).online_since.getTime();
      await sweep.sweep(new Date(since + 29 * MINUTE));
      expect(await alarmsOf(device.espId, 'no_sales')).toEqual([]);
      await sweep.sweep(new Date(since + 31 * MINUTE));
      const [open] = await activeOf(device.espId, 'no_sales');
      expect(open!.details).toMatchObject({ lastSaleAt: null, since: new Date(since).toISOString() });
    } finally {
      await machine.end();
    }
  });

  it('opens short_dispense at the third sale within an hour dispensed under 90 % of its volume, and clears it after an hour without one', async () => {
    const device = take();
    const machine = await TestMachine.connect(t.mqttPort, device.espId, device.deviceKey);
    try {
      const publish = async (overrides: Record<string, unknown>) => {
        const sale = saleMessage(overrides);
        await machine.publishSales(sale);
        await machine.waitForAcks([sale.eventId], 20_000);
      };
      await publish({ volume: 10, dispensed: 8.9 });
      await publish({ volume: 10, dispensed: 9 }); // exactly 90 %: not short
      await publish({ volume: 10, dispensed: 5 });
      await publish({ volume: 10 }); // no flow-meter reading: not short
      await new Promise((r) => setTimeout(r, 500));
      expect(await alarmsOf(device.espId, 'short_dispense')).toEqual([]);
      await publish({ volume: 20, dispensed: 1 });
      const [open] = await waitFor(
        () => activeOf(device.espId, 'short_dispense'),
        (rows) => rows.length === 1,
        20_000,
      );
      expect(open!.details).toMatchObject({ shortSales: 3, volume: 20, dispensed: 1 });
      expect(notices(open!.id)).toHaveLength(1);

      await sweep.sweep(new Date(Date.now() + 59 * MINUTE));
      expect(await activeOf(device.espId, 'short_dispense')).toHaveLength(1);
      await sweep.sweep(new Date(Date.now() + 61 * MINUTE));
      expect((await alarmsOf(device.espId, 'short_dispense'))[0]).toMatchObject({
        status: 'cleared',
        cleared_by: 'auto',
      });
    } finally {
      await machine.end();
    }
  });

  it('opens sales_gap when a gap in seq is still open salesGapAfterMinutes after it was first seen, and clears it when the gap is filled', async () => {
    const device = take();
    const machine = await TestMachine.connect(t.mqttPort, device.espId, device.deviceKey);
    try {
      const publish = async (seq: number) => {
        const sale = saleMessage({ seq });
        await machine.publishSales(sale);
        await machine.waitForAcks([sale.eventId], 20_000);
      };
      await publish(1);
      await publish(4);
      await waitFor(
        () => t.dataSource.query(`SELECT from_seq, to_seq FROM machine_seq_gaps WHERE esp_id = $1`, [device.espId]),
        (rows: unknown[]) => rows.length === 1,
      );
      await sweep.sweep(new Date(Date.now() + 29 * MINUTE));
      expect(await alarmsOf(device.espId, 'sales_gap')).toEqual([]);
      await sweep.sweep(new Date(Date.now() + 31 * MINUTE));
      const [open] = await activeOf(device.espId, 'sales_gap');
      expect(open!.details).toMatchObject({ gaps: 1, missing: [[2, 3]] });

      await publish(2);
      await sweep.sweep(new Date(Date.now() + 32 * MINUTE));
      expect(await activeOf(device.espId, 'sales_gap')).toHaveLength(1);
      await publish(3);
      await sweep.sweep(new Date(Date.now() + 32 * MINUTE));
      expect((await alarmsOf(device.espId, 'sales_gap'))[0]).toMatchObject({ status: 'cleared', cleared_by: 'auto' });
    } finally {
      await machine.end();
    }
  });

  it('opens no alarm while the machine is in maintenance, and opens again once the window has passed', async () => {
    const { espId } = take();
    const until = new Date(Date.now() + 60 * MINUTE).toISOString();
    const saved = await settings(espId, { maintenanceUntil: until });
    expect(saved.maintenanceUntil).toBe(until);
    await read(espId, { tankLevelPct: 3, tdsPpm: 900, errorCode: 'E1' });
    await setLastSeen(espId, new Date(Date.now() - 30 * MINUTE), false);
    await sweep.sweep(new Date());
    expect(await alarmsOf(espId)).toEqual([]);
    const health = await t.http.get(`/machines/${espId}/health`, { token: manager.token });
    expect(health.body).toMatchObject({ maintenanceUntil: until, activeAlarms: [] });

    // The window has passed at the sweep's instant.
    await sweep.sweep(new Date(Date.now() + 61 * MINUTE));
    expect(await activeOf(espId, 'offline')).toHaveLength(1);
    await settings(espId, { maintenanceUntil: null });
    await read(espId, { tankLevelPct: 3 });
    expect(await activeOf(espId, 'low_tank')).toHaveLength(1);
  });

  it('escalates a critical or major alarm still open after ESCALATE_AFTER_MINUTES once, and never a minor or acknowledged one', async () => {
    const { espId } = take();
    await read(espId, { tdsPpm: 900, coinBoxPct: 95, errorCode: 'E7' });
    const [quality] = await activeOf(espId, 'water_quality');
    const [coins] = await activeOf(espId, 'coin_box_full');
    const [error] = await activeOf(espId, 'device_error');
    const ack = await t.http.post(`/alarms/${error!.id}/acknowledge`, undefined, { token: manager.token });
    expect(ack.status).toBe(200);

    await sweep.sweep(new Date(Date.now() + 29 * MINUTE));
    expect((await activeOf(espId, 'water_quality'))[0]!.escalated).toBe(false);
    const later = new Date(Date.now() + 31 * MINUTE);
    await Promise.all([sweep.sweep(later), sweep.sweep(later)]);
    await sweep.sweep(new Date(Date.now() + 90 * MINUTE));
    expect((await activeOf(espId, 'water_quality'))[0]!.escalated).toBe(true);
    expect((await activeOf(espId, 'coin_box_full'))[0]!.escalated).toBe(false);
    expect((await activeOf(espId, 'device_error'))[0]!.escalated).toBe(false);
    expect(notices(quality!.id).map((n) => n.event)).toEqual(['opened', 'escalated']);
    expect(notices(coins!.id).map((n) => n.event)).toEqual(['opened']);
    const detail = await t.http.get(`/alarms/${quality!.id}`, { token: admin });
    expect(detail.body).toMatchObject({ escalated: true, notes: [], notifications: expect.any(Array) });
  });

  it('keeps one active alarm per machine and kind when many readings and sweeps race', async () => {
    const { espId } = take();
    await Promise.all(Array.from({ length: 8 }, () => read(espId, { tankLevelPct: 4, tdsPpm: 999 })));
    expect(await alarmsOf(espId, 'low_tank')).toHaveLength(1);
    expect(await alarmsOf(espId, 'water_quality')).toHaveLength(1);
    const ids = (await alarmsOf(espId)).map((a) => a.id);
    expect(ids.flatMap((id) => notices(id))).toHaveLength(2);
    await expect(
      t.dataSource.query(`INSERT INTO alarms (esp_id, kind, severity) VALUES ($1, 'low_tank', 'major')`, [espId]),
    ).rejects.toThrow(/alarms_active_uq/);
  });

  it('clears an offline alarm whose connect event was missed at the next sweep', async () => {
    const { espId } = take();
    await setLastSeen(espId, new Date(Date.now() - 20 * MINUTE), false);
    await sweep.sweep(new Date());
    expect(await activeOf(espId, 'offline')).toHaveLength(1);
    await t.dataSource.query(`UPDATE devices SET online = true WHERE esp_id = $1`, [espId]);
    await sweep.sweep(new Date());
    expect(await activeOf(espId, 'offline')).toEqual([]);
  });

  it('does not let a machine status change of another machine touch this one', async () => {
    const { espId } = take();
    const other = take();
    await setLastSeen(espId, new Date(Date.now() - 20 * MINUTE), false);
    await sweep.sweep(new Date());
    await t.running.app.get(MachineStatusService).set(other.espId, true);
    await new Promise((r) => setTimeout(r, 300));
    expect(await activeOf(espId, 'offline')).toHaveLength(1);
    expect(await activeOf(other.espId, 'offline')).toEqual([]);
  });
});
