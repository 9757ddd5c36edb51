import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The daily rollup's second index without the count (docs/performance.md, "The daily rollup's index").
 * Every batch of sales adds to the rows of its machines' days, and an update whose new version changes
 * no indexed value can stay on its page without new index entries (PostgreSQL's heap-only tuples, see
 * its documentation's "Heap-Only Tuples (HOT)"). `INCLUDE (sales_count)` put the count into the index, so
 * every update wrote a new entry in both indexes: a third of PostgreSQL's CPU per ingested sale. The
 * transaction pages' totals and seeks still find one machine's days in order by this index, and read
 * each day's count from its row.
 */
export class RollupHotUpdates1763711100000 implements MigrationInterface {
  name = 'RollupHotUpdates1763711100000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`DROP INDEX sales_daily_count_idx`);
    await q.query(`CREATE INDEX sales_daily_machine_kind_idx ON sales_daily (esp_id, kind, day)`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP INDEX sales_daily_machine_kind_idx`);
    await q.query(`CREATE INDEX sales_daily_count_idx ON sales_daily (esp_id, kind, day) INCLUDE (sales_count)`);
  }
}
