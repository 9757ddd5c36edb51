/** PostgreSQL's unique_violation: a concurrent insert won the race for the same key. */
export function isUniqueViolation(error: unknown): boolean {
  const e = error as { code?: string; driverError?: { code?: string } };
  return e?.code === '23505' || e?.driverError?.code === '23505';
}

/** Socket errors and SQLSTATEs that mean "the database cannot be reached now", not "this input is bad". */
const UNAVAILABLE_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'EPIPE',
  'ETIMEDOUT',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'ENOTFOUND',
  'EAI_AGAIN',
  '57P01', // admin_shutdown: a fast or smart stop ended the session
  '57P02', // crash_shutdown
  '57P03', // cannot_connect_now: starting up, shutting down, in recovery
  '53300', // too_many_connections
]);
/** node-postgres and pg-pool say these without a code. */
const UNAVAILABLE_MESSAGE =
  /Connection terminated|timeout exceeded when trying to connect|not queryable|Connection ended|connection timeout/i;

/**
 * PostgreSQL is down, restarting or unreachable (class 08 connection exceptions included): the work
 * may succeed unchanged once it is back. TypeORM keeps the driver's error in `driverError`.
 */
export function isDatabaseUnavailable(error: unknown): boolean {
  let e = error as { code?: unknown; message?: unknown; driverError?: unknown; cause?: unknown } | undefined;
  for (let depth = 0; e && depth < 3; depth++) {
    const code = typeof e.code === 'string' ? e.code : '';
    if (UNAVAILABLE_CODES.has(code) || code.startsWith('08')) return true;
    if (typeof e.message === 'string' && UNAVAILABLE_MESSAGE.test(e.message)) return true;
    e = (e.driverError ?? e.cause) as typeof e;
  }
  return false;
}

/**
 * SQLSTATEs of a database that cannot take the work now for reasons of its own, beyond being out of
 * reach: read-only (25006: a standby, or default_transaction_read_only), out of resources (class 53:
 * disk full, out of memory, too many connections), shutting down or starting (57P01–57P03), or
 * the statement cancelled by an operator or a timeout (57014).
 */
const WAIT_FOR_DATABASE_CODES = new Set(['25006', '57014', '57P01', '57P02', '57P03']);

/**
 * True when work failed because of the database's state, not because of the work: the same work will
 * succeed unchanged once the database is back, so a queue should wait for it rather than spend the
 * work's retry attempts (which would end in failed jobs however valid the data).
 */
export function mustWaitForDatabase(error: unknown): boolean {
  if (isDatabaseUnavailable(error)) return true;
  let e = error as { code?: unknown; driverError?: unknown; cause?: unknown } | undefined;
  for (let depth = 0; e && depth < 3; depth++) {
    const code = typeof e.code === 'string' ? e.code : '';
    if (WAIT_FOR_DATABASE_CODES.has(code) || code.startsWith('53') || code.startsWith('08')) return true;
    e = (e.driverError ?? e.cause) as typeof e;
  }
  return false;
}
