import type { MachineCredentials } from '@wv/simulator';
import { Redis } from 'ioredis';
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import type { EntityManager } from 'typeorm';
import { fileURLToPath } from 'node:url';
import { createAttendant, createManager, provisionDevice } from '../factories/fleet.factory.js';
import { SALES_QUEUE } from '../../src/queue/queue-connection.js';
import { TELEMETRY_QUEUE } from '../../src/telemetry/telemetry.types.js';
import type { AppConfig } from '../../src/config/app-config.js';
import { BrokerIdentityChanges } from '../../src/device/broker-identity-changes.js';
import { HttpClient } from '../support/http-client.js';
import { spawnServer, type Deployment } from '../support/server-process.js';
import { FaultProxy } from './fault-proxy.js';
import { freePort } from '../support/free-port.js';
import type { Recipient } from './notification-checks.js';
import { NotifyOutside } from './notify-outside.js';
import { PgCluster } from './pg-cluster.js';
import { RedisInstance } from './redis-instance.js';

const TEMPLATE = 'soak_template';
const ADMIN = { email: 'admin@soak.local', password: 'soak-admin-pass-1' };
/** No built web app is needed: the API only warns. */
const NO_WEB = fileURLToPath(new URL('./no-web-dist', import.meta.url));

export interface SoakPerson {
  userId: string;
  identifier: string;
  password: string;
}

export interface SoakAttendant extends SoakPerson {
  espId: string;
}

/** Who and what exists in every run's database (made once, in the template). */
export interface SoakFixtures {
  admin: SoakPerson;
  manager: SoakPerson;
  attendants: SoakAttendant[];
  /** The fleet: every machine the manager owns (attendants' machines first). */
  machines: MachineCredentials[];
  /** A machine of its own for the recovery probe. */
  probe: MachineCredentials;
  /**
   * Machines of the manager that only report telemetry (the alarm workload), each with who hears of
   * its alarms: the manager (email and SMS) and, for some, an attendant (SMS: attendants have no email).
   */
  alarmMachines: (MachineCredentials & { recipients: Recipient[] })[];
}

/** The alarms' local time zone, set for the program and used by the checks to compose SMS texts. */
export const SOAK_TIMEZONE = 'Africa/Dar_es_Salaam';

export interface QueueState {
  wait: number;
  active: number;
  delayed: number;
  prioritized: number;
  failed: number;
}

export interface RunDeployment extends Deployment {
  /** Fixed for the run, so that a restarted api/broker process comes back where clients look. */
  httpPort: number;
  mqttPort: number;
}

/**
 * What every soak run shares: a PostgreSQL cluster and a Redis of the suite's own, a proxy in front
 * of each, and a template database (migrated, with machines and people) that each run clones.
 */
export class SoakCluster {
  private runCounter = 0;
  private readonly tokens = new Map<string, { token: string; at: number }>();

  private constructor(
    readonly pg: PgCluster,
    readonly redis: RedisInstance,
    readonly proxy: FaultProxy,
    readonly outside: NotifyOutside,
    readonly fixtures: SoakFixtures,
    private readonly jwtSecret: string,
  ) {}

  static async create(opts: { machines: number; attendants: number; alarmMachines: number }): Promise<SoakCluster> {
    const pg = await PgCluster.create();
    let redis: RedisInstance | undefined;
    let proxy: FaultProxy | undefined;
    let outside: NotifyOutside | undefined;
    try {
      redis = await RedisInstance.create();
      proxy = FaultProxy.start();
      await proxy.add('pg', pg.port);
      await proxy.add('redis', redis.port);
      outside = await NotifyOutside.start();
      const jwtSecret = randomBytes(24).toString('hex');
      const fixtures = await buildTemplate(pg, redis, jwtSecret, opts);
      return new SoakCluster(pg, redis, proxy, outside, fixtures, jwtSecret);
    } catch (error) {
      await outside?.stop();
      await proxy?.stop();
      await redis?.destroy();
      pg.destroy();
      throw error;
    }
  }

  /** Whatever an aborted run left broken is repaired before the next one: servers up, proxies clear. */
  async ensureHealthy(): Promise<void> {
    if (!this.pg.isRunning) await this.pg.start();
    if (!this.redis.isRunning) await this.redis.start();
    await this.proxy.heal('pg');
    await this.proxy.heal('redis');
    await this.outside.ensureUp();
  }

  /** A queue's job counts (the sales queue unless told), straight from Redis. */
  async queueState(queue: string = SALES_QUEUE): Promise<QueueState> {
    const redis = new Redis(this.redis.url, { lazyConnect: true, maxRetriesPerRequest: 1 });
    await redis.connect();
    try {
      const key = (state: string) => `soak:bull:${queue}:${state}`;
      const [wait, active, delayed, prioritized, failed] = await Promise.all([
        redis.llen(key('wait')),
        redis.llen(key('active')),
        redis.zcard(key('delayed')),
        redis.zcard(key('prioritized')),
        redis.zcard(key('failed')),
      ]);
      return { wait, active, delayed, prioritized, failed };
    } finally {
      redis.disconnect();
    }
  }

  /** Telemetry jobs waiting or being worked (readings that may still open or clear an alarm). */
  async telemetryBacklog(): Promise<number> {
    const q = await this.queueState(TELEMETRY_QUEUE);
    return q.wait + q.active + q.delayed + q.prioritized;
  }

  /**
   * A fresh database cloned from the template and an empty Redis; the program reaches both through
   * the proxies. Call `cleanup()` when the run is over.
   */
  async deployment(extraEnv: Record<string, string> = {}): Promise<RunDeployment> {
    await this.ensureHealthy();
    const name = `soak_run_${++this.runCounter}_${randomBytes(3).toString('hex')}`;
    await this.pg.query(`CREATE DATABASE ${name} TEMPLATE ${TEMPLATE}`);
    await this.redis.flushAll();
    const [httpPort, mqttPort] = [await freePort(), await freePort()];
    const databaseUrl = this.pg.urlFor(name, this.proxy.port('pg'));
    return {
      databaseName: name,
      databaseUrl,
      redisPrefix: 'soak',
      httpPort,
      mqttPort,
      env: {
        ...programEnv(this.jwtSecret),
        ...this.outside.env(`http://127.0.0.1:${httpPort}`),
        DATABASE_URL: databaseUrl,
        REDIS_URL: `redis://127.0.0.1:${this.proxy.port('redis')}`,
        PORT: String(httpPort),
        MQTT_PORT: String(mqttPort),
        ...extraEnv,
      },
      cleanup: async () => {
        await this.pg.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      },
    };
  }

  /**
   * A session token of `person`. Every run's database is a clone of the template and every run's
   * program has the same JWT secret, so a token stays good across runs; signing in (argon2) once
   * every 15 minutes instead of five times a run keeps runs short. Tokens last 20 minutes.
   */
  async token(person: SoakPerson, http: HttpClient): Promise<string> {
    const cached = this.tokens.get(person.identifier);
    if (cached && Date.now() - cached.at < 15 * 60_000) return cached.token;
    const token = await http.login(person.identifier, person.password);
    this.tokens.set(person.identifier, { token, at: Date.now() });
    return token;
  }

  /** Every machine of the fixtures: the fleet, the probe and the alarm machines. */
  allMachines(): MachineCredentials[] {
    const { machines, probe, alarmMachines } = this.fixtures;
    return [...machines, probe, ...alarmMachines.map(({ espId, deviceKey }) => ({ espId, deviceKey }))];
  }

  /**
   * External mode with dynamic security (docs/external-mqtt.md, "Identities"): the template was made in embedded
   * mode, where no device key waits for a broker, and PostgreSQL keeps only hashes. So every machine's key is
   * recorded in the run's database as the program itself records a new key in that mode (sealed under the run's
   * JWT_SECRET, in `mqtt_identity_changes`), and the program's relay hands them to Mosquitto when it starts.
   */
  async recordBrokerIdentities(deployment: RunDeployment): Promise<void> {
    const config = {
      mqtt: { mode: 'external', external: { authMode: 'mosquitto-dynsec' } },
      jwt: { secret: this.jwtSecret },
    } as unknown as AppConfig;
    const changes = new BrokerIdentityChanges(config);
    const db = new pg.Client({ connectionString: this.directUrl(deployment) });
    await db.connect();
    try {
      const manager = { query: (sql: string, params: unknown[]) => db.query(sql, params) } as unknown as EntityManager;
      for (const { espId, deviceKey } of this.allMachines()) await changes.keyIssued(manager, espId, deviceKey);
    } finally {
      await db.end();
    }
  }

  /** The run's database, straight to the server (not through the proxy). */
  directUrl(deployment: RunDeployment): string {
    return this.pg.urlFor(deployment.databaseName);
  }

  async destroy(): Promise<void> {
    await this.outside.stop();
    await this.proxy.stop();
    await this.redis.destroy();
    this.pg.destroy();
  }
}

function programEnv(jwtSecret: string): Record<string, string> {
  return {
    NODE_ENV: 'test',
    REDIS_PREFIX: 'soak',
    JWT_SECRET: jwtSecret,
    ADMIN_EMAIL: ADMIN.email,
    ADMIN_PASSWORD: ADMIN.password,
    WEB_DIST: NO_WEB,
    NO_COLOR: '1',
    LOG_LEVEL: 'warn',
    // The soak's probes and money calls all come from 127.0.0.1: the per-address limits would
    // refuse them; they are tested elsewhere (hardening).
    HTTP_RATE_LIMIT: '1000000',
    MQTT_CONNECT_RATE: '1000',
    // Alarm messages (docs/alarms.md, "Notifications") on the soak's clock: a retry after 200 ms
    // doubling, one message per address and channel a second, and a crashed sender's message taken
    // over after 5 s (the default 120 s would outlast a run).
    APP_TIMEZONE: SOAK_TIMEZONE,
    NOTIFICATION_RETRY_DELAY_MS: '200',
    NOTIFICATION_DIGEST_SECONDS: '1',
    NOTIFICATION_LEASE_SECONDS: '5',
  };
}

/** Migrates the template through the program itself and provisions the fleet, people and probe. */
async function buildTemplate(
  pg: PgCluster,
  redis: RedisInstance,
  jwtSecret: string,
  opts: { machines: number; attendants: number; alarmMachines: number },
): Promise<SoakFixtures> {
  await pg.query(`CREATE DATABASE ${TEMPLATE}`);
  const databaseUrl = pg.urlFor(TEMPLATE);
  const deployment: Deployment = {
    databaseName: TEMPLATE,
    databaseUrl,
    redisPrefix: 'soak',
    env: { ...programEnv(jwtSecret), DATABASE_URL: databaseUrl, REDIS_URL: redis.url, PORT: '0', MQTT_PORT: '0' },
    cleanup: async () => undefined,
  };
  const server = await spawnServer(deployment, {}, 60_000);
  try {
    const http = new HttpClient(server.baseUrl);
    const adminToken = await http.login(ADMIN.email, ADMIN.password);
    const manager = await createManager(http, adminToken, opts.machines);
    const attendants: SoakAttendant[] = [];
    for (const device of manager.devices.slice(0, opts.attendants)) {
      const a = await createAttendant(http, manager.token, device.espId);
      attendants.push({ userId: a.userId, identifier: a.phoneNumber, password: a.password, espId: device.espId });
    }
    const probe = await provisionDevice(http, adminToken, `SOAK-PROBE-${randomBytes(3).toString('hex')}`);
    const alarmMachines: SoakFixtures['alarmMachines'] = [];
    for (let i = 0; i < opts.alarmMachines; i++) {
      const device = await provisionDevice(http, adminToken, `SOAK-ALARM-${i}-${randomBytes(3).toString('hex')}`);
      const added = await http.post(
        '/add/user/devices',
        { userId: manager.userId, esp32Id: device.espId, machine_location: 'Soak alarms' },
        { token: adminToken },
      );
      if (added.status !== 201) throw new Error(`adding alarm machine failed: ${added.status}`);
      const recipients: Recipient[] = [{ userId: manager.userId, email: manager.email, phone: manager.phoneNumber }];
      // Every other machine has an attendant.
      if (i % 2 === 0) {
        const a = await createAttendant(http, manager.token, device.espId);
        recipients.push({ userId: a.userId, phone: a.phoneNumber });
      }
      alarmMachines.push({ espId: device.espId, deviceKey: device.deviceKey, recipients });
    }
    return {
      alarmMachines,
      admin: { userId: '', identifier: ADMIN.email, password: ADMIN.password },
      manager: { userId: manager.userId, identifier: manager.email, password: manager.password },
      attendants,
      machines: manager.devices.map((d) => ({ espId: d.espId, deviceKey: d.deviceKey })),
      probe: { espId: probe.espId, deviceKey: probe.deviceKey },
    };
  } finally {
    await server.stop();
    await redis.flushAll();
  }
}
