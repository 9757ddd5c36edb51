import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { randomUUID } from 'node:crypto';
import { TelemetryIngestService } from '../../src/alarm/telemetry-ingest.service.js';
import { createAttendant, createManager } from '../factories/fleet.factory.js';
import { createTestApp, TEST_ADMIN, type TestApp } from '../support/test-app.js';

/**
 * The alarm endpoints by role and tenant (docs/alarms.md, "Working an alarm"; docs/security.md): another
 * tenant's alarm or machine is 404 and stays untouched, a role that may not act is 403, anonymous is
 * 401, bad input is 400, and every human action lands in the audit trail.
 */
describe('alarm endpoints: roles, tenants and input', () => {
  let t: TestApp;
  let admin: string;
  let a: Awaited<ReturnType<typeof createManager>>;
  let b: Awaited<ReturnType<typeof createManager>>;
  let attendant: Awaited<ReturnType<typeof createAttendant>>;
  /** Alarms: on A's attended machine, on A's other machine, on B's machine. */
  const ids = { attended: '', unattended: '', foreign: '' };

  const openAlarm = async (espId: string, reading: object) => {
    await t.running.app
      .get(TelemetryIngestService)
      .ingest([{ espId, payload: JSON.stringify(reading), receivedAt: new Date().toISOString() }]);
    const [row]: { id: string }[] = await t.dataSource.query(
      `SELECT id FROM alarms WHERE esp_id = $1 AND status <> 'cleared' ORDER BY opened_at DESC LIMIT 1`,
      [espId],
    );
    return row!.id;
  };
  const row = async (id: string) =>
    (
      await t.dataSource.query(`SELECT status, assignee_id, acknowledged_by, cleared_by FROM alarms WHERE id = $1`, [
        id,
      ])
    )[0];

  beforeAll(async () => {
    t = await createTestApp({ ALARM_SWEEP_INTERVAL_MS: '3600000' });
    admin = await t.http.login(TEST_ADMIN.email, TEST_ADMIN.password);
    a = await createManager(t.http, admin, 2);
    b = await createManager(t.http, admin, 1);
    attendant = await createAttendant(t.http, a.token, a.devices[0]!.espId);
    ids.attended = await openAlarm(a.devices[0]!.espId, { tankLevelPct: 3 });
    ids.unattended = await openAlarm(a.devices[1]!.espId, { tdsPpm: 900 });
    ids.foreign = await openAlarm(b.devices[0]!.espId, { errorCode: 'E9' });
  }, 120_000);
  afterAll(() => t.close());

  const endpoints = (alarmId: string, espId: string) =>
    [
      ['GET', `/alarms`, undefined],
      ['GET', `/alarms/${alarmId}`, undefined],
      ['POST', `/alarms/${alarmId}/acknowledge`, undefined],
      ['POST', `/alarms/${alarmId}/assign`, { userId: randomUUID() }],
      ['POST', `/alarms/${alarmId}/notes`, { text: 'x' }],
      ['POST', `/alarms/${alarmId}/clear`, undefined],
      ['GET', `/machines/${espId}/health`, undefined],
      ['GET', `/machines/${espId}/telemetry`, undefined],
      ['GET', `/machines/${espId}/alarm-settings`, undefined],
      ['PUT', `/machines/${espId}/alarm-settings`, { lowTankPct: 10 }],
    ] as const;

  it('answers 401 to an anonymous caller and to a forged token on every endpoint', async () => {
    for (const [method, path, body] of endpoints(ids.attended, a.devices[0]!.espId)) {
      expect([method, path, (await t.http.request(method, path, { body })).status]).toEqual([method, path, 401]);
      const forged = await t.http.request(method, path, { body, token: 'eyJhbGciOiJIUzI1NiJ9.e30.x' });
      expect([method, path, forged.status]).toEqual([method, path, 401]);
    }
  });

  it('answers 404 to another tenant on every alarm and machine endpoint, and changes nothing', async () => {
    for (const [method, path, body] of endpoints(ids.attended, a.devices[0]!.espId).slice(1)) {
      const res = await t.http.request(method, path, { body, token: b.token });
      expect([method, path, res.status]).toEqual([method, path, 404]);
    }
    expect(await row(ids.attended)).toEqual({
      status: 'open',
      assignee_id: null,
      acknowledged_by: null,
      cleared_by: null,
    });
    expect(await t.dataSource.query(`SELECT * FROM alarm_notes WHERE alarm_id = $1`, [ids.attended])).toEqual([]);
    expect(
      (await t.http.get(`/machines/${a.devices[0]!.espId}/alarm-settings`, { token: a.token })).body.lowTankPct,
    ).toBe(15);

    const list = await t.http.get(`/alarms?status=all`, { token: b.token });
    expect(list.body).toEqual({ data: [expect.objectContaining({ id: ids.foreign })], total: 1 });
    const filtered = await t.http.get(`/alarms?machineId=${a.devices[0]!.espId}`, { token: b.token });
    expect([filtered.status, filtered.body.code]).toEqual([404, 'DeviceNotFound']);
    const unknown = await t.http.get(`/alarms?machineId=ESP-never-made`, { token: b.token });
    expect(unknown.status).toBe(404);
  });

  it('lets an attendant see, acknowledge and note the alarms of their machine only, and refuses assigning, clearing and settings', async () => {
    const list = await t.http.get(`/alarms`, { token: attendant.token });
    expect(list.body.data.map((x: { id: string }) => x.id)).toEqual([ids.attended]);
    expect((await t.http.get(`/alarms/${ids.unattended}`, { token: attendant.token })).status).toBe(404);
    expect(
      (await t.http.post(`/alarms/${ids.unattended}/acknowledge`, undefined, { token: attendant.token })).status,
    ).toBe(404);
    expect((await t.http.get(`/machines/${a.devices[1]!.espId}/health`, { token: attendant.token })).status).toBe(404);
    expect((await t.http.get(`/machines/${a.devices[0]!.espId}/health`, { token: attendant.token })).status).toBe(200);
    expect(
      (await t.http.get(`/machines/${a.devices[0]!.espId}/alarm-settings`, { token: attendant.token })).status,
    ).toBe(200);

    const forbidden = [
      t.http.post(`/alarms/${ids.attended}/assign`, { userId: attendant.userId }, { token: attendant.token }),
      t.http.post(`/alarms/${ids.attended}/clear`, undefined, { token: attendant.token }),
      t.http.put(`/machines/${a.devices[0]!.espId}/alarm-settings`, { lowTankPct: 1 }, { token: attendant.token }),
    ];
    expect((await Promise.all(forbidden)).map((r) => r.status)).toEqual([403, 403, 403]);
    expect(await row(ids.attended)).toMatchObject({ status: 'open', assignee_id: null, cleared_by: null });

    const ack = await t.http.post(`/alarms/${ids.attended}/acknowledge`, undefined, { token: attendant.token });
    expect(ack.status).toBe(200);
    expect(ack.body).toMatchObject({ id: ids.attended, status: 'acknowledged', acknowledgedBy: attendant.userId });
    expect(ack.body.acknowledgedAt).toEqual(expect.any(String));
    const again = await t.http.post(`/alarms/${ids.attended}/acknowledge`, undefined, { token: attendant.token });
    expect(again.status).toBe(409);
    expect(again.body.code).toBe('AlarmNotOpen');
    const note = await t.http.post(
      `/alarms/${ids.attended}/notes`,
      { text: '  Tank refill ordered  ' },
      { token: attendant.token },
    );
    expect(note.status).toBe(200);
    expect(note.body.notes).toEqual([
      { id: expect.any(String), userId: attendant.userId, text: 'Tank refill ordered', at: expect.any(String) },
    ]);
  });

  it('lets the owner manager assign to themself or the attendant only, clear once, and records each action in the audit trail', async () => {
    const stranger = await t.http.post(`/alarms/${ids.attended}/assign`, { userId: b.userId }, { token: a.token });
    expect([stranger.status, stranger.body.code]).toEqual([422, 'AlarmAssigneeNotInScope']);
    const nobody = await t.http.post(`/alarms/${ids.attended}/assign`, { userId: randomUUID() }, { token: a.token });
    expect(nobody.status).toBe(422);
    const toAttendant = await t.http.post(
      `/alarms/${ids.attended}/assign`,
      { userId: attendant.userId },
      { token: a.token },
    );
    expect(toAttendant.body).toMatchObject({ assigneeId: attendant.userId });
    const toSelf = await t.http.post(`/alarms/${ids.unattended}/assign`, { userId: a.userId }, { token: a.token });
    expect(toSelf.body).toMatchObject({ assigneeId: a.userId });
    // The attendant of A's other machine is not this machine's attendant.
    const wrongMachine = await t.http.post(
      `/alarms/${ids.unattended}/assign`,
      { userId: attendant.userId },
      { token: a.token },
    );
    expect(wrongMachine.status).toBe(422);

    const cleared = await t.http.post(`/alarms/${ids.unattended}/clear`, undefined, { token: a.token });
    expect(cleared.body).toMatchObject({ status: 'cleared', clearedBy: a.userId, clearedAt: expect.any(String) });
    const twice = await t.http.post(`/alarms/${ids.unattended}/clear`, undefined, { token: a.token });
    expect([twice.status, twice.body.code]).toEqual([409, 'AlarmAlreadyCleared']);
    expect((await t.http.post(`/alarms/${ids.unattended}/acknowledge`, undefined, { token: a.token })).status).toBe(
      409,
    );

    const active = await t.http.get(`/alarms`, { token: a.token });
    expect(active.body.data.map((x: { id: string }) => x.id)).toEqual([ids.attended]);
    const done = await t.http.get(`/alarms?status=cleared`, { token: a.token });
    expect(done.body.data.map((x: { id: string }) => x.id)).toEqual([ids.unattended]);
    const all = await t.http.get(`/alarms?status=all&kind=water_quality`, { token: a.token });
    expect(all.body.total).toBe(1);

    const audit = await t.http.get(`/admin/audit?entity=alarm&limit=100`, { token: admin });
    const actions = audit.body.data.map((e: { action: string; entityId: string; actorId: string }) => [
      e.action,
      e.entityId,
      e.actorId,
    ]);
    expect(actions).toEqual(
      expect.arrayContaining([
        ['alarm.acknowledged', ids.attended, attendant.userId],
        ['alarm.noted', ids.attended, attendant.userId],
        ['alarm.assigned', ids.attended, a.userId],
        ['alarm.assigned', ids.unattended, a.userId],
        ['alarm.cleared', ids.unattended, a.userId],
      ]),
    );
    // Refused actions wrote nothing.
    expect(actions.filter(([action]: string[]) => action === 'alarm.cleared')).toHaveLength(1);
  });

  it('lets an admin see and work every alarm, paged newest first', async () => {
    const page1 = await t.http.get(`/alarms?status=all&limit=2&page=1`, { token: admin });
    const page2 = await t.http.get(`/alarms?status=all&limit=2&page=2`, { token: admin });
    expect(page1.body.total).toBe(3);
    expect(page1.body.data).toHaveLength(2);
    expect(page2.body.data).toHaveLength(1);
    const seen = [...page1.body.data, ...page2.body.data].map((x: { id: string }) => x.id);
    expect(new Set(seen)).toEqual(new Set(Object.values(ids)));
    const detail = await t.http.get(`/alarms/${ids.foreign}`, { token: admin });
    expect(detail.body).toMatchObject({
      id: ids.foreign,
      kind: 'device_error',
      notes: [],
      notifications: expect.any(Array),
    });
    expect((await t.http.post(`/alarms/${ids.foreign}/acknowledge`, undefined, { token: admin })).status).toBe(200);
  });

  it('reads the default settings, changes any subset as the owner manager, audits it, and keeps the rest', async () => {
    const espId = a.devices[1]!.espId;
    const defaults = await t.http.get(`/machines/${espId}/alarm-settings`, { token: a.token });
    expect(defaults.body).toEqual({
      offlineAfterMinutes: 10,
      noSalesAfterMinutes: 120,
      salesGapAfterMinutes: 30,
      businessHours: { from: '06:00', to: '22:00' },
      lowTankPct: 15,
      maxTdsPpm: 500,
      maxColdWaterTempC: 12,
      maintenanceUntil: null,
    });
    const changed = await t.http.put(
      `/machines/${espId}/alarm-settings`,
      {
        businessHours: { from: '20:00', to: '04:00' },
        maxTdsPpm: 450.5,
        maintenanceUntil: '2031-01-01T10:00:00+03:00',
      },
      { token: a.token },
    );
    expect(changed.status).toBe(200);
    expect(changed.body).toEqual({
      ...defaults.body,
      businessHours: { from: '20:00', to: '04:00' },
      maxTdsPpm: 450.5,
      maintenanceUntil: '2031-01-01T07:00:00.000Z',
    });
    expect((await t.http.get(`/machines/${espId}/alarm-settings`, { token: admin })).body).toEqual(changed.body);
    const byAdmin = await t.http.put(`/machines/${espId}/alarm-settings`, { maintenanceUntil: null }, { token: admin });
    expect(byAdmin.body.maintenanceUntil).toBeNull();
    expect(byAdmin.body.maxTdsPpm).toBe(450.5);
    const audit = await t.http.get(`/admin/audit?entity=alarm_settings`, { token: admin });
    expect(audit.body.total).toBe(2);
    expect(audit.body.data[1]).toMatchObject({ action: 'alarm_settings.updated', entityId: espId, actorId: a.userId });
  });

  it('answers 400 with the error body, never 500, to bad input on every endpoint', async () => {
    const espId = a.devices[0]!.espId;
    const bad: [string, string, unknown][] = [
      ['GET', '/alarms/not-a-uuid', undefined],
      ['GET', '/alarms?status=bogus', undefined],
      ['GET', '/alarms?kind=fire', undefined],
      ['GET', '/alarms?limit=0', undefined],
      ['GET', '/alarms?limit=101', undefined],
      ['GET', '/alarms?page=-1', undefined],
      ['GET', '/alarms?colour=blue', undefined],
      ['GET', '/alarms?machineId=a%2Fb', undefined],
      ['POST', `/alarms/${ids.attended}/notes`, { text: '' }],
      ['POST', `/alarms/${ids.attended}/notes`, { text: '    ' }],
      ['POST', `/alarms/${ids.attended}/notes`, { text: 'x'.repeat(1001) }],
      ['POST', `/alarms/${ids.attended}/notes`, { text: 'ok', pinned: true }],
      ['POST', `/alarms/${ids.attended}/notes`, { text: 42 }],
      ['POST', `/alarms/${ids.attended}/assign`, { userId: 'me' }],
      ['POST', `/alarms/${ids.attended}/assign`, {}],
      ['POST', `/alarms/${ids.attended}/acknowledge`, { force: true }],
      ['PUT', `/machines/${espId}/alarm-settings`, { businessHours: { from: '25:00', to: '04:00' } }],
      ['PUT', `/machines/${espId}/alarm-settings`, { businessHours: { from: '06:00' } }],
      ['PUT', `/machines/${espId}/alarm-settings`, { lowTankPct: '10' }],
      ['PUT', `/machines/${espId}/alarm-settings`, { lowTankPct: 96 }],
      ['PUT', `/machines/${espId}/alarm-settings`, { maxTdsPpm: 450.555 }],
      ['PUT', `/machines/${espId}/alarm-settings`, { offlineAfterMinutes: 0 }],
      ['PUT', `/machines/${espId}/alarm-settings`, { offlineAfterMinutes: 1.5 }],
      ['PUT', `/machines/${espId}/alarm-settings`, { maintenanceUntil: 'tomorrow' }],
      ['PUT', `/machines/${espId}/alarm-settings`, { maintenanceUntil: '2031-01-01T10:00:00' }],
      ['PUT', `/machines/${espId}/alarm-settings`, { espId: 'other' }],
      ['PUT', `/machines/${espId}/alarm-settings`, { maintenanceUntil: '9999-12-31T23:00:00-12:00' }],
      ['GET', `/machines/${espId}/telemetry?to=9999-12-31T23:00:00-12:00`, undefined],
      ['GET', `/machines/${espId}/telemetry?from=yesterday`, undefined],
      ['GET', `/machines/${espId}/telemetry?from=2026-01-01T00:00:00Z&to=2026-02-15T00:00:00Z`, undefined],
      ['GET', `/machines/${espId}/telemetry?from=2026-01-02T00:00:00Z&to=2026-01-01T00:00:00Z`, undefined],
      ['GET', `/machines/${espId}/telemetry?step=5`, undefined],
    ];
    for (const [method, path, body] of bad) {
      const res = await t.http.request(method, path, { body, token: a.token });
      expect([method, path, res.status]).toEqual([method, path, 400]);
      expect(res.body).toMatchObject({ statusCode: 400, code: 'ValidationFailed', message: expect.any(String) });
    }
    expect((await t.http.get(`/machines/${espId}/alarm-settings`, { token: a.token })).body.lowTankPct).toBe(15);
    // The edges of the calendar are answered, not failed.
    const edge = await t.http.get(`/machines/${espId}/telemetry?from=9999-12-31T23:00:00Z`, { token: a.token });
    expect(edge.body).toEqual({ data: [] });
    const oldest = await t.http.get(`/machines/${espId}/telemetry?to=2000-01-01T00:00:00Z`, { token: a.token });
    expect(oldest.body).toEqual({ data: [] });
  });
});
