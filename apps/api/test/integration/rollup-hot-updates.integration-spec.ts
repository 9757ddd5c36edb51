import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { DataSource } from 'typeorm';
import { migrations } from '../../src/database/migrations/index.js';
import { RollupHotUpdates1763711100000 } from '../../src/database/migrations/1763711100000-rollup-hot-updates.js';
import { SaleRepository, type SaleRow } from '../../src/sale/sale.repository.js';
import { dropDatabase, emptyDatabase, migratedUpTo } from '../support/test-databases.js';

const TZ = 'Africa/Dar_es_Salaam';
/** What each batch of sales adds to a rollup row. */
const SUMMED = ['price_total', 'volume_total', 'sales_count'];

/** Every column an index of `table` names, as a key or INCLUDEd, per index. */
async function indexedColumns(ds: DataSource, table: string): Promise<Record<string, string[]>> {
  const rows = (await ds.query(
    `SELECT i.relname AS index, array_agg(a.attname::text ORDER BY a.attname) AS columns
     FROM pg_index x
     JOIN pg_class i ON i.oid = x.indexrelid
     JOIN pg_attribute a ON a.attrelid = x.indrelid AND a.attnum = ANY (x.indkey)
     WHERE x.indrelid = $1::regclass GROUP BY 1`,
    [table],
  )) as { index: string; columns: string[] }[];
  return Object.fromEntries(rows.map((r) => [r.index, r.columns]));
}

const sale = (espId: string, eventId: string): SaleRow => ({
  espId,
  eventId,
  kind: 'coin',
  price: 20,
  volume: 5,
  waterType: 'pure',
  cardId: null,
  soldAt: new Date(),
  receivedAt: new Date(),
  source: 'mqtt',
  seq: null,
  offline: false,
  dispensed: null,
});

/**
 * docs/performance.md, "The daily rollup's index": each batch of sales adds to its machines' rollup rows, and
 * those updates can stay heap-only (HOT) only while no index holds a summed column.
 */
describe('the rollups updated by every batch of sales', () => {
  let name = '';
  let ds: DataSource | undefined;

  beforeAll(async () => {
    name = await emptyDatabase('rollup');
  });
  afterAll(async () => {
    if (ds?.isInitialized) await ds.destroy();
    await dropDatabase(name);
  });

  it('keep their sums out of every index, so that adding a batch updates them without new index entries', async () => {
    const upTo = migrations.indexOf(RollupHotUpdates1763711100000);
    expect(upTo).toBeGreaterThan(0);
    // Before the migration the count sat in an index: the check below sees it.
    ds = await migratedUpTo(name, upTo);
    expect(Object.values(await indexedColumns(ds, 'sales_daily')).flat()).toContain('sales_count');
    await ds.destroy();

    ds = await migratedUpTo(name, migrations.length);
    for (const table of ['sales_daily', 'sales_monthly']) {
      const indexes = await indexedColumns(ds, table);
      expect(Object.keys(indexes).length).toBeGreaterThan(0);
      for (const [index, columns] of Object.entries(indexes)) {
        expect({ index, summed: columns.filter((c) => SUMMED.includes(c)) }).toEqual({ index, summed: [] });
      }
    }
    // A machine's days in order, as the transaction pages' totals and seeks read them.
    expect((await indexedColumns(ds, 'sales_daily'))['sales_daily_machine_kind_idx']).toEqual([
      'day',
      'esp_id',
      'kind',
    ]);

    // And so they are: a second batch of the same machine and day updates its rollup rows heap-only.
    const runner = ds.createQueryRunner();
    await runner.connect();
    try {
      const repo = new SaleRepository(ds);
      for (const batch of [['e1', 'e2'], ['e3']]) {
        await runner.startTransaction();
        await repo.insertBatch(
          runner.manager,
          batch.map((e) => sale('ROLLUP-1', e)),
          TZ,
        );
        await runner.commitTransaction();
      }
      // This backend's counts reach the statistics view when it next goes idle.
      await runner.query(`SELECT pg_stat_force_next_flush()`);
      const [stats] = (await runner.query(
        `SELECT n_tup_upd::int AS updates, n_tup_hot_upd::int AS hot FROM pg_stat_user_tables WHERE relname = 'sales_daily'`,
      )) as { updates: number; hot: number }[];
      expect(stats).toEqual({ updates: 1, hot: 1 });
      const [daily] = (await runner.query(
        `SELECT sales_count::int AS n, price_total::text AS price FROM sales_daily WHERE esp_id = 'ROLLUP-1'`,
      )) as { n: number; price: string }[];
      expect(daily).toEqual({ n: 3, price: '60.00' });
    } finally {
      await runner.release();
    }

    // And back: the index with the count returns.
    await ds.undoLastMigration({ transaction: 'each' });
    expect(Object.values(await indexedColumns(ds, 'sales_daily')).flat()).toContain('sales_count');
  }, 120_000);
});
