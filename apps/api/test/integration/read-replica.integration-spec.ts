import { isDeepStrictEqual } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import ExcelJS from 'exceljs';
import { randomUUID } from 'node:crypto';
import type { DataSource } from 'typeorm';
import { ConfigError, loadConfig } from '../../src/config/app-config.js';
import { READ_DATA_SOURCE, ReadReplica } from '../../src/database/read-data-source.js';
import { createManager, personFields, provisionDevice } from '../factories/fleet.factory.js';
import { waitFor } from '../support/mqtt-machine.js';
import { PgReplicaPair } from '../support/pg-replica.js';
import { createTestApp, TEST_ADMIN, type TestApp } from '../support/test-app.js';

const TZ = 'Africa/Dar_es_Salaam';
const DATABASE = 'wv_replica';
/** A local day three days back: every sale of the test is on it (the ingest takes up to 365 days back). */
const DAY = new Intl.DateTimeFormat('en-CA', { timeZone: TZ }).format(new Date(Date.now() - 3 * 86_400_000));
/** What every sales view should say about the test machine, from the sales the primary holds. */
type Views = { daily: number; monthly: number; total: number; recent: number; overview: number; exported: number };

/**
 * DATABASE_READ_URL (docs/read-replica.md): the sales views (summaries, overview, recent sales,
 * transaction pages, exports) read a real streaming standby, everything else the primary. Replay
 * paused on the standby shows the reads land there; a stopped standby turns the views into 503 while
 * sales keep being ingested.
 */
describe('read replica: the sales views read a streaming standby', () => {
  let pair: PgReplicaPair;
  let t: TestApp;
  let admin: string;
  let manager: Awaited<ReturnType<typeof createManager>>;
  let machine: string;
  let deviceKey: string;
  /** The sales ingested so far for `machine`: count and money. */
  const sold = { count: 0, money: 0 };

  const get = (path: string, token = manager.token) => t.http.get(path, { token });

  /** Sells `n` coin sales on DAY through the REST ingest (the device key), as a machine does. */
  async function sell(n: number, price: number, espId = machine, key = deviceKey): Promise<void> {
    const sales = Array.from({ length: n }, (_, i) => ({
      eventId: randomUUID(),
      kind: 'coin',
      price,
      volume: 2,
      waterType: 'pure',
      time: new Date(Date.parse(`${DAY}T09:00:00+03:00`) + (sold.count + i) * 60_000).toISOString(),
    }));
    const res = await t.http.post(`/machines/${espId}/sales`, sales, { headers: { 'x-device-key': key } });
    expect(res.status).toBe(202);
    if (espId === machine) {
      sold.count += n;
      sold.money += n * price;
    }
  }

  const expected = (): Views => ({
    daily: sold.money,
    monthly: sold.money,
    total: sold.count,
    recent: sold.count,
    overview: sold.count,
    exported: sold.count,
  });

  /** Sales of `machine` on the primary (the program's own DataSource). */
  async function onPrimary(): Promise<{ count: number; money: number }> {
    const [row] = (await t.dataSource.query(
      `SELECT count(*)::int AS count, coalesce(sum(price), 0)::float8 AS money FROM sales WHERE esp_id = $1`,
      [machine],
    )) as { count: number; money: number }[];
    return row!;
  }

  async function exportedRows(): Promise<number> {
    const res = await fetch(`${t.baseUrl}/api/machines/${machine}/coin-transactions.xlsx?startDate=${DAY}`, {
      headers: { authorization: `Bearer ${manager.token}` },
    });
    expect(res.status).toBe(200);
    const workbook = new ExcelJS.Workbook();
    await workbook.xlsx.load((await res.arrayBuffer()) as ArrayBuffer);
    return workbook.getWorksheet('Sheet1')!.rowCount - 1; // the header row
  }

  /** Every sales view's figure for `machine`, as the API answers now. */
  async function views(): Promise<Views> {
    const [daily, monthly, page, recent, overview] = await Promise.all([
      get(`/user/machines/daily-summary?date=${DAY}`),
      get(`/user/machines/monthly-summary?date=${DAY}`),
      get(`/machines/${machine}/coin-transactions?startDate=${DAY}&endDate=${DAY}&limit=1000`),
      get('/user/machines/recent-sales?limit=200'),
      get(`/user/machines/overview?date=${DAY}`),
    ]);
    for (const res of [daily, monthly, page, recent, overview]) expect(res.status).toBe(200);
    return {
      daily: daily.body.dailyData.find((r: any) => r.machineId === machine).coinBased.dailyPriceCollected,
      monthly: monthly.body.monthlyData.find((r: any) => r.machineId === machine).coinBased.monthlyPriceCollected,
      total: page.body.total,
      recent: recent.body.filter((r: any) => r.machineId === machine).length,
      overview: overview.body.hourly.reduce((n: number, h: any) => n + h.sales, 0),
      exported: await exportedRows(),
    };
  }

  beforeAll(async () => {
    pair = await PgReplicaPair.create();
    // The program creates a missing database, but on the primary only: the standby must have it
    // before the program connects to it, so it is made and replicated first.
    await pair.primary.query(`CREATE DATABASE ${DATABASE}`);
    await pair.caughtUp();
    t = await createTestApp({
      DATABASE_URL: pair.primary.urlFor(DATABASE),
      DATABASE_READ_URL: pair.standby.urlFor(DATABASE),
    });
    admin = await t.http.login(TEST_ADMIN.email, TEST_ADMIN.password);
    manager = await createManager(t.http, admin, 1);
    machine = manager.devices[0]!.espId;
    deviceKey = manager.devices[0]!.deviceKey;
    await pair.caughtUp();
  }, 180_000);

  afterAll(async () => {
    await pair?.resumeReplay().catch(() => undefined);
    await t?.close();
    pair?.destroy();
  }, 60_000);

  it('runs the program on the primary and the sales views on a pool of the standby', async () => {
    const read = t.running.app.get<DataSource>(READ_DATA_SOURCE);
    expect(read).not.toBe(t.dataSource);
    expect(t.config.databaseUrl).toBe(pair.primary.urlFor(DATABASE));
    expect(t.config.databaseReadUrl).toBe(pair.standby.urlFor(DATABASE));
    expect(await read.query('SELECT pg_is_in_recovery() AS standby')).toEqual([{ standby: true }]);
    expect(await t.dataSource.query('SELECT pg_is_in_recovery() AS standby')).toEqual([{ standby: false }]);
    // The primary streams to the standby.
    expect(await pair.standby.isStreaming(pair.primary)).toBe(true);
    await views();
    // The read pool's sessions (application_name wv-read) are on the standby, none on the primary.
    const sessions = `SELECT count(*)::int AS n FROM pg_stat_activity WHERE application_name = 'wv-read' AND datname = $1`;
    expect((await pair.standby.query<{ n: number }>(sessions, [DATABASE]))[0]!.n).toBeGreaterThan(0);
    expect((await pair.primary.query<{ n: number }>(sessions, [DATABASE]))[0]!.n).toBe(0);
  });

  it('shows sales ingested through the program in every view once replicated', async () => {
    await sell(5, 250);
    await sell(2, 300);
    // Every view at once: the endpoints are read one after the other while the standby replays the commits.
    const shown = await waitFor(views, (v) => isDeepStrictEqual(v, expected()), 20_000);
    expect(shown).toEqual(expected());
    expect(await onPrimary()).toEqual(sold);
  });

  it('reads the standby: with replay paused the views stay as they were while the primary has the new sales', async () => {
    const before = expected();
    await pair.pauseReplay();
    try {
      await sell(3, 500);
      await waitFor(onPrimary, (p) => p.count === sold.count);
      // The standby receives the WAL of the new sales but does not apply it.
      await waitFor(
        () =>
          pair.standby.query<{ behind: boolean }>(
            'SELECT pg_last_wal_receive_lsn() > pg_last_wal_replay_lsn() AS behind',
          ),
        (rows) => rows[0]?.behind === true,
      );
      for (let i = 0; i < 3; i++) {
        expect(await views()).toEqual(before);
        await new Promise((resolve) => setTimeout(resolve, 200));
      }
      expect(expected()).not.toEqual(before);
    } finally {
      await pair.resumeReplay();
    }
    expect(await waitFor(views, (v) => isDeepStrictEqual(v, expected()), 20_000)).toEqual(expected());
  });

  it('never writes to the standby: writes, and reads of their own writes, work while it lags', async () => {
    await pair.pauseReplay();
    let newcomer: { espId: string; token: string; deviceKey: string };
    try {
      // Each step writes, and the next reads what it wrote: provisioning, a new account, its login, a sale.
      const device = await provisionDevice(t.http, admin);
      const fields = personFields('manager');
      const registered = await t.http.post(
        '/admin/register-user',
        { ...fields, esp32Id: device.espId, machine_location: 'Sinza' },
        { token: admin },
      );
      expect(registered.status).toBe(201);
      newcomer = {
        espId: device.espId,
        deviceKey: device.deviceKey,
        token: await t.http.login(fields.email, fields.password),
      };
      await sell(1, 700, newcomer.espId, newcomer.deviceKey);
      await waitFor(
        async () => (await t.dataSource.query('SELECT 1 FROM sales WHERE esp_id = $1', [newcomer.espId])).length,
        (n) => n === 1,
      );
      // The standby has none of it yet: the newcomer's summary lists no machine.
      const lagging = await get(`/user/machines/daily-summary?date=${DAY}`, newcomer.token);
      expect(lagging).toMatchObject({ status: 200, body: { dailyData: [] } });
    } finally {
      await pair.resumeReplay();
    }
    const caughtUp = await waitFor(
      () => get(`/user/machines/daily-summary?date=${DAY}`, newcomer.token),
      (r) => r.body.dailyData[0]?.coinBased.dailyPriceCollected === 700,
    );
    expect(caughtUp.body.dailyData[0]).toEqual({
      machineId: newcomer.espId,
      coinBased: { dailyPriceCollected: 700, volumeSold: 2 },
      cardBased: { dailyPriceCollected: 0, volumeSold: 0 },
    });
    // No statement was refused by the standby (a write there fails: "cannot execute … in a read-only transaction").
    expect(pair.standby.log()).not.toMatch(/read-only transaction|cannot execute/);
  });

  it('answers 503 for the sales views while the standby is down; ingest and health go on; it recovers', async () => {
    await pair.standby.stop('fast');
    try {
      for (const path of [
        `/user/machines/daily-summary?date=${DAY}`,
        `/user/machines/monthly-summary?date=${DAY}`,
        `/user/machines/overview?date=${DAY}`,
        '/user/machines/recent-sales?limit=10',
        `/machines/${machine}/coin-transactions`,
        `/machines/${machine}/coin-transactions.xlsx`,
      ]) {
        const res = await get(path);
        expect({ path, status: res.status, body: res.body }).toEqual({
          path,
          status: 503,
          body: expect.objectContaining({ statusCode: 503, code: 'ServiceUnavailable' }),
        });
        expect(res.headers.get('retry-after')).toBe('10');
        expect(res.headers.get('content-type')).toMatch(/^application\/json/);
      }
      await sell(4, 125);
      expect(await waitFor(onPrimary, (p) => p.count === sold.count)).toEqual(sold);
      // Readiness covers the primary, Redis and the broker (docs/read-replica.md, "When the replica is down").
      expect(await t.http.get('/health')).toMatchObject({ status: 200, body: { status: 'ok', db: 'up' } });
    } finally {
      await pair.standby.start();
    }
    // The standby catches up from the primary, and the read pool reconnects by itself.
    expect(await waitFor(views, (v) => isDeepStrictEqual(v, expected()), 30_000)).toEqual(expected());
  });

  it('checks DATABASE_READ_URL at start: a bad URL or an unreachable replica is one clear line', async () => {
    expect(loadConfig({}).databaseReadUrl).toBeUndefined();
    expect(() => loadConfig({ DATABASE_READ_URL: 'mysql://db.example.com/sales' })).toThrow(
      new ConfigError(
        'Invalid DATABASE_READ_URL: DATABASE_READ_URL must look like postgres://user@host:5432/dbname. ' +
          'Change DATABASE_READ_URL and start again.',
      ),
    );
    const unreachable = new ReadReplica({ ...t.config, databaseReadUrl: 'postgres://postgres:secret@127.0.0.1:1/wv' });
    const refused = await unreachable.onModuleInit().then(
      () => undefined,
      (error: unknown) => error,
    );
    expect(refused).toBeInstanceOf(ConfigError);
    expect((refused as Error).message).toMatch(
      /^Cannot reach the read replica at postgres:\/\/postgres:\*\*\*@127\.0\.0\.1:1\/wv \(.+\)\. Check DATABASE_READ_URL\.$/,
    );
    expect((refused as Error).message).not.toContain('\n');
    await unreachable.onApplicationShutdown();
  });

  it('reads through sessions that refuse writes, even on a server that is not a standby', async () => {
    const onPrimaryReplica = new ReadReplica({ ...t.config, databaseReadUrl: pair.primary.urlFor(DATABASE) });
    await onPrimaryReplica.onModuleInit(); // warns: not a standby
    try {
      const write = onPrimaryReplica.dataSource.query(
        `UPDATE devices SET location = 'written through the read pool' WHERE esp_id = $1`,
        [machine],
      );
      await expect(write).rejects.toMatchObject({ driverError: expect.objectContaining({ code: '25006' }) });
      expect(await onPrimaryReplica.dataSource.query('SELECT count(*)::int AS n FROM sales')).toEqual([
        { n: expect.any(Number) },
      ]);
    } finally {
      await onPrimaryReplica.onApplicationShutdown();
    }
  });
});
