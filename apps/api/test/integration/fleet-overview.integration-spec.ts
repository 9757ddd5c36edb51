import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { createAttendant, createManager, provisionDevice } from '../factories/fleet.factory.js';
import { insertSales, type FixtureSale } from '../factories/sales.factory.js';
import { createTestApp, TEST_ADMIN, type TestApp } from '../support/test-app.js';

const DAY = 86_400_000;
/** APP_TIMEZONE of the tests, Africa/Dar_es_Salaam: UTC+3 all year. */
const OFFSET = 3 * 3_600_000;

/** Local midnight of today (as an instant) and the time elapsed since, read once for the whole suite. */
function localToday(now = Date.now()) {
  const midnight = Math.floor((now + OFFSET) / DAY) * DAY - OFFSET;
  return { midnight, elapsed: now - midnight, date: new Date(midnight + OFFSET).toISOString().slice(0, 10) };
}

/**
 * The fleet dashboard (docs/rest-api.md, "Fleet dashboard"): the machine table and the headline row equal
 * the sums of the rows, every machine in scope is listed, and nothing outside the tenant leaks.
 */
describe('fleet overview and headline', () => {
  let t: TestApp;
  let admin: string;
  let managerA: Awaited<ReturnType<typeof createManager>>;
  let managerB: Awaited<ReturnType<typeof createManager>>;
  let attendant: Awaited<ReturnType<typeof createAttendant>>;
  let unowned: string;
  let idsA: string[];
  const clock = localToday();

  const sale = (espId: string, at: number, price: number, volume: number): FixtureSale => ({
    espId,
    kind: price % 2 === 0 ? 'coin' : 'card',
    price,
    volume,
    waterType: 'pure',
    cardId: price % 2 === 0 ? null : 'CARD-FLEET',
    soldAt: new Date(at),
  });

  beforeAll(async () => {
    t = await createTestApp();
    admin = await t.http.login(TEST_ADMIN.email, TEST_ADMIN.password);
    managerA = await createManager(t.http, admin, 3);
    managerB = await createManager(t.http, admin, 1);
    attendant = await createAttendant(t.http, managerA.token, managerA.devices[0]!.espId);
    unowned = (await provisionDevice(t.http, admin)).espId;
    idsA = managerA.devices.map((d) => d.espId);
    const { midnight, elapsed } = clock;
    const before = (daysAgo: number) => midnight - daysAgo * DAY + Math.floor(elapsed / 2);
    const after = (daysAgo: number) => midnight - daysAgo * DAY + elapsed + Math.floor((DAY - elapsed) / 2);
    await insertSales(
      t.dataSource,
      [
        // Today so far on A0 and A1; B0 sells today too.
        sale(idsA[0]!, before(0), 500, 10),
        sale(idsA[0]!, before(0) - 1, 251, 5.5),
        sale(idsA[1]!, before(0), 1000, 20),
        sale(managerB.devices[0]!.espId, before(0), 7000, 140),
        // Yesterday: one before the time of day it is now, one after it.
        sale(idsA[0]!, before(1), 300, 6),
        sale(idsA[0]!, after(1), 900, 18),
        // Three days ago, for the trend only.
        sale(idsA[1]!, before(3) + 5, 444, 8.25),
        // The same weekday last week: before and after the time of day; eight days ago is outside.
        sale(idsA[1]!, before(7), 120, 2.5),
        sale(idsA[1]!, after(7), 80, 1.5),
        sale(idsA[1]!, before(8), 50, 1),
      ],
      'Africa/Dar_es_Salaam',
    );
    // A1 has two active alarms (one acknowledged), A0 only a cleared one; B0 an open one.
    await t.dataSource.query(
      `INSERT INTO alarms (esp_id, kind, severity, status, cleared_at) VALUES
       ($1, 'low_tank', 'major', 'open', NULL), ($1, 'device_error', 'critical', 'acknowledged', NULL),
       ($2, 'coin_box_full', 'minor', 'cleared', now()), ($3, 'offline', 'major', 'open', NULL)`,
      [idsA[1], idsA[0], managerB.devices[0]!.espId],
    );
    await t.dataSource.query(`UPDATE devices SET online = true, last_seen_at = now() WHERE esp_id = $1`, [idsA[0]]);
  });
  afterAll(() => t.close());

  it('lists exactly a manager’s machines with today’s figures, a 7-day trend, the owner and the active alarms', async () => {
    const res = await t.http.get('/fleet/overview', { token: managerA.token });
    expect(res.status).toBe(200);
    expect(res.body.date).toBe(clock.date);
    expect(res.body.machines.map((m: any) => m.espId)).toEqual([...idsA].sort());
    const byId = (id: string) => res.body.machines.find((m: any) => m.espId === id);
    const owner = { id: managerA.userId, name: 'manager-first manager-last' };
    expect(byId(idsA[0]!)).toEqual({
      espId: idsA[0],
      location: expect.any(String),
      coordinates: null,
      owner,
      online: true,
      lastSeen: expect.any(String),
      today: { revenue: 751, litres: 15.5, sales: 2 },
      trend: [0, 0, 0, 0, 0, 1200, 751],
      activeAlarms: 0,
      worstSeverity: null,
    });
    expect(byId(idsA[1]!)).toMatchObject({
      online: false,
      lastSeen: null,
      today: { revenue: 1000, litres: 20, sales: 1 },
      trend: [0, 0, 0, 444, 0, 0, 1000],
      activeAlarms: 2,
      worstSeverity: 'critical',
    });
    expect(byId(idsA[2]!)).toMatchObject({
      today: { revenue: 0, litres: 0, sales: 0 },
      trend: [0, 0, 0, 0, 0, 0, 0],
      activeAlarms: 0,
    });
  });

  it('gives an admin every machine, with no owner for an unassigned one, and another manager only theirs', async () => {
    const all = await t.http.get('/fleet/overview', { token: admin });
    expect(all.status).toBe(200);
    const ids = all.body.machines.map((m: any) => m.espId);
    expect(ids).toEqual(expect.arrayContaining([...idsA, managerB.devices[0]!.espId, unowned]));
    expect(all.body.machines.find((m: any) => m.espId === unowned).owner).toBeNull();
    const other = await t.http.get('/fleet/overview', { token: managerB.token });
    expect(other.body.machines).toEqual([
      expect.objectContaining({
        espId: managerB.devices[0]!.espId,
        today: { revenue: 7000, litres: 140, sales: 1 },
        activeAlarms: 1,
        worstSeverity: 'major',
      }),
    ]);
  });

  it('compares today so far with yesterday and the same weekday last week up to the same time of day', async () => {
    const res = await t.http.get('/fleet/headline', { token: managerA.token });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      date: clock.date,
      asOf: expect.stringMatching(/^\d\d:\d\d$/),
      today: { revenue: 1751, litres: 35.5, sales: 3 },
      yesterday: { revenue: 300, litres: 6, sales: 1 },
      lastWeek: { revenue: 120, litres: 2.5, sales: 1 },
    });
    const b = await t.http.get('/fleet/headline', { token: managerB.token });
    expect(b.body.today).toEqual({ revenue: 7000, litres: 140, sales: 1 });
    expect(b.body.yesterday).toEqual({ revenue: 0, litres: 0, sales: 0 });
    const all = await t.http.get('/fleet/headline', { token: admin });
    expect(all.body.today.revenue).toBeGreaterThanOrEqual(8751);
  });

  it('sets, reads and clears a machine’s coordinates, validated, audited and shown in the overview', async () => {
    const path = `/machines/${idsA[2]}/coordinates`;
    const set = await t.http.put(path, { latitude: -6.8160837, longitude: 39.2803583 }, { token: managerA.token });
    expect(set.status).toBe(200);
    expect(set.body).toEqual({ espId: idsA[2], latitude: -6.816084, longitude: 39.280358 });
    expect((await t.http.get(path, { token: admin })).body).toEqual(set.body);
    const overview = await t.http.get('/fleet/overview', { token: managerA.token });
    expect(overview.body.machines.find((m: any) => m.espId === idsA[2]).coordinates).toEqual({
      latitude: -6.816084,
      longitude: 39.280358,
    });
    const audit = await t.dataSource.query(
      `SELECT before, after FROM audit_log WHERE action = 'device.coordinates_updated' AND entity_id = $1`,
      [idsA[2]],
    );
    expect(audit).toEqual([
      { before: { latitude: null, longitude: null }, after: { latitude: -6.816084, longitude: 39.280358 } },
    ]);

    for (const bad of [
      { latitude: 91, longitude: 39 },
      { latitude: -6.8, longitude: -180.5 },
      { latitude: -6.8, longitude: null },
      { latitude: '-6.8', longitude: 39 },
      { latitude: -6.8 },
      { latitude: -6.8, longitude: 39, altitude: 10 },
    ]) {
      const res = await t.http.put(path, bad, { token: managerA.token });
      expect({ bad, status: res.status }).toEqual({ bad, status: 400 });
    }
    expect((await t.http.get(path, { token: managerA.token })).body.latitude).toBe(-6.816084);

    // Another company's manager cannot see or move it; an attendant and anonymous callers are refused.
    expect((await t.http.put(path, { latitude: 0, longitude: 0 }, { token: managerB.token })).status).toBe(404);
    expect((await t.http.get(path, { token: managerB.token })).status).toBe(404);
    expect((await t.http.put(path, { latitude: 0, longitude: 0 }, { token: attendant.token })).status).toBe(403);
    expect((await t.http.put(path, { latitude: 0, longitude: 0 })).status).toBe(401);

    const cleared = await t.http.put(path, { latitude: null, longitude: null }, { token: admin });
    expect(cleared.body).toEqual({ espId: idsA[2], latitude: null, longitude: null });
  });

  it('refuses attendants (403) and anonymous callers (401)', async () => {
    for (const path of ['/fleet/overview', '/fleet/headline', `/machines/${idsA[0]}/coordinates`]) {
      expect((await t.http.get(path, { token: attendant.token })).status).toBe(403);
      expect((await t.http.get(path)).status).toBe(401);
    }
  });
});
