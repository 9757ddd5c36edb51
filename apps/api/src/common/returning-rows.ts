/** The rows of an `UPDATE … RETURNING`: TypeORM answers it with [rows, count] on PostgreSQL. */
export function returningRows<T = unknown>(result: unknown): T[] {
  const r = result as unknown[];
  return (Array.isArray(r[0]) ? r[0] : r) as T[];
}
