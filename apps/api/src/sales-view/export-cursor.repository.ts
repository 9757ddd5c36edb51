/** Runs one statement with parameters on one connection and returns its rows. */
export type RunQuery = (sql: string, params?: unknown[]) => Promise<unknown[]>;

export interface SqlCursor<R> {
  next(size: number): Promise<R[]>;
  close(): Promise<void>;
}

/**
 * A server-side cursor over `statement` on one connection: `DECLARE … CURSOR` in a read-only
 * transaction, then `FETCH n` batch by batch, so rows stream without being held all at once.
 * Framework-free, so that an export's worker thread can run it on its own connection.
 */
export async function openSqlCursor<R>(run: RunQuery, [sql, params]: [string, unknown[]]): Promise<SqlCursor<R>> {
  await run('BEGIN READ ONLY');
  try {
    await run(`DECLARE wv_export NO SCROLL CURSOR FOR ${sql}`, params);
  } catch (error) {
    await run('ROLLBACK').catch(() => undefined);
    throw error;
  }
  let closed = false;
  return {
    next: (size) => run(`FETCH ${Math.trunc(size)} FROM wv_export`) as Promise<R[]>,
    async close() {
      if (closed) return;
      closed = true;
      await run('ROLLBACK').catch(() => undefined);
    },
  };
}
