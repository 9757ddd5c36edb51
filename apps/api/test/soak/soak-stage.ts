import pg from 'pg';
import { ProgramSupervisor } from './program-supervisor.js';
import type { RunDeployment, SoakCluster } from './soak-cluster.js';

/** What a run starts from: the people, machines and tariffs of the template. Everything else is the run's. */
const FIXTURE_TABLES = ['users', 'devices', 'mac_announcements', 'wifi_credentials', 'tariffs', 'schema_migrations'];

/**
 * The program that several runs share: one database, one api/broker process and one worker process,
 * kept from run to run while the runs pass (long-lived processes are part of what a soak tests: a
 * leak or a stuck connection left by one run's faults shows in the next). Between runs the run's
 * tables are emptied. After a failed run the stage is thrown away and the next run gets a new one.
 */
export class SoakStage {
  private constructor(
    readonly deployment: RunDeployment,
    readonly supervisor: ProgramSupervisor,
    /** Straight to PostgreSQL, not through the proxy (the soak restarts the server under it too). */
    readonly db: pg.Pool,
  ) {}

  static async open(cluster: SoakCluster): Promise<SoakStage> {
    const deployment = await cluster.deployment();
    const supervisor = new ProgramSupervisor(deployment);
    const db = new pg.Pool({ connectionString: cluster.directUrl(deployment), max: 3 });
    db.on('error', () => undefined);
    const stage = new SoakStage(deployment, supervisor, db);
    try {
      await stage.ensureRunning();
      return stage;
    } catch (error) {
      await stage.close();
      throw error;
    }
  }

  get baseUrl(): string {
    return `http://127.0.0.1:${this.deployment.httpPort}`;
  }

  async ensureRunning(): Promise<void> {
    await Promise.all([this.supervisor.ensureRunning('api'), this.supervisor.ensureRunning('worker')]);
  }

  /**
   * Empties every table a run writes (sales, rollups, dead letters, cards, floats, the ledger, keys,
   * the audit trail), whatever tables the schema has gained since. The previous run drained, so no
   * process holds a transaction on them.
   */
  async reset(): Promise<void> {
    const { rows } = await this.db.query<{ name: string }>(
      `SELECT quote_ident(tablename) AS name FROM pg_tables WHERE schemaname = 'public' AND NOT tablename = ANY($1)`,
      [FIXTURE_TABLES],
    );
    const client = await this.db.connect();
    try {
      await client.query(`SET lock_timeout = '10s'`);
      await client.query(`TRUNCATE ${rows.map((r) => r.name).join(', ')} RESTART IDENTITY`);
    } finally {
      client.release();
    }
  }

  async close(): Promise<void> {
    await this.supervisor.stopAll().catch(() => undefined);
    await this.db.end().catch(() => undefined);
    await this.deployment.cleanup().catch(() => undefined);
  }
}
