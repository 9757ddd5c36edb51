import { afterAll, beforeAll, describe, expect, it, jest } from '@jest/globals';
import { io as connect, type Socket } from 'socket.io-client';
import { AlarmNotices } from '../../src/alarm/alarm-notices.js';
import { AlarmSweepService } from '../../src/alarm/alarm-sweep.service.js';
import { TelemetryIngestService } from '../../src/alarm/telemetry-ingest.service.js';
import { startApp, type RunningApp } from '../../src/bootstrap.js';
import { loadConfig } from '../../src/config/app-config.js';
import { createAttendant, createManager } from '../factories/fleet.factory.js';
import { waitFor } from '../support/mqtt-machine.js';
import { createTestApp, TEST_ADMIN, type TestApp } from '../support/test-app.js';

const MINUTE = 60_000;

async function openSocket(
  baseUrl: string,
  token: string,
): Promise<{ socket: Socket; events: { event: string; payload: any }[] }> {
  const socket = connect(baseUrl, {
    path: '/socket.io',
    auth: { token },
    transports: ['websocket'],
    reconnection: false,
    forceNew: true,
  });
  const events: { event: string; payload: any }[] = [];
  socket.onAny((event: string, payload: unknown) => events.push({ event, payload }));
  await new Promise<void>((resolve, reject) => {
    socket.once('connect', () => resolve());
    socket.once('connect_error', reject);
  });
  return { socket, events };
}

/**
 * Two worker processes on one database and Redis (docs/alarms.md, "The sweep"): their sweeps and
 * telemetry batches race, and every alarm still opens once with one set of messages. And the live
 * events reach the alarm's scope only.
 */
describe('alarms across workers and live', () => {
  let t: TestApp;
  let second: RunningApp;
  let admin: string;
  let manager: Awaited<ReturnType<typeof createManager>>;
  let other: Awaited<ReturnType<typeof createManager>>;
  let attendant: Awaited<ReturnType<typeof createAttendant>>;
  const sockets: Socket[] = [];

  beforeAll(async () => {
    t = await createTestApp({ ALARM_SWEEP_INTERVAL_MS: '3600000' });
    // A second process with only the worker role, on the same database and Redis prefix.
    second = await startApp(
      loadConfig({
        PORT: '0',
        MQTT_PORT: '0',
        DATABASE_URL: t.config.databaseUrl,
        REDIS_URL: t.config.redisUrl,
        REDIS_PREFIX: t.config.redisPrefix,
        JWT_SECRET: t.config.jwt.secret,
        APP_ROLES: 'worker',
        LOG_LEVEL: 'error',
        ALARM_SWEEP_INTERVAL_MS: '3600000',
      }),
    );
    admin = await t.http.login(TEST_ADMIN.email, TEST_ADMIN.password);
    manager = await createManager(t.http, admin, 8);
    other = await createManager(t.http, admin, 1);
    attendant = await createAttendant(t.http, manager.token, manager.devices[7]!.espId);
  }, 120_000);
  afterAll(async () => {
    sockets.forEach((s) => s.close());
    await second?.close();
    await t.close();
  });

  it('opens each offline alarm once, with one message, when two worker processes sweep at the same instant', async () => {
    const espIds = manager.devices.slice(0, 5).map((d) => d.espId);
    await t.dataSource.query(
      `UPDATE devices SET online = false, last_seen_at = now() - interval '30 minutes' WHERE esp_id = ANY($1)`,
      [espIds],
    );
    const first = jest.spyOn(t.running.app.get(AlarmNotices), 'enqueue');
    const secondSpy = jest.spyOn(second.app.get(AlarmNotices), 'enqueue');
    const sweeps = [t.running.app.get(AlarmSweepService), second.app.get(AlarmSweepService)];
    const now = new Date();
    for (let round = 0; round < 3; round++) await Promise.all(sweeps.flatMap((s) => [s.sweep(now), s.sweep(now)]));
    const rows: { esp_id: string; n: number }[] = await t.dataSource.query(
      `SELECT esp_id, count(*)::int AS n FROM alarms WHERE esp_id = ANY($1) AND kind = 'offline' GROUP BY esp_id`,
      [espIds],
    );
    expect(rows.sort((a, b) => a.esp_id.localeCompare(b.esp_id))).toEqual(
      [...espIds].sort().map((esp_id) => ({ esp_id, n: 1 })),
    );
    const queued = [...first.mock.calls, ...secondSpy.mock.calls]
      .flatMap((c) => c[1])
      .filter((n) => espIds.includes(n.espId));
    expect(queued.map((n) => n.espId).sort()).toEqual([...espIds].sort());

    // Escalated once as well, whichever process gets there.
    const later = new Date(now.getTime() + 31 * MINUTE);
    await Promise.all(sweeps.flatMap((s) => [s.sweep(later), s.sweep(later)]));
    const escalations = [...first.mock.calls, ...secondSpy.mock.calls]
      .flatMap((c) => c[1])
      .filter((n) => espIds.includes(n.espId) && n.event === 'escalated');
    expect(escalations).toHaveLength(5);
  });

  it('counts the readings of one machine that two workers apply at once one after the other, opening water_temperature once', async () => {
    const { espId } = manager.devices[5]!;
    const ingests = [t.running.app.get(TelemetryIngestService), second.app.get(TelemetryIngestService)];
    // The same instant: none is older than another, so each must count (a lost update would leave the run at 2).
    const receivedAt = new Date().toISOString();
    const batch = (temp: number) => [{ espId, payload: JSON.stringify({ coldWaterTempC: temp }), receivedAt }];
    await Promise.all([ingests[0]!.ingest(batch(14)), ingests[1]!.ingest(batch(15)), ingests[0]!.ingest(batch(16))]);
    const rows = await t.dataSource.query(`SELECT kind, status FROM alarms WHERE esp_id = $1`, [espId]);
    expect(rows).toEqual([{ kind: 'water_temperature', status: 'open' }]);
  });

  it('sends alarm.opened and alarm.updated to the machine’s manager, its attendant and admins, and not to another tenant', async () => {
    const { espId } = manager.devices[7]!;
    const [asManager, asAttendant, asAdmin, asOther] = await Promise.all(
      [manager.token, attendant.token, admin, other.token].map((token) => openSocket(t.baseUrl, token)),
    );
    sockets.push(asManager.socket, asAttendant.socket, asAdmin.socket, asOther.socket);
    await t.running.app
      .get(TelemetryIngestService)
      .ingest([{ espId, payload: JSON.stringify({ tankLevelPct: 2 }), receivedAt: new Date().toISOString() }]);
    const opened = (events: { event: string; payload: any }[]) =>
      events.find((e) => e.event === 'alarm.opened' && e.payload.machineId === espId);
    for (const s of [asManager, asAttendant, asAdmin]) await waitFor(async () => opened(s.events), Boolean, 10_000);
    const alarm = opened(asManager.events)!.payload;
    expect(alarm).toMatchObject({
      machineId: espId,
      kind: 'low_tank',
      severity: 'major',
      status: 'open',
      clearedBy: null,
    });

    const ack = await t.http.post(`/alarms/${alarm.id}/acknowledge`, undefined, { token: attendant.token });
    expect(ack.status).toBe(200);
    await waitFor(
      async () => asManager.events.find((e) => e.event === 'alarm.updated' && e.payload.id === alarm.id),
      Boolean,
      10_000,
    );
    // An event the other tenant would have had by now, had it been sent there.
    await new Promise((r) => setTimeout(r, 300));
    expect(asOther.events.filter((e) => e.event.startsWith('alarm.'))).toEqual([]);
  });
});
