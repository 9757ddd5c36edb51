// The plain-insert baseline that the sales benchmarks measure beside their own figures (docs/performance.md,
// "The benchmark"): rows shaped like `sales`, 1000 per INSERT … ON CONFLICT DO NOTHING, into a plain table.

/** The columns each baseline row holds, in order. */
export const BASELINE_COLUMNS =
  'esp_id, event_id, kind, price, volume, water_type, card_id, sold_at, local_date, received_at, source';

/**
 * A plain table shaped like `sales` with its indexes, and the unique `(esp_id, event_id)` that `sale_keys`
 * holds for the partitioned table (docs/partitions.md): LIKE a partitioned table makes a plain one.
 */
export async function createBaselineTable(db) {
  await db.query('DROP TABLE IF EXISTS baseline_sales; CREATE TABLE baseline_sales (LIKE sales INCLUDING ALL)');
  await db.query('CREATE UNIQUE INDEX IF NOT EXISTS baseline_sales_event_uq ON baseline_sales (esp_id, event_id)');
}

/** Inserts `rows` (arrays in BASELINE_COLUMNS order) 1000 at a time through the pg client `db`. */
export async function insertBaselineRows(db, rows) {
  for (let i = 0; i < rows.length; i += 1000) {
    const chunk = rows.slice(i, i + 1000);
    const values = chunk.map((_, j) => `(${Array.from({ length: 11 }, (_, k) => `$${j * 11 + k + 1}`).join(',')})`);
    await db.query(
      `INSERT INTO baseline_sales (${BASELINE_COLUMNS}) VALUES ${values.join(',')} ON CONFLICT (esp_id, event_id) DO NOTHING`,
      chunk.flat(),
    );
  }
}
