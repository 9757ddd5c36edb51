import { createHash } from 'node:crypto';
import pg, { type Pool } from 'pg';
import type { DataSource, ObjectLiteral } from 'typeorm';
import type { Actor } from '../common/actor.js';
import { scopeDevices } from '../common/scope.js';

/** Raw SQL with `:name` parameters, as TypeORM's query builder writes them. */
export interface NamedSql {
  sql: string;
  params: ObjectLiteral;
}

/**
 * `SELECT esp_id FROM devices` limited by the one tenant rule (scopeDevices), as a fragment that the
 * sales-view repositories embed in their hand-written SQL, so that every read there goes through it.
 */
export function visibleDeviceIds(dataSource: DataSource, actor: Actor): NamedSql {
  const qb = scopeDevices(dataSource.createQueryBuilder().select('vd.esp_id').from('devices', 'vd'), actor, 'vd');
  return { sql: qb.getQuery(), params: qb.getParameters() };
}

/**
 * Turns named parameters into PostgreSQL's `$n` with TypeORM's own escaping. Parameter names must not
 * be type names (`text`, `date`, …): `x::date` would read as parameter `date`.
 */
export function positional(dataSource: DataSource, named: NamedSql): [string, unknown[]] {
  const [sql, values] = dataSource.driver.escapeQueryWithParameters(named.sql, named.params);
  return [sql, values as unknown[]];
}

/**
 * Runs a statement as a named prepared statement on the pool's connections: PostgreSQL plans it once
 * per connection instead of on every call. The views' statements are few (one per filter, sort and
 * role shape) and run constantly; planning their CTEs cost more than executing them.
 */
export async function queryPrepared<T>(dataSource: DataSource, [text, values]: [string, unknown[]]): Promise<T[]> {
  const pool = (dataSource.driver as unknown as { master: Pool }).master;
  return (await pool.query({ name: statementName(text), text, values })).rows as T[];
}

/**
 * queryPrepared, always with the statement's generic plan (`plan_cache_mode`, PostgreSQL docs, "Query
 * Planning"). On the partitioned `sales` (docs/partitions.md) PostgreSQL keeps planning such a statement
 * anew for each call's parameters, because the generic plan's estimate counts every partition that the
 * executor then prunes; planning a page's joins over every partition costs several times running it.
 *
 * The setting holds for every prepared statement of a session, and other statements plan better for their
 * own parameters, so it is not set on the shared pool. It belongs to a small pool of its own beside the
 * DataSource's, whose sessions start with it (the `options` startup parameter): one round trip per call, where
 * setting it in a transaction of the shared pool took three. These sessions plan without parallel workers
 * (`max_parallel_workers_per_gather=0`): a generic plan is made for an average machine, and a typical
 * machine's page by id on the partitioned table took 22 ms with two workers started, 5 ms without. Opened on first
 * use; `close()` at shutdown.
 */
export class GenericPlanPool {
  private pool: Pool | null = null;

  constructor(
    private readonly dataSource: DataSource,
    private readonly size = 4,
  ) {}

  async query<T>([text, values]: [string, unknown[]]): Promise<T[]> {
    this.pool ??= this.open();
    return (await this.pool.query({ name: statementName(text), text, values })).rows as T[];
  }

  async close(): Promise<void> {
    const pool = this.pool;
    this.pool = null;
    await pool?.end();
  }

  private open(): Pool {
    const shared = (this.dataSource.driver as unknown as { master: Pool }).master;
    // The shared pool's own settings (a read pool's read-only sessions among them), plus the planning ones.
    const base = shared.options;
    const planning = '-c plan_cache_mode=force_generic_plan -c max_parallel_workers_per_gather=0';
    const options = [base.options, planning].filter(Boolean).join(' ');
    const pool = new pg.Pool({ ...base, max: this.size, options });
    // An idle session that the server ends is replaced on the next call; without a listener it would end the process.
    pool.on('error', () => undefined);
    return pool;
  }
}

const statementName = (text: string) => `wv_${createHash('sha1').update(text).digest('hex').slice(0, 24)}`;
