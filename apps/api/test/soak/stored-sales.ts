import type pg from 'pg';

/**
 * Which `espId/eventId` keys are stored, remembered once seen, so that polling "is the backlog
 * committed yet?" every 100 ms only asks PostgreSQL about the keys still missing (by the unique index).
 */
export class StoredSales {
  private readonly known = new Set<string>();

  constructor(private readonly db: pg.Pool) {}

  /** True once every key is stored. */
  async holdsAll(keys: ReadonlySet<string>): Promise<boolean> {
    const missing = [...keys].filter((k) => !this.known.has(k));
    if (missing.length === 0) return true;
    // An ESP ID never holds "/", so the key splits at its first one.
    const split = missing.map((k) => [k.slice(0, k.indexOf('/')), k.slice(k.indexOf('/') + 1)]);
    const { rows } = await this.db.query<{ key: string }>(
      `SELECT s.esp_id || '/' || s.event_id AS key
       FROM unnest($1::text[], $2::text[]) AS k(esp_id, event_id) JOIN sales s USING (esp_id, event_id)`,
      [split.map(([espId]) => espId), split.map(([, eventId]) => eventId)],
    );
    for (const row of rows) this.known.add(row.key);
    return rows.length === missing.length;
  }
}
