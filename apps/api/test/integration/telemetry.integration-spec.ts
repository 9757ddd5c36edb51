import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { TelemetryPartitions } from '../../src/telemetry/telemetry-partitions.js';
import { createManager } from '../factories/fleet.factory.js';
import { createTestApp, TEST_ADMIN, type TestApp } from '../support/test-app.js';

const MINUTE = 60_000;
const DAY = 24 * 60 * MINUTE;

/** Telemetry storage (docs/alarms.md, "Telemetry"): the downsampled chart data and the day partitions. */
describe('telemetry', () => {
  let t: TestApp;
  let admin: string;
  let manager: Awaited<ReturnType<typeof createManager>>;

  /** `count` readings ending now, `stepMs` apart, straight into the table. */
  const insertReadings = (espId: string, count: number, stepMs: number, end = Date.now()) =>
    t.dataSource.query(
      `INSERT INTO telemetry (esp_id, at, tank_level_pct, tds_ppm, cold_water_temp_c, coin_box_pct, error_code)
       SELECT $1, to_timestamp(($2::float8 - i * $3::float8) / 1000), 50 + (i % 2) * 10, 200, 8, i % 100,
              CASE WHEN i = 0 THEN 'E1' END
       FROM generate_series(0, $4::int - 1) AS i`,
      [espId, end, stepMs, count],
    );

  beforeAll(async () => {
    t = await createTestApp({ ALARM_SWEEP_INTERVAL_MS: '3600000' });
    admin = await t.http.login(TEST_ADMIN.email, TEST_ADMIN.password);
    manager = await createManager(t.http, admin, 3);
  }, 120_000);
  afterAll(() => t.close());

  it('answers the last 24 hours by default in at most 2,000 points, oldest first, averaged by time bucket', async () => {
    const { espId } = manager.devices[0]!;
    await insertReadings(espId, 5000, 15_000); // 20.8 hours, every 15 s
    await insertReadings(espId, 10, MINUTE, Date.now() - 2 * DAY); // outside the default period
    const res = await t.http.get(`/machines/${espId}/telemetry`, { token: manager.token });
    expect(res.status).toBe(200);
    const points = res.body.data as { at: string; tankLevelPct: number; tdsPpm: number; errorCode: string | null }[];
    expect(points.length).toBeGreaterThan(1000);
    expect(points.length).toBeLessThanOrEqual(2000);
    const times = points.map((p) => Date.parse(p.at));
    expect(times).toEqual([...times].sort((x, y) => x - y));
    expect(times[0]).toBeGreaterThan(Date.now() - DAY - MINUTE);
    // 50 and 60 alternate: a bucket holding both averages them.
    expect(points.every((p) => p.tankLevelPct >= 50 && p.tankLevelPct <= 60 && p.tdsPpm === 200)).toBe(true);
    expect(points.some((p) => p.tankLevelPct === 55)).toBe(true);
    expect(points[points.length - 1]!.errorCode).toBe('E1');
  });

  it('answers a short period reading by reading, and an empty one with no points', async () => {
    const { espId } = manager.devices[1]!;
    const end = Date.now();
    await insertReadings(espId, 30, MINUTE, end);
    const from = new Date(end - 10 * MINUTE + 1).toISOString();
    const to = new Date(end + 1).toISOString();
    const res = await t.http.get(`/machines/${espId}/telemetry?from=${from}&to=${to}`, { token: manager.token });
    expect(res.body.data).toHaveLength(10);
    expect(res.body.data[0]).toEqual({
      at: expect.any(String),
      tankLevelPct: expect.any(Number),
      tdsPpm: 200,
      coldWaterTempC: 8,
      coinBoxPct: expect.any(Number),
      errorCode: null,
    });
    const earlier = await t.http.get(`/machines/${espId}/telemetry?from=2026-01-01T00:00:00Z&to=2026-01-31T23:00:00Z`, {
      token: manager.token,
    });
    expect(earlier.body).toEqual({ data: [] });
  });

  it('keeps day partitions a week ahead and drops whole days past TELEMETRY_RETENTION_DAYS', async () => {
    const { espId } = manager.devices[2]!;
    const partitions = t.running.app.get(TelemetryPartitions);
    const names = async (): Promise<string[]> =>
      (
        await t.dataSource.query(
          `SELECT c.relname FROM pg_inherits i JOIN pg_class c ON c.oid = i.inhrelid
           WHERE i.inhparent = 'telemetry'::regclass ORDER BY 1`,
        )
      ).map((r: { relname: string }) => r.relname);
    const dayName = (ms: number) => `telemetry_p${new Date(ms).toISOString().slice(0, 10).replace(/-/g, '')}`;
    const now = Date.now();

    // As if the worker had run 100 days ago: those days got their partitions then.
    await partitions.maintain(new Date(now - 100 * DAY));
    expect(await names()).toContain(dayName(now - 100 * DAY));
    await insertReadings(espId, 3, MINUTE, now - 100 * DAY + 12 * 60 * MINUTE);
    await insertReadings(espId, 2, MINUTE, now - 120 * DAY); // no partition that day: the default one
    await insertReadings(espId, 4, MINUTE, now);

    await partitions.maintain(new Date(now));
    const after = await names();
    for (let d = -1; d <= 7; d++) expect(after).toContain(dayName(now + d * DAY));
    expect(after).not.toContain(dayName(now - 100 * DAY));
    expect(after).toContain('telemetry_default');
    const left: { at: Date }[] = await t.dataSource.query(`SELECT at FROM telemetry WHERE esp_id = $1`, [espId]);
    expect(left).toHaveLength(4);
    expect(left.every((r) => r.at.getTime() > now - DAY)).toBe(true);
    // Running it again changes nothing.
    expect(await partitions.maintain(new Date(now))).toEqual([]);
  });
});
