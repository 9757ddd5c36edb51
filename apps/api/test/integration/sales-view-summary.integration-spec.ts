import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { randomUUID } from 'node:crypto';
import { createAttendant, createManager, personFields, provisionDevice } from '../factories/fleet.factory.js';
import { insertSales, type FixtureSale } from '../factories/sales.factory.js';
import { waitFor } from '../support/mqtt-machine.js';
import { createTestApp, TEST_ADMIN, type TestApp } from '../support/test-app.js';

const TZ = 'Africa/Dar_es_Salaam';
const WATER = ['pure', 'fresh', 'cold'] as const;
const today = () => new Intl.DateTimeFormat('en-CA', { timeZone: TZ }).format(new Date());

/**
 * Summaries, the dashboard overview and the activity feed (docs/rest-api.md, "Endpoints"): figures equal the
 * sums of the rows, local days of APP_TIMEZONE, every machine in scope listed with zeros.
 */
describe('sales views: summaries, overview and recent sales', () => {
  let t: TestApp;
  let admin: string;
  let managerA: Awaited<ReturnType<typeof createManager>>;
  let managerB: Awaited<ReturnType<typeof createManager>>;
  let attendant: Awaited<ReturnType<typeof createAttendant>>;
  let unowned: string;
  let idsA: string[];

  const get = (path: string, token = managerA.token) => t.http.get(path, { token });
  /** The sums of the rows themselves, per machine and kind, for local days in [from, to]. */
  async function rowSums(from: string, to: string) {
    const rows: { espId: string; kind: string; price: string; volume: string }[] = await t.dataSource.query(
      `SELECT esp_id AS "espId", kind, sum(price)::text AS price, sum(volume)::text AS volume FROM sales
       WHERE (sold_at AT TIME ZONE $3)::date BETWEEN $1 AND $2 GROUP BY 1, 2`,
      [from, to, TZ],
    );
    return (espId: string, kind: string) => {
      const r = rows.find((x) => x.espId === espId && x.kind === kind);
      return { price: Number(r?.price ?? 0), volume: Number(r?.volume ?? 0) };
    };
  }

  beforeAll(async () => {
    t = await createTestApp();
    admin = await t.http.login(TEST_ADMIN.email, TEST_ADMIN.password);
    managerA = await createManager(t.http, admin, 3);
    managerB = await createManager(t.http, admin, 1);
    attendant = await createAttendant(t.http, managerA.token, managerA.devices[0]!.espId);
    unowned = (await provisionDevice(t.http, admin)).espId;
    idsA = managerA.devices.map((d) => d.espId);
    const sales: FixtureSale[] = [];
    // Managers' first two machines sell through March 2026 (local days); the third never sells.
    const start = Date.parse('2026-03-01T00:00:00+03:00');
    for (let i = 0; i < 240; i++) {
      sales.push({
        espId: [idsA[0]!, idsA[1]!, managerB.devices[0]!.espId][i % 3]!,
        kind: i % 4 === 0 ? 'card' : 'coin',
        price: 100 + (i % 9) * 12.25,
        volume: 2 + (i % 7) * 0.125,
        waterType: WATER[i % 3]!,
        cardId: i % 4 === 0 ? 'CARD-SUM' : null,
        soldAt: new Date(start + i * 3 * 3_600_000 + (i % 5) * 60_000),
      });
    }
    await insertSales(t.dataSource, sales, TZ);
  });
  afterAll(() => t.close());

  it('daily summary equals the sums of the rows, lists every machine in scope with zeros, as JSON numbers', async () => {
    for (const day of ['2026-03-03', '2026-03-17', '2026-03-30']) {
      const sums = await rowSums(day, day);
      const res = await get(`/user/machines/daily-summary?date=${day}`);
      expect(res.status).toBe(200);
      expect(res.body.dailyData.map((r: any) => r.machineId)).toEqual([...idsA].sort());
      for (const row of res.body.dailyData) {
        for (const [field, kind] of [
          ['coinBased', 'coin'],
          ['cardBased', 'card'],
        ] as const) {
          const s = sums(row.machineId, kind);
          expect(row[field].dailyPriceCollected).toBeCloseTo(s.price, 2);
          expect(row[field].volumeSold).toBeCloseTo(s.volume, 3);
        }
      }
      const idle = res.body.dailyData.find((r: any) => r.machineId === idsA[2]);
      expect(idle).toEqual({
        machineId: idsA[2],
        coinBased: { dailyPriceCollected: 0, volumeSold: 0 },
        cardBased: { dailyPriceCollected: 0, volumeSold: 0 },
      });
    }
  });

  it('monthly summary equals the month’s rows for the month holding the date; admin sees every machine', async () => {
    const sums = await rowSums('2026-03-01', '2026-03-31');
    const res = await get('/user/machines/monthly-summary?date=2026-03-19', admin);
    expect(res.status).toBe(200);
    const ids = res.body.monthlyData.map((r: any) => r.machineId);
    expect(ids).toEqual(expect.arrayContaining([...idsA, managerB.devices[0]!.espId, unowned]));
    for (const row of res.body.monthlyData) {
      expect(row.coinBased.monthlyPriceCollected).toBeCloseTo(sums(row.machineId, 'coin').price, 2);
      expect(row.cardBased.monthlyPriceCollected).toBeCloseTo(sums(row.machineId, 'card').price, 2);
      expect(row.coinBased.volumeSold).toBeCloseTo(sums(row.machineId, 'coin').volume, 3);
    }
    const before = await get('/user/machines/monthly-summary?date=2026-02-28');
    expect(before.body.monthlyData.every((r: any) => r.coinBased.monthlyPriceCollected === 0)).toBe(true);
  });

  it('puts a sale at 23:30 local time (20:30Z) on its local day and one at 00:00 local on the next, through the real ingest', async () => {
    const device = await provisionDevice(t.http, admin);
    const m = await createManagerWith(device.espId);
    const day = today();
    const [y, mo, d] = day.split('-').map(Number) as [number, number, number];
    const late = new Date(Date.UTC(y, mo - 1, d - 1, 20, 30)); // yesterday 23:30 local
    const midnight = new Date(Date.UTC(y, mo - 1, d - 1, 21, 0)); // today 00:00 local
    const sales = [
      { eventId: randomUUID(), kind: 'coin', price: 700, volume: 14, waterType: 'cold', time: late.toISOString() },
      { eventId: randomUUID(), kind: 'coin', price: 300, volume: 6, waterType: 'pure', time: midnight.toISOString() },
    ];
    const res = await t.http.post(`/machines/${device.espId}/sales`, sales, {
      headers: { 'x-device-key': device.deviceKey },
    });
    expect(res.status).toBe(202);
    const yesterday = new Date(Date.UTC(y, mo - 1, d - 1)).toISOString().slice(0, 10);
    const daily = await waitFor(
      () => get(`/user/machines/daily-summary?date=${yesterday}`, m),
      (r) => r.body.dailyData[0]?.coinBased.dailyPriceCollected === 700,
    );
    expect(daily.body.dailyData).toEqual([
      {
        machineId: device.espId,
        coinBased: { dailyPriceCollected: 700, volumeSold: 14 },
        cardBased: { dailyPriceCollected: 0, volumeSold: 0 },
      },
    ]);
    // No date: today in APP_TIMEZONE, which holds the midnight sale only.
    const now = await waitFor(
      () => get('/user/machines/daily-summary', m),
      (r) => r.body.dailyData[0]?.coinBased.dailyPriceCollected === 300,
    );
    expect(now.body.dailyData[0].coinBased).toEqual({ dailyPriceCollected: 300, volumeSold: 6 });
    const lateOnly = await get(
      `/machines/${device.espId}/coin-transactions?startDate=${yesterday}&endDate=${yesterday}`,
      m,
    );
    expect(lateOnly.body).toMatchObject({ total: 1, data: [{ price: 700, time: late.toISOString() }] });
  });

  it('overview gives 24 local hours, litres and money by water type, and the machines with their state', async () => {
    const day = '2026-03-05';
    const res = await get(`/user/machines/overview?date=${day}`);
    expect(res.status).toBe(200);
    expect(res.body.date).toBe(day);
    expect(res.body.hourly.map((h: any) => h.hour)).toEqual([...Array(24).keys()]);
    const rows: any[] = await t.dataSource.query(
      `SELECT extract(hour FROM sold_at AT TIME ZONE $2)::int AS hour, kind, water_type, price::float8 AS price, volume::float8 AS volume
       FROM sales WHERE esp_id = ANY($1) AND (sold_at AT TIME ZONE $2)::date = $3`,
      [idsA, TZ, day],
    );
    expect(rows.length).toBeGreaterThan(0);
    for (const h of res.body.hourly) {
      const inHour = rows.filter((r) => r.hour === h.hour);
      expect(h.sales).toBe(inHour.length);
      expect(h.coin).toBeCloseTo(
        inHour.filter((r) => r.kind === 'coin').reduce((a, r) => a + r.price, 0),
        2,
      );
      expect(h.card).toBeCloseTo(
        inHour.filter((r) => r.kind === 'card').reduce((a, r) => a + r.price, 0),
        2,
      );
      expect(h.volume).toBeCloseTo(
        inHour.reduce((a, r) => a + r.volume, 0),
        3,
      );
    }
    for (const w of res.body.byWaterType) {
      expect(w.volume).toBeCloseTo(
        rows.filter((r) => r.water_type === w.waterType).reduce((a, r) => a + r.volume, 0),
        3,
      );
    }
    expect(res.body.machines.map((m: any) => m.machineId)).toEqual([...idsA].sort());
    expect(res.body.machines.find((m: any) => m.machineId === idsA[0])).toEqual({
      machineId: idsA[0],
      location: 'Ubungo stand',
      online: false,
      lastSeen: null,
      attendant: { firstName: 'attendant-first', lastName: 'attendant-last' },
      config: { version: 0, appliedVersion: 0 },
    });
  });

  it('recent sales are the newest of the caller’s machines only, newest first', async () => {
    const res = await get('/user/machines/recent-sales?limit=20');
    expect(res.status).toBe(200);
    const expected: { id: string }[] = await t.dataSource.query(
      `SELECT id::text FROM sales WHERE esp_id = ANY($1) ORDER BY sold_at DESC, id DESC LIMIT 20`,
      [idsA],
    );
    expect(res.body.map((r: any) => r.id)).toEqual(expected.map((r) => r.id));
    expect(Object.keys(res.body[0]).sort()).toEqual(
      ['cardId', 'id', 'kind', 'machineId', 'price', 'time', 'volume', 'waterType'].sort(),
    );
    expect(typeof res.body[0].price).toBe('number');
    const all = await get('/user/machines/recent-sales?limit=200', admin);
    const everything: { id: string }[] = await t.dataSource.query(
      `SELECT id::text FROM sales ORDER BY sold_at DESC, id DESC LIMIT 200`,
    );
    expect(all.body.map((r: any) => r.id)).toEqual(everything.map((r) => r.id));
  });

  it('answers 400 for bad dates and limits, 403 to attendants and 401 anonymous', async () => {
    for (const path of ['daily-summary', 'monthly-summary', 'overview']) {
      expect((await get(`/user/machines/${path}?date=2026-13-01`)).status).toBe(400);
      expect((await get(`/user/machines/${path}?date=yesterday`)).status).toBe(400);
      expect((await get(`/user/machines/${path}`, attendant.token)).status).toBe(403);
      expect((await t.http.get(`/user/machines/${path}`)).status).toBe(401);
    }
    expect((await get('/user/machines/recent-sales?limit=0')).status).toBe(400);
    expect((await get('/user/machines/recent-sales?limit=201')).status).toBe(400);
  });

  /** A manager whose one device is `espId`. */
  async function createManagerWith(espId: string): Promise<string> {
    const fields = personFields('manager');
    const res = await t.http.post(
      '/admin/register-user',
      { ...fields, esp32Id: espId, machine_location: 'Posta' },
      { token: admin },
    );
    expect(res.status).toBe(201);
    return t.http.login(fields.email, fields.password);
  }
});
