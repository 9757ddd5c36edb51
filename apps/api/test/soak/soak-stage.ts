import pg from 'pg';
import { randomBytes } from 'node:crypto';
import { MosquittoInstance } from '../support/mosquitto-instance.js';
import type { MachineGroup, MqttMode } from './fault-plan.js';
import { ProgramSupervisor } from './program-supervisor.js';
import type { RunDeployment, SoakCluster } from './soak-cluster.js';

/** What a run starts from: the people, machines and tariffs of the template. Everything else is the run's. */
const MACHINE_GROUPS: MachineGroup[] = ['a', 'b'];

/** PostgreSQL's SQLSTATE for a transaction ended to break a deadlock. */
const DEADLOCK_DETECTED = '40P01';
/** How often reset() tries its TRUNCATE when PostgreSQL ends it to break a deadlock. */
const RESET_ATTEMPTS = 5;

const FIXTURE_TABLES = ['users', 'devices', 'mac_announcements', 'wifi_credentials', 'tariffs', 'schema_migrations'];

/**
 * The program that several runs share: one database, one api/broker process and one worker process,
 * kept from run to run while the runs pass (long-lived processes are part of what a soak tests: a
 * leak or a stuck connection left by one run's faults shows in the next). Between runs the run's
 * tables are emptied. After a failed run the stage is thrown away and the next run gets a new one.
 *
 * In external MQTT mode (docs/external-mqtt.md) the stage also has a Mosquitto of its own (dynamic security and
 * persistence, on a free port, never the system one): the program runs with MQTT_MODE=external as its client, with
 * one fixed MQTT_CLIENT_ID (a restarted api/broker process takes its consumer sessions back, and Mosquitto
 * redelivers what it had not acknowledged), and the fleet, the probe and the alarm machines connect to Mosquitto.
 */
export class SoakStage {
  /** Where each half of the fleet reaches the broker: a proxy per group (partition-mqtt cuts one off). */
  readonly mqttPorts = new Map<MachineGroup, number>();

  private constructor(
    private readonly cluster: SoakCluster,
    readonly mode: MqttMode,
    readonly deployment: RunDeployment,
    readonly supervisor: ProgramSupervisor,
    /** Straight to PostgreSQL, not through the proxy (the soak restarts the server under it too). */
    readonly db: pg.Pool,
    /** External mode: the machines' broker. */
    readonly broker: MosquittoInstance | undefined,
  ) {}

  static async open(cluster: SoakCluster, mode: MqttMode = 'embedded'): Promise<SoakStage> {
    const broker = mode === 'external' ? await MosquittoInstance.create() : undefined;
    let deployment: RunDeployment;
    try {
      deployment = await cluster.deployment(
        broker ? { ...broker.env, MQTT_CLIENT_ID: `wv-soak-${randomBytes(3).toString('hex')}` } : {},
      );
    } catch (error) {
      await broker?.destroy();
      throw error;
    }
    const supervisor = new ProgramSupervisor(deployment);
    const db = new pg.Pool({ connectionString: cluster.directUrl(deployment), max: 3 });
    db.on('error', () => undefined);
    const stage = new SoakStage(cluster, mode, deployment, supervisor, db, broker);
    try {
      if (broker) await cluster.recordBrokerIdentities(deployment);
      for (const group of MACHINE_GROUPS) {
        stage.mqttPorts.set(group, await cluster.proxy.add(`mqtt-${group}`, stage.brokerPort, { holdCloses: true }));
      }
      await stage.ensureRunning();
      return stage;
    } catch (error) {
      await stage.close();
      throw error;
    }
  }

  /** Where machines reach the broker directly (the probe, the alarm machines): the program's, or Mosquitto. */
  get brokerPort(): number {
    return this.broker?.port ?? this.deployment.mqttPort;
  }

  get baseUrl(): string {
    return `http://127.0.0.1:${this.deployment.httpPort}`;
  }

  /** The machines' network healed (after a run that ended in the middle of a partition). */
  async healNetwork(): Promise<void> {
    for (const group of this.mqttPorts.keys()) await this.cluster.proxy.heal(`mqtt-${group}`);
  }

  async ensureRunning(): Promise<void> {
    // A run that ended in the middle of a broker restart left it down.
    await this.broker?.start();
    await Promise.all([this.supervisor.ensureRunning('api'), this.supervisor.ensureRunning('worker')]);
  }

  /**
   * Empties every table a run writes (sales, rollups, dead letters, cards, floats, the ledger, keys,
   * the audit trail), whatever tables the schema has gained since. The previous run drained, but the
   * worker's rounds go on between runs (the alarm scan, the notification outbox, the partition job), and
   * one of them may hold a table that the TRUNCATE, which locks its tables one after another, needs
   * while waiting for one the TRUNCATE already holds: PostgreSQL then ends one of the two with
   * "deadlock detected" (40P01). When the TRUNCATE is the one ended, it is tried again.
   */
  async reset(): Promise<void> {
    const { rows } = await this.db.query<{ name: string }>(
      `SELECT quote_ident(tablename) AS name FROM pg_tables WHERE schemaname = 'public' AND NOT tablename = ANY($1)`,
      [FIXTURE_TABLES],
    );
    const client = await this.db.connect();
    try {
      await client.query(`SET lock_timeout = '10s'`);
      for (let attempt = 1; ; attempt++) {
        try {
          await client.query(`TRUNCATE ${rows.map((r) => r.name).join(', ')} RESTART IDENTITY`);
          break;
        } catch (error) {
          if ((error as { code?: string }).code !== DEADLOCK_DETECTED || attempt >= RESET_ATTEMPTS) throw error;
          await new Promise((r) => setTimeout(r, 100 * attempt));
        }
      }
    } finally {
      client.release();
    }
    // External mode: Mosquitto's persistence file is brought up to date, so that a restart-broker by SIGKILL in
    // this run brings back this run's start, not an older save holding earlier runs' sales in flight. Those it
    // would deliver again, and in these emptied tables they would be stored as sales nobody made (in a real
    // database they are found stored already: exactly once per machine and event id).
    await this.broker?.save();
  }

  async close(): Promise<void> {
    for (const group of this.mqttPorts.keys()) await this.cluster.proxy.close(`mqtt-${group}`).catch(() => undefined);
    await this.supervisor.stopAll().catch(() => undefined);
    await this.db.end().catch(() => undefined);
    await this.deployment.cleanup().catch(() => undefined);
    await this.broker?.destroy().catch(() => undefined);
  }
}
