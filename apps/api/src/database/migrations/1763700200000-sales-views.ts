import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Indexes the sales views need (docs/rest-api.md, "Details").
 * - Transaction pages read rows through `sales_page_idx (esp_id, kind, sold_at DESC, id DESC)`; their
 *   totals and deep-page seeks are sums and running sums of one machine's daily counts.
 *   `sales_daily_count_idx` answers those from the index alone: the primary key (esp_id, day, kind)
 *   lacks the count, and a machine's daily rows lie one per page (each day's rows are written that day).
 * - "Newest sales across many machines" (the activity feed, the dashboard's day by hour) cannot use a
 *   per-machine index: without `sales_time_idx` an admin's feed would sort the whole table. `esp_id` is
 *   included so that a manager's feed filters by machine inside the index.
 */
export class SalesViews1763700200000 implements MigrationInterface {
  name = 'SalesViews1763700200000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`CREATE INDEX sales_time_idx ON sales (sold_at DESC, id DESC) INCLUDE (esp_id)`);
    await q.query(`CREATE INDEX sales_daily_count_idx ON sales_daily (esp_id, kind, day) INCLUDE (sales_count)`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP INDEX sales_daily_count_idx`);
    await q.query(`DROP INDEX sales_time_idx`);
  }
}
