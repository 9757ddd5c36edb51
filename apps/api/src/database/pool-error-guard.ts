import { Logger } from '@nestjs/common';
import type { EventEmitter } from 'node:events';
import type { DataSource } from 'typeorm';

interface PoolLike extends EventEmitter {
  _clients?: EventEmitter[];
}

const guarded = new WeakSet<EventEmitter>();

/**
 * pg emits 'error' on a client whose connection breaks outside a query: PostgreSQL ending every
 * session on a restart or failover (57P01), a network cut. TypeORM listens only while a query runner
 * holds the client and detaches on its first error, and pg-pool listens only while the client is idle,
 * so a second error, or one in between, had no listener and ended the worker process ("Unhandled
 * 'error' event"). Every client of the pool therefore gets a listener of its own for its whole life.
 * Nothing else changes: the statement that needed the connection still fails, its transaction rolls
 * back, and its caller retries it (docs/operations.md, "Redis and PostgreSQL settings").
 */
export function guardPoolClients(dataSource: DataSource): void {
  const pool = (dataSource.driver as unknown as { master?: PoolLike }).master;
  if (!pool) return;
  const logger = new Logger('Database');
  const guard = (client: EventEmitter) => {
    if (guarded.has(client)) return;
    guarded.add(client);
    client.on('error', (error: Error) => logger.warn(`A database connection ended: ${error.message}`));
  };
  for (const client of pool._clients ?? []) guard(client);
  pool.on('connect', guard);
}
