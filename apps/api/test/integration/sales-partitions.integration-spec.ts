import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { randomUUID } from 'node:crypto';
import { DataSource } from 'typeorm';
import { migrations } from '../../src/database/migrations/index.js';
import { SalesPartitions1763710900000 } from '../../src/database/migrations/1763710900000-sales-partitions.js';
import { monthPartition, retentionCutoff, SalePartitionRepository } from '../../src/sale/sale-partition.repository.js';
import { SALE_PARTITIONS_AHEAD_MONTHS, SalePartitions } from '../../src/sale/sale-partitions.js';
import { createManager } from '../factories/fleet.factory.js';
import { saleMessage } from '../factories/sales.factory.js';
import { TestMachine } from '../support/mqtt-machine.js';
import { createTestApp, TEST_ADMIN, type TestApp } from '../support/test-app.js';
import { dropDatabase, emptyDatabase, migratedUpTo } from '../support/test-databases.js';

const DAY = 24 * 3600 * 1000;

/** `at` moved by whole UTC months (the day of month kept, clamped by Date's arithmetic). */
function monthsFrom(at: Date, months: number): Date {
  const d = new Date(at);
  d.setUTCMonth(d.getUTCMonth() + months);
  return d;
}

/** Every sale's row as text, in id order: the same rows means the same text. */
const SNAPSHOT = `SELECT coalesce(json_agg(s ORDER BY s.id)::text, '[]') AS rows FROM sales s`;
const SUMS = `SELECT count(*)::int AS n, coalesce(sum(price), 0)::text AS price, coalesce(sum(volume), 0)::text AS volume,
                     coalesce(max(id), 0)::text AS "maxId"
              FROM sales`;
/** Rows stored in another partition than the month of their sold_at (the default partition counts as wrong). */
const MISPLACED = `SELECT count(*)::int AS n FROM sales
                   WHERE tableoid::regclass::text <> 'sales_' || to_char(sold_at AT TIME ZONE 'UTC', 'YYYY_MM')`;

/**
 * The partitions' bounds in order, and whatever breaks "every time has exactly one partition": the first
 * must start at MINVALUE, each must start where the one before ends, the last must end at MAXVALUE.
 */
async function coverageProblems(ds: DataSource): Promise<string[]> {
  const bounds: { name: string; bound: string }[] = await ds.transaction(async (m) => {
    await m.query(`SET LOCAL TIME ZONE 'UTC'`);
    return m.query(
      `SELECT c.relname AS name, pg_get_expr(c.relpartbound, c.oid) AS bound
       FROM pg_inherits i JOIN pg_class c ON c.oid = i.inhrelid WHERE i.inhparent = 'sales'::regclass`,
    );
  });
  const value = (v: string) =>
    v === 'MINVALUE' ? -Infinity : v === 'MAXVALUE' ? Infinity : Date.parse(v.replace(' ', 'T').replace(/\+00$/, 'Z'));
  const ranges = bounds
    .map(({ name, bound }) => {
      const match = /FROM \('?([^')]+)'?\) TO \('?([^')]+)'?\)/.exec(bound);
      if (!match) return { name, from: NaN, to: NaN };
      return { name, from: value(match[1]!), to: value(match[2]!) };
    })
    .sort((a, b) => a.from - b.from);
  const problems: string[] = [];
  if (ranges[0]?.from !== -Infinity) problems.push(`${ranges[0]?.name} does not start at MINVALUE`);
  if (ranges[ranges.length - 1]?.to !== Infinity) problems.push(`the last partition does not end at MAXVALUE`);
  for (let i = 1; i < ranges.length; i++) {
    if (ranges[i]!.from !== ranges[i - 1]!.to)
      problems.push(`${ranges[i - 1]!.name} and ${ranges[i]!.name} do not meet`);
  }
  return problems;
}

const partitionNames = async (ds: DataSource): Promise<string[]> =>
  (
    (await ds.query(
      `SELECT c.relname FROM pg_inherits i JOIN pg_class c ON c.oid = i.inhrelid
       WHERE i.inhparent = 'sales'::regclass ORDER BY 1`,
    )) as { relname: string }[]
  ).map((r) => r.relname);

/** docs/partitions.md: the migration that partitions an existing `sales`. */
describe('sales partitioning migration', () => {
  let name = '';
  let ds: DataSource | undefined;

  beforeAll(async () => {
    name = await emptyDatabase('part');
  });
  afterAll(async () => {
    if (ds?.isInitialized) await ds.destroy();
    await dropDatabase(name);
  });

  it('moves every row of a database holding several months, keeping ids, sums and exactly-once', async () => {
    const partitioning = migrations.indexOf(SalesPartitions1763710900000);
    const previous = await migratedUpTo(name, partitioning);
    // 6 months back to now: 3 machines, a sale every 7 hours, coin and card, some flagged, ids with a gap.
    const now = Date.now();
    await previous.query(
      `INSERT INTO sales (esp_id, event_id, kind, price, volume, water_type, card_id, flag, sold_at, local_date, source,
                          seq, offline, dispensed)
       SELECT 'ESP-' || (g % 3), 'ev-' || g, CASE WHEN g % 4 = 0 THEN 'card' ELSE 'coin' END, 100 + g % 50,
              1 + (g % 9) * 0.5, (ARRAY['pure','fresh','cold'])[1 + g % 3], CASE WHEN g % 4 = 0 THEN 'C-' || (g % 5) END,
              CASE WHEN g % 40 = 0 THEN 'overdrawn' END, t, (t AT TIME ZONE 'Africa/Dar_es_Salaam')::date,
              CASE WHEN g % 2 = 0 THEN 'mqtt' ELSE 'rest' END, g, g % 7 = 0, CASE WHEN g % 5 = 0 THEN 2.5 END
       FROM generate_series(1, 620) g, LATERAL (SELECT to_timestamp($1::float8 / 1000) - g * interval '7 hours' AS t) x`,
      [now],
    );
    await previous.query(`DELETE FROM sales WHERE id BETWEEN 100 AND 110`);
    const [before] = await previous.query(SNAPSHOT);
    const [sumsBefore] = await previous.query(SUMS);
    const [months] = await previous.query(
      `SELECT count(DISTINCT date_trunc('month', sold_at AT TIME ZONE 'UTC'))::int AS n FROM sales`,
    );
    expect(months.n).toBeGreaterThanOrEqual(6);
    await previous.destroy();

    // Later migrations left out, so that undoing the last one below undoes the partitioning.
    ds = await migratedUpTo(name, partitioning + 1);
    expect(await ds.query(SNAPSHOT)).toEqual([before]);
    expect(await ds.query(SUMS)).toEqual([sumsBefore]);
    expect(await ds.query(MISPLACED)).toEqual([{ n: 0 }]);
    const [{ relkind }] = await ds.query(`SELECT relkind FROM pg_class WHERE oid = 'sales'::regclass`);
    expect(relkind).toBe('p');
    // A partition per month from the oldest sale's to SALE_PARTITIONS_AHEAD_MONTHS after this one.
    const names = await partitionNames(ds);
    for (let i = 0; i <= SALE_PARTITIONS_AHEAD_MONTHS; i++) {
      expect(names).toContain(monthPartition(new Date(now), i).name);
    }
    expect(names).toEqual(expect.arrayContaining(['sales_before', 'sales_after']));
    expect(await coverageProblems(ds)).toEqual([]);
    expect(await ds.query(`SELECT count(*)::int AS n FROM sale_keys`)).toEqual([{ n: sumsBefore.n }]);

    // New ids continue after the old ones.
    const [{ id }] = await ds.query(
      `INSERT INTO sales (esp_id, event_id, kind, price, volume, water_type, sold_at, local_date, source)
       VALUES ('ESP-0', 'new', 'coin', 1, 1, 'pure', now(), current_date, 'rest') RETURNING id::text AS id`,
    );
    expect(BigInt(id)).toBeGreaterThan(BigInt(sumsBefore.maxId));
    await ds.query(`DELETE FROM sales WHERE id = $1`, [id]);

    // And back: the unpartitioned table with the same rows and its unique (esp_id, event_id).
    await ds.undoLastMigration({ transaction: 'each' });
    expect(await ds.query(SNAPSHOT)).toEqual([before]);
    const [{ relkind: plain }] = await ds.query(`SELECT relkind FROM pg_class WHERE oid = 'sales'::regclass`);
    expect(plain).toBe('r');
    expect(await ds.query(`SELECT to_regclass('sales_event_uq') IS NOT NULL AS uq`)).toEqual([{ uq: true }]);
    expect(await ds.query(`SELECT to_regclass('sale_keys') IS NULL AS gone`)).toEqual([{ gone: true }]);
    await ds.runMigrations({ transaction: 'each' });
    expect(await ds.query(SNAPSHOT)).toEqual([before]);
    expect(await ds.query(MISPLACED)).toEqual([{ n: 0 }]);
  }, 120_000);
});

/** docs/partitions.md: exactly once through sale_keys, the ahead job, and SALES_RETENTION_MONTHS. */
describe('partitioned sales', () => {
  let t: TestApp;
  let admin: string;
  let manager: Awaited<ReturnType<typeof createManager>>;
  const machines: TestMachine[] = [];

  const machine = async (i: number) => {
    const device = manager.devices[i]!;
    const m = await TestMachine.connect(t.mqttPort, device.espId, device.deviceKey);
    machines.push(m);
    return { m, espId: device.espId };
  };
  /** Publishes and waits for every acknowledgement (duplicates are acknowledged too). */
  const deliver = async (m: TestMachine, sales: ({ eventId: string } & Record<string, unknown>)[]) => {
    await m.publishSales(sales);
    await m.waitForAcks(
      sales.map((s) => s.eventId),
      30_000,
    );
  };
  const stored = (espId: string) =>
    t.dataSource.query(
      `SELECT event_id AS "eventId", sold_at AS "soldAt", tableoid::regclass::text AS partition, id::text AS id
       FROM sales WHERE esp_id = $1 ORDER BY sold_at, id`,
      [espId],
    ) as Promise<{ eventId: string; soldAt: Date; partition: string; id: string }[]>;
  const rollups = (espId: string) =>
    t.dataSource.query(
      `SELECT (SELECT coalesce(sum(sales_count), 0)::int FROM sales_daily WHERE esp_id = $1) AS daily,
              (SELECT coalesce(sum(sales_count), 0)::int FROM sales_monthly WHERE esp_id = $1) AS monthly,
              (SELECT coalesce(sum(price_total), 0)::text FROM sales_monthly WHERE esp_id = $1) AS price`,
      [espId],
    ) as Promise<{ daily: number; monthly: number; price: string }[]>;

  beforeAll(async () => {
    t = await createTestApp({ ALARM_SWEEP_INTERVAL_MS: '3600000' });
    admin = await t.http.login(TEST_ADMIN.email, TEST_ADMIN.password);
    manager = await createManager(t.http, admin, 4);
  }, 120_000);
  afterAll(async () => {
    await Promise.all(machines.map((m) => m.end()));
    await t.close();
  });

  it('stores a sale delivered again once, with or without time and with another time', async () => {
    const { m, espId } = await machine(0);
    const first = saleMessage({ time: new Date(Date.now() - 60_000).toISOString() });
    await deliver(m, [first]);
    const { time: _time, ...withoutTime } = first;
    await deliver(m, [withoutTime]);
    await deliver(m, [{ ...first, time: new Date(Date.now() - 40 * DAY).toISOString(), price: 900 }]);
    await deliver(m, [first, first]);
    // A sale without time twice: its sold_at would be each receive time.
    const timeless = saleMessage();
    delete (timeless as { time?: string }).time;
    await deliver(m, [timeless]);
    await new Promise((r) => setTimeout(r, 20));
    await deliver(m, [timeless]);

    const rows = await stored(espId);
    expect(rows.map((r) => r.eventId).sort()).toEqual([first.eventId, timeless.eventId].sort());
    expect(rows.find((r) => r.eventId === first.eventId)!.soldAt.toISOString()).toBe(first.time);
    expect(await rollups(espId)).toEqual([{ daily: 2, monthly: 2, price: '1000.00' }]);
    const keys = await t.dataSource.query(`SELECT count(*)::int AS n FROM sale_keys WHERE esp_id = $1`, [espId]);
    expect(keys).toEqual([{ n: 2 }]);
    // The transaction page answers as before.
    const page = await t.http.get(`/machines/${espId}/coin-transactions?page=1&limit=10`, { token: manager.token });
    expect(page.status).toBe(200);
  }, 60_000);

  it('makes the months ahead idempotently, and keeps and then files a sale whose month has no partition', async () => {
    const job = t.running.app.get(SalePartitions);
    const now = new Date();
    await job.maintain(now);
    const names = await partitionNames(t.dataSource);
    for (let i = 0; i <= SALE_PARTITIONS_AHEAD_MONTHS; i++) expect(names).toContain(monthPartition(now, i).name);
    expect(await job.maintain(now)).toMatchObject({ created: [], dropped: [], moved: 0 });
    expect(await partitionNames(t.dataSource)).toEqual(names);
    expect(await coverageProblems(t.dataSource)).toEqual([]);

    // A sale five months old: its month has no partition (the template held no sales), so it is stored in
    // sales_before, and acknowledged like any other.
    const { m, espId } = await machine(1);
    const old = saleMessage({ time: monthsFrom(now, -5).toISOString() });
    await deliver(m, [old]);
    const [waiting] = await stored(espId);
    expect(waiting!.partition).toBe('sales_before');
    // One past the months made ahead (written straight: the ingest refuses future times) is in sales_after.
    const future = monthsFrom(now, 6);
    await t.dataSource.query(
      `INSERT INTO sales (esp_id, event_id, kind, price, volume, water_type, sold_at, local_date, source)
       VALUES ($1, 'far', 'coin', 1, 1, 'pure', $2::timestamptz, $2::timestamptz::date, 'rest')`,
      [espId, future],
    );
    const [, far] = await stored(espId);
    expect(far!.partition).toBe('sales_after');

    // Three months later the job has made the months up to the far sale's, and filed both sales.
    const later = monthsFrom(now, 3);
    const done = await job.maintain(later);
    const oldMonth = monthPartition(new Date(old.time));
    expect(done.created).toEqual(
      expect.arrayContaining([oldMonth.name, ...[4, 5, 6].map((i) => monthPartition(now, i).name)]),
    );
    expect(done.moved).toBe(2);
    expect(await stored(espId)).toEqual([
      { ...waiting, partition: oldMonth.name },
      { ...far, partition: monthPartition(future).name },
    ]);
    expect(await t.dataSource.query(MISPLACED)).toEqual([{ n: 0 }]);
    expect(await coverageProblems(t.dataSource)).toEqual([]);
    const filed = await partitionNames(t.dataSource);
    expect(await job.maintain(later)).toMatchObject({ created: [], dropped: [], moved: 0 });
    expect(await partitionNames(t.dataSource)).toEqual(filed);

    // Still exactly once after the move, and the page finds it.
    await t.dataSource.query(`DELETE FROM sales WHERE esp_id = $1 AND event_id = 'far'`, [espId]);
    await deliver(m, [old]);
    const [moved] = await stored(espId);
    expect(await stored(espId)).toEqual([moved]);
    const page = await t.http.get(`/machines/${espId}/coin-transactions?page=1&limit=10`, { token: manager.token });
    expect(page.body.data.map((r: { id: string }) => String(r.id))).toEqual([moved!.id]);
  }, 60_000);

  it('drops only whole months past SALES_RETENTION_MONTHS, keeping the rest, the rollups and the keys', async () => {
    const repo = t.running.app.get(SalePartitionRepository);
    const now = new Date();
    const { m, espId } = await machine(2);
    const times = [-6, -4, -3, -2, 0].map((months) => monthsFrom(new Date(now.getTime() - DAY), months));
    const sales = times.map((at) => saleMessage({ time: at.toISOString(), eventId: randomUUID() }));
    await deliver(m, sales);
    await repo.maintain(now, undefined, SALE_PARTITIONS_AHEAD_MONTHS);
    expect(await t.dataSource.query(MISPLACED)).toEqual([{ n: 0 }]);
    const rollupsBefore = await rollups(espId);
    expect(rollupsBefore[0]!.monthly).toBe(5);

    const cutoff = retentionCutoff(now, 3);
    const kept = sales.filter((s) => monthPartition(new Date(s.time)).to > cutoff);
    const gone = sales.filter((s) => monthPartition(new Date(s.time)).to <= cutoff);
    expect(gone.length).toBeGreaterThanOrEqual(2);
    const partitionsBefore = await partitionNames(t.dataSource);
    const done = await repo.maintain(now, 3, SALE_PARTITIONS_AHEAD_MONTHS);
    expect(done.dropped.length).toBeGreaterThanOrEqual(2);
    for (const name of done.dropped) expect(partitionMonthEnd(name)).toBeLessThanOrEqual(cutoff.getTime());
    expect((await partitionNames(t.dataSource)).sort()).toEqual(
      partitionsBefore.filter((n) => !done.dropped.includes(n)).sort(),
    );
    expect((await stored(espId)).map((r) => r.eventId).sort()).toEqual(kept.map((s) => s.eventId).sort());
    // Every sale younger than the limit is kept.
    expect(kept.every((s) => Date.parse(s.time) >= monthsFrom(now, -3).getTime() - 31 * DAY)).toBe(true);
    expect(await rollups(espId)).toEqual(rollupsBefore);
    expect(await coverageProblems(t.dataSource)).toEqual([]);

    // The keys outlive the dropped months: a redelivery of a dropped sale is a duplicate, not a new sale.
    await deliver(m, gone);
    expect((await stored(espId)).length).toBe(kept.length);
    expect(await rollups(espId)).toEqual(rollupsBefore);

    // Keys go once older than both the retention and 13 months (batched through sale_keys_sold_at_idx).
    const later = monthsFrom(now, 15);
    const pruned = await repo.maintain(later, 3, SALE_PARTITIONS_AHEAD_MONTHS);
    expect(pruned.deletedKeys).toBeGreaterThanOrEqual(sales.length);
    expect(await coverageProblems(t.dataSource)).toEqual([]);
    expect(
      await t.dataSource.query(`SELECT count(*)::int AS n FROM sale_keys WHERE sold_at < $1`, [
        retentionCutoff(later, 13),
      ]),
    ).toEqual([{ n: 0 }]);
  }, 60_000);
});

function partitionMonthEnd(name: string): number {
  const match = /^sales_(\d{4})_(\d{2})$/.exec(name)!;
  return Date.UTC(Number(match[1]), Number(match[2]), 1);
}
