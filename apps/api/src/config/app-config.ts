import { randomBytes } from 'node:crypto';
import { hostname } from 'node:os';
import { z } from 'zod';

/** The one place that reads `process.env` (docs/architecture.md, "Modules and conventions"). Everything else receives an AppConfig. */
const ROLE_NAMES = ['api', 'broker', 'worker'] as const;
export type AppRole = (typeof ROLE_NAMES)[number];

const bool = z
  .enum(['true', 'false', '1', '0', 'yes', 'no', ''])
  .transform((v) => v === 'true' || v === '1' || v === 'yes');

const port = (name: string) =>
  z.coerce
    .number({ error: `${name} must be a port number` })
    .int(`${name} must be a whole number`)
    .min(0, `${name} must be between 0 and 65535`)
    .max(65535, `${name} must be between 0 and 65535`);

const POSTGRES_URL = /^postgres(ql)?:\/\/.+\/[^/?]+/;

const envSchema = z.object({
  NODE_ENV: z.string().default('development'),
  PORT: port('PORT').default(3000),
  DATABASE_URL: z
    .string()
    .default('postgres://postgres@localhost:5432/water_vending')
    .refine((v) => POSTGRES_URL.test(v), 'DATABASE_URL must look like postgres://user@host:5432/dbname'),
  /** docs/read-replica.md: a streaming replica the sales views read; unset, they read DATABASE_URL. */
  DATABASE_READ_URL: z
    .string()
    .refine((v) => POSTGRES_URL.test(v), 'DATABASE_READ_URL must look like postgres://user@host:5432/dbname')
    .optional(),
  REDIS_URL: z
    .string()
    .default('redis://localhost:6379')
    .refine((v) => /^rediss?:\/\//.test(v), 'REDIS_URL must look like redis://host:6379'),
  /** docs/redis-cluster.md: host:port of Redis Cluster nodes, comma-separated; set, it is used instead of REDIS_URL. */
  REDIS_CLUSTER_NODES: z
    .string()
    .transform((v) =>
      v
        .split(',')
        .map((n) => n.trim())
        .filter(Boolean),
    )
    .refine(
      (nodes) => nodes.every((n) => /^[^\s:/,]+:\d{1,5}$/.test(n)),
      'REDIS_CLUSTER_NODES must look like redis-1:6379,redis-2:6379',
    )
    .optional(),
  REDIS_PREFIX: z
    .string()
    .default('wv')
    .refine((v) => /^[A-Za-z0-9_.-]+$/.test(v), 'REDIS_PREFIX may contain only letters, digits, ".", "_" and "-"'),
  MQTT_PORT: port('MQTT_PORT').default(1883),
  /** A worker-only process (APP_ROLES=worker) answers the health probes on this port; unset: it listens on none. */
  HEALTH_PORT: port('HEALTH_PORT').optional(),
  /**
   * The CPU priority (niceness) a worker-only process (APP_ROLES=worker) lowers itself to at start, so that on a
   * host it shares with a broker the machines' PUBACKs go first (docs/performance.md, "The worker yields").
   */
  WORKER_NICE: z.coerce
    .number({ error: 'WORKER_NICE must be a whole number from 0 to 19' })
    .int('WORKER_NICE must be a whole number from 0 to 19')
    .min(0, 'WORKER_NICE must be a whole number from 0 to 19')
    .max(19, 'WORKER_NICE must be a whole number from 0 to 19')
    .default(10),
  MQTT_WS_PATH: z.string().startsWith('/', 'MQTT_WS_PATH must start with /').default('/mqtt'),
  /** docs/external-mqtt.md: `embedded` runs Aedes in the program; `external` uses the broker at MQTT_BROKER_URL. */
  MQTT_MODE: z.enum(['embedded', 'external'], { error: 'MQTT_MODE is embedded or external' }).default('embedded'),
  MQTT_BROKER_URL: z
    .string()
    .refine((v) => /^mqtts?:\/\/[^/\s]+/.test(v), 'MQTT_BROKER_URL must look like mqtt://broker.example.com:1883')
    .optional(),
  MQTT_BROKER_USERNAME: z.string().min(1).optional(),
  MQTT_BROKER_PASSWORD: z.string().min(1).optional(),
  MQTT_AUTH_MODE: z
    .enum(['mosquitto-dynsec', 'http-hooks'], { error: 'MQTT_AUTH_MODE is mosquitto-dynsec or http-hooks' })
    .default('mosquitto-dynsec'),
  MQTT_HOOK_TOKEN: z
    .string()
    .regex(/^[A-Za-z0-9_.~+/=-]{16,200}$/, 'MQTT_HOOK_TOKEN must be 16 to 200 letters, digits or _.~+/=-')
    .optional(),
  /**
   * External mode: the MQTT client id stem of this process's consumers (`{stem}-0` …). Each process needs its own
   * and must keep it across restarts, because the broker keeps a dead consumer's unacknowledged sales in the
   * session of that client id. Default: the host name.
   */
  MQTT_CLIENT_ID: z
    .string()
    .regex(/^[A-Za-z0-9_.-]{1,40}$/, 'MQTT_CLIENT_ID must be 1 to 40 letters, digits, ".", "_" or "-"')
    .optional(),
  JWT_SECRET: z.string().min(16, 'JWT_SECRET must be at least 16 characters').optional(),
  APP_TIMEZONE: z
    .string()
    .default('Africa/Dar_es_Salaam')
    .refine((tz) => {
      try {
        new Intl.DateTimeFormat('en', { timeZone: tz });
        return true;
      } catch {
        return false;
      }
    }, 'APP_TIMEZONE must be an IANA time zone such as Africa/Dar_es_Salaam'),
  CURRENCY: z.string().min(1).max(8).default('TZS'),
  ADMIN_EMAIL: z.email('ADMIN_EMAIL must be an email address').optional(),
  ADMIN_PASSWORD: z.string().min(8, 'ADMIN_PASSWORD must be at least 8 characters').optional(),
  METRICS_TOKEN: z.string().min(16, 'METRICS_TOKEN must be at least 16 characters').optional(),
  LEGACY_OPEN_DEVICE_READS: bool.default(false),
  APP_ROLES: z
    .string()
    .default('api,broker,worker')
    .transform((v) =>
      v
        .split(',')
        .map((r) => r.trim())
        .filter(Boolean),
    )
    .pipe(z.array(z.enum(ROLE_NAMES, { error: 'APP_ROLES is a comma list of api, broker, worker' })).min(1)),
  /** Where the built web app lives; the API serves it at `/`. */
  WEB_DIST: z.string().optional(),
  LOG_LEVEL: z.enum(['error', 'warn', 'log', 'debug', 'verbose']).default('log'),
  CORS_ORIGIN: z
    .string()
    .refine(
      (v) => v.split(',').every((o) => /^https?:\/\/[^/\s]+$/.test(o.trim())),
      'CORS_ORIGIN is a comma list of origins like https://ops.example.com',
    )
    .optional(),
  HTTP_RATE_LIMIT: z.coerce.number().int().min(1, 'HTTP_RATE_LIMIT must be at least 1').default(600),
  MQTT_CONNECT_RATE: z.coerce.number().int().min(1, 'MQTT_CONNECT_RATE must be at least 1').default(100),
  /**
   * Milliseconds a live sale may wait for its PUBACK before the backlogs of machines back from being offline yield to
   * it (docs/architecture.md, "Backfill and live sales"); 0 lets backlogs go unpaced.
   */
  // Unset: the broker's own default (25 ms, DEFAULT_BACKFILL_PACING in the broker package).
  BACKFILL_PACE_MS: z.coerce.number().int().min(0, 'BACKFILL_PACE_MS must be 0 or more').optional(),
  /** Sales jobs waiting in the queue past which new sales are refused (back-pressure before Redis fills up). */
  INGEST_MAX_BACKLOG: z.coerce.number().int().min(1, 'INGEST_MAX_BACKLOG must be at least 1').default(100_000),
  /** Serve /api/docs; default: on outside production, off in production. */
  API_DOCS: bool.optional(),
  /** Production on a Redis without appendonly yes and noeviction: refused unless this is true. */
  ALLOW_VOLATILE_REDIS: bool.default(false),
  EXPORT_IDLE_TIMEOUT_MS: z.coerce
    .number()
    .int()
    .min(100, 'EXPORT_IDLE_TIMEOUT_MS must be at least 100')
    .max(3_600_000, 'EXPORT_IDLE_TIMEOUT_MS must be at most 3600000')
    .default(30_000),
  /** docs/partitions.md, "Retention": whole months of sales older than this are dropped; unset keeps every sale. */
  SALES_RETENTION_MONTHS: z.coerce
    .number({ error: 'SALES_RETENTION_MONTHS must be a whole number of months' })
    .int('SALES_RETENTION_MONTHS must be a whole number of months')
    .min(1, 'SALES_RETENTION_MONTHS must be at least 1')
    .max(1200, 'SALES_RETENTION_MONTHS must be at most 1200')
    .optional(),
  SALES_RETRY_ATTEMPTS: z.coerce.number().int().min(1, 'SALES_RETRY_ATTEMPTS must be at least 1').default(20),
  SALES_RETRY_DELAY_MS: z.coerce.number().int().min(1, 'SALES_RETRY_DELAY_MS must be at least 1').default(200),
  /**
   * docs/alarms.md, "Configuration": false switches the alarm engine off (telemetry is dropped on
   * arrival, no rule or sweep runs, no alarm opens); alarms already stored can still be worked by hand.
   */
  ALARMS_ENABLED: bool.default(true),
  /** docs/alarms.md, "Escalation": a critical or major alarm still open this long goes to every admin. */
  ESCALATE_AFTER_MINUTES: z.coerce
    .number()
    .int()
    .min(1, 'ESCALATE_AFTER_MINUTES must be at least 1')
    .max(10_080, 'ESCALATE_AFTER_MINUTES must be at most 10080')
    .default(30),
  /** docs/alarms.md, "Telemetry": whole days of readings older than this are dropped. */
  TELEMETRY_RETENTION_DAYS: z.coerce
    .number()
    .int()
    .min(1, 'TELEMETRY_RETENTION_DAYS must be at least 1')
    .max(3650, 'TELEMETRY_RETENTION_DAYS must be at most 3650')
    .default(90),
  /** docs/alarms.md, "The sweep": how often the time-driven alarm rules run. */
  ALARM_SWEEP_INTERVAL_MS: z.coerce
    .number()
    .int()
    .min(1000, 'ALARM_SWEEP_INTERVAL_MS must be at least 1000')
    .max(3_600_000, 'ALARM_SWEEP_INTERVAL_MS must be at most 3600000')
    .default(30_000),
  /** Notifications (docs/alarms.md, "Notifications"): a channel whose variables are unset is off. */
  SMTP_URL: z
    .string()
    .refine(
      (v) => /^smtps?:\/\/[^/\s]+/.test(v),
      'SMTP_URL must look like smtp://host:2525 or smtps://user:pass@host:465',
    )
    .optional(),
  MAIL_FROM: z.string().min(3, 'MAIL_FROM must be an address such as alarms@example.com').default('alarms@localhost'),
  SMS_URL: z
    .string()
    .refine((v) => /^https?:\/\/[^\s]+$/.test(v), 'SMS_URL must look like https://api.africastalking.com')
    .optional(),
  SMS_USERNAME: z.string().min(1).optional(),
  SMS_API_KEY: z.string().min(1).optional(),
  DAILY_REPORT_TIME: z
    .string()
    .regex(/^([01]\d|2[0-3]):[0-5]\d$/, 'DAILY_REPORT_TIME must be a time of day HH:MM')
    .default('07:00'),
  /** First backoff of a message whose server or API failed; it doubles per attempt (capped at 30 minutes). */
  NOTIFICATION_RETRY_DELAY_MS: z.coerce
    .number()
    .int()
    .min(100, 'NOTIFICATION_RETRY_DELAY_MS must be at least 100')
    .max(50_000, 'NOTIFICATION_RETRY_DELAY_MS must be at most 50000 (the first retry comes within 60 s)')
    .default(15_000),
  /** At most one message per recipient and channel in this many seconds; what arrives meanwhile goes as one digest. */
  NOTIFICATION_DIGEST_SECONDS: z.coerce
    .number()
    .int()
    .min(1, 'NOTIFICATION_DIGEST_SECONDS must be at least 1')
    .default(60),
  /** How long a dispatcher holds a claimed message before another process may take it over. */
  NOTIFICATION_LEASE_SECONDS: z.coerce
    .number()
    .int()
    .min(2, 'NOTIFICATION_LEASE_SECONDS must be at least 2')
    .default(120) /** M-Pesa through Daraja (docs/mobile-money.md): unset MPESA_BASE_URL means off. */,
  MPESA_BASE_URL: z
    .string()
    .refine((v) => /^https?:\/\/[^\s]+$/.test(v), 'MPESA_BASE_URL must look like https://sandbox.safaricom.co.ke')
    .optional(),
  MPESA_CONSUMER_KEY: z.string().min(1).optional(),
  MPESA_CONSUMER_SECRET: z.string().min(1).optional(),
  MPESA_SHORTCODE: z
    .string()
    .regex(/^\d{5,7}$/, 'MPESA_SHORTCODE must be the 5 to 7 digit paybill or till number')
    .optional(),
  MPESA_PASSKEY: z.string().min(1).optional(),
  PUBLIC_URL: z
    .string()
    .refine((v) => /^https?:\/\/[^\s]+$/.test(v), 'PUBLIC_URL must look like https://water.example.com')
    .optional(),
  MPESA_CALLBACK_TOKEN: z
    .string()
    .regex(/^[A-Za-z0-9_-]{16,200}$/, 'MPESA_CALLBACK_TOKEN must be 16 to 200 letters, digits, _ or -')
    .optional(),
  /** docs/web-app.md, "Fleet map": a raster tile server under the fleet map; unset, the offline basemap alone. */
  MAP_TILE_URL: z
    .string()
    .refine(
      (v) => tileOrigin(v) !== null,
      'MAP_TILE_URL must look like https://tile.example.org/{z}/{x}/{y}.png (with {z}, {x} and {y})',
    )
    .optional(),
  MAP_TILE_ATTRIBUTION: z.string().max(300, 'MAP_TILE_ATTRIBUTION must be at most 300 characters').optional(),
  MPESA_QUERY_AFTER_SECONDS: z.coerce
    .number()
    .int()
    .min(1, 'MPESA_QUERY_AFTER_SECONDS must be at least 1')
    .max(86_400, 'MPESA_QUERY_AFTER_SECONDS must be at most 86400')
    .default(60),
});

/**
 * The origin a tile URL template loads from, for the content security policy: `https://tile.example.org`,
 * or `https://*.tile.example.org` when the host has Leaflet's `{s}` subdomain. Null when the template is
 * not an http(s) URL with {z}, {x} and {y}.
 */
export function tileOrigin(template: string): string | null {
  if (!['{z}', '{x}', '{y}'].every((p) => template.includes(p))) return null;
  const match = /^(https?):\/\/(\{s\}\.)?([^/?#\s{}]+)(?:[/?#]\S*)?$/.exec(template);
  if (!match) return null;
  try {
    const host = new URL(`${match[1]}://${match[3]}`).host;
    return `${match[1]}://${match[2] ? '*.' : ''}${host}`;
  } catch {
    return null;
  }
}

/** A raster tile server for the fleet map (docs/web-app.md, "Fleet map"); the web app reads it from the page. */
export interface MapConfig {
  tileUrl?: string;
  tileAttribution?: string;
  /** Where tiles load from, for the content security policy's img-src. */
  tileOrigin?: string;
}

export interface AppConfig {
  env: string;
  port: number;
  healthPort: number | undefined;
  /** The niceness of a worker-only process (0 to 19; 0 leaves it as started). */
  workerNice: number;
  databaseUrl: string;
  /** A streaming replica the sales views read (docs/read-replica.md); undefined: they read databaseUrl. */
  databaseReadUrl?: string;
  redisUrl: string;
  /** Redis Cluster nodes as host:port (docs/redis-cluster.md); undefined: the single Redis at redisUrl. */
  redisClusterNodes?: string[];
  redisPrefix: string;
  mqtt: MqttConfig;
  jwt: { secret: string; generated: boolean };
  timezone: string;
  currency: string;
  admin: { email?: string; password?: string };
  metricsToken?: string;
  legacyOpenDeviceReads: boolean;
  roles: ReadonlySet<AppRole>;
  webDist?: string;
  logLevel: 'error' | 'warn' | 'log' | 'debug' | 'verbose';
  /** Origins allowed to call the API from another site; none means same-origin only. */
  corsOrigins: string[];
  /** Requests per minute per address (anonymous) or per machine (device key). */
  httpRateLimit: number;
  /** MQTT connections per second per address. */
  mqttConnectRate: number;
  backfillPaceMs: number | undefined;
  /** Sales jobs waiting in the queue past which new sales are refused until the workers catch up. */
  ingestMaxBacklog: number;
  /** Whether /api/docs and its OpenAPI document are served. */
  apiDocs: boolean;
  /** Start in production on a Redis that may lose queued sales (warned about). */
  allowVolatileRedis: boolean;
  /** A streamed export whose client takes no byte for this long is cut and its slot freed. */
  exportIdleTimeoutMs: number;
  /** A sales batch that fails for a reason other than an unavailable database: tries and first backoff. */
  salesRetry: { attempts: number; delayMs: number };
  /** Whole months of sales kept (docs/partitions.md, "Retention"); undefined keeps every sale. */
  salesRetentionMonths?: number;
  /** Machine health and alarms (docs/alarms.md). */
  alarms: {
    /** false: telemetry is dropped on arrival and no alarm rule, sale rule or sweep runs (ALARMS_ENABLED). */
    enabled: boolean;
    escalateAfterMinutes: number;
    telemetryRetentionDays: number;
    sweepIntervalMs: number;
  };
  /** Email, SMS, digests and the daily report (docs/alarms.md, "Notifications"). */
  notifications: NotificationConfig;
  /** M-Pesa through Daraja (docs/mobile-money.md); undefined when MPESA_BASE_URL is unset. */
  mpesa?: MpesaConfig;
  map: MapConfig;
}

/** docs/device-protocol.md and docs/external-mqtt.md. */
export interface MqttConfig {
  /** The embedded broker's TCP port and WebSocket path (embedded mode). */
  port: number;
  wsPath: string;
  mode: 'embedded' | 'external';
  /** External mode: the broker, this program's account on it, and how it learns device identities. */
  external?: {
    url: string;
    username?: string;
    password?: string;
    authMode: 'mosquitto-dynsec' | 'http-hooks';
    /** Bearer token the broker presents on POST /api/mqtt/auth and /api/mqtt/acl (http-hooks). */
    hookToken?: string;
    clientId: string;
  };
}

export interface MpesaConfig {
  baseUrl: string;
  consumerKey: string;
  consumerSecret: string;
  shortcode: string;
  passkey: string;
  publicUrl: string;
  callbackToken: string;
  queryAfterSeconds: number;
}

export interface NotificationConfig {
  /** Unset: email is off. */
  smtpUrl?: string;
  mailFrom: string;
  /** Unset (any of SMS_URL, SMS_USERNAME, SMS_API_KEY missing): SMS is off. */
  sms?: { url: string; username: string; apiKey: string };
  /** `HH:MM` in APP_TIMEZONE. */
  dailyReportTime: string;
  retryDelayMs: number;
  digestSeconds: number;
  leaseSeconds: number;
}

export class ConfigError extends Error {}

/** Every environment variable the program reads (deployment files are checked against it). */
export const CONFIG_VARIABLES: readonly string[] = Object.keys(envSchema.shape);

/** Parses and validates the environment once; a bad variable becomes one clear line. */
export function loadConfig(env: Record<string, string | undefined> = process.env): AppConfig {
  const cleaned = Object.fromEntries(Object.entries(env).filter(([, v]) => v !== undefined && v !== ''));
  const parsed = envSchema.safeParse(cleaned);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    const variable = String(issue.path[0] ?? 'environment');
    throw new ConfigError(`Invalid ${variable}: ${issue.message}. Change ${variable} and start again.`);
  }
  const e = parsed.data;
  if (e.NODE_ENV === 'production' && !e.JWT_SECRET) {
    throw new ConfigError('JWT_SECRET is required when NODE_ENV=production. Set JWT_SECRET and start again.');
  }
  let mpesa: MpesaConfig | undefined;
  if (e.MPESA_BASE_URL) {
    const needed = [
      'MPESA_CONSUMER_KEY',
      'MPESA_CONSUMER_SECRET',
      'MPESA_SHORTCODE',
      'MPESA_PASSKEY',
      'PUBLIC_URL',
      'MPESA_CALLBACK_TOKEN',
    ] as const;
    const missing = needed.find((name) => !e[name]);
    if (missing)
      throw new ConfigError(`${missing} is required when MPESA_BASE_URL is set. Set ${missing} and start again.`);
    mpesa = {
      baseUrl: e.MPESA_BASE_URL.replace(/\/+$/, ''),
      consumerKey: e.MPESA_CONSUMER_KEY!,
      consumerSecret: e.MPESA_CONSUMER_SECRET!,
      shortcode: e.MPESA_SHORTCODE!,
      passkey: e.MPESA_PASSKEY!,
      publicUrl: e.PUBLIC_URL!.replace(/\/+$/, ''),
      callbackToken: e.MPESA_CALLBACK_TOKEN!,
      queryAfterSeconds: e.MPESA_QUERY_AFTER_SECONDS,
    };
  }
  return {
    mpesa,
    map: {
      tileUrl: e.MAP_TILE_URL,
      tileAttribution: e.MAP_TILE_URL ? e.MAP_TILE_ATTRIBUTION : undefined,
      tileOrigin: e.MAP_TILE_URL ? tileOrigin(e.MAP_TILE_URL)! : undefined,
    },
    env: e.NODE_ENV,
    port: e.PORT,
    healthPort: e.HEALTH_PORT,
    workerNice: e.WORKER_NICE,
    databaseUrl: e.DATABASE_URL,
    databaseReadUrl: e.DATABASE_READ_URL,
    redisUrl: e.REDIS_URL,
    redisClusterNodes: e.REDIS_CLUSTER_NODES?.length ? e.REDIS_CLUSTER_NODES : undefined,
    redisPrefix: e.REDIS_PREFIX,
    mqtt: mqttConfig(e),
    jwt: { secret: e.JWT_SECRET ?? randomBytes(32).toString('base64url'), generated: !e.JWT_SECRET },
    timezone: e.APP_TIMEZONE,
    currency: e.CURRENCY,
    admin: { email: e.ADMIN_EMAIL, password: e.ADMIN_PASSWORD },
    metricsToken: e.METRICS_TOKEN,
    legacyOpenDeviceReads: e.LEGACY_OPEN_DEVICE_READS,
    roles: new Set(e.APP_ROLES),
    webDist: e.WEB_DIST,
    logLevel: e.LOG_LEVEL,
    corsOrigins: e.CORS_ORIGIN ? e.CORS_ORIGIN.split(',').map((o) => o.trim()) : [],
    httpRateLimit: e.HTTP_RATE_LIMIT,
    mqttConnectRate: e.MQTT_CONNECT_RATE,
    backfillPaceMs: e.BACKFILL_PACE_MS,
    ingestMaxBacklog: e.INGEST_MAX_BACKLOG,
    apiDocs: e.API_DOCS ?? e.NODE_ENV !== 'production',
    allowVolatileRedis: e.ALLOW_VOLATILE_REDIS,
    exportIdleTimeoutMs: e.EXPORT_IDLE_TIMEOUT_MS,
    salesRetry: { attempts: e.SALES_RETRY_ATTEMPTS, delayMs: e.SALES_RETRY_DELAY_MS },
    salesRetentionMonths: e.SALES_RETENTION_MONTHS,
    alarms: {
      enabled: e.ALARMS_ENABLED,
      escalateAfterMinutes: e.ESCALATE_AFTER_MINUTES,
      telemetryRetentionDays: e.TELEMETRY_RETENTION_DAYS,
      sweepIntervalMs: e.ALARM_SWEEP_INTERVAL_MS,
    },
    notifications: {
      smtpUrl: e.SMTP_URL,
      mailFrom: e.MAIL_FROM,
      sms:
        e.SMS_URL && e.SMS_USERNAME && e.SMS_API_KEY
          ? { url: e.SMS_URL.replace(/\/+$/, ''), username: e.SMS_USERNAME, apiKey: e.SMS_API_KEY }
          : undefined,
      dailyReportTime: e.DAILY_REPORT_TIME,
      retryDelayMs: e.NOTIFICATION_RETRY_DELAY_MS,
      digestSeconds: e.NOTIFICATION_DIGEST_SECONDS,
      leaseSeconds: e.NOTIFICATION_LEASE_SECONDS,
    },
  };
}

function mqttConfig(e: z.infer<typeof envSchema>): MqttConfig {
  const base = { port: e.MQTT_PORT, wsPath: e.MQTT_WS_PATH };
  if (e.MQTT_MODE === 'embedded') return { ...base, mode: 'embedded' };
  if (!e.MQTT_BROKER_URL) {
    throw new ConfigError('MQTT_BROKER_URL is required when MQTT_MODE=external. Set MQTT_BROKER_URL and start again.');
  }
  if (e.MQTT_AUTH_MODE === 'http-hooks' && !e.MQTT_HOOK_TOKEN) {
    throw new ConfigError(
      'MQTT_HOOK_TOKEN is required when MQTT_AUTH_MODE=http-hooks. Set MQTT_HOOK_TOKEN and start again.',
    );
  }
  if (e.MQTT_AUTH_MODE === 'mosquitto-dynsec' && !(e.MQTT_BROKER_USERNAME && e.MQTT_BROKER_PASSWORD)) {
    throw new ConfigError(
      'MQTT_BROKER_USERNAME and MQTT_BROKER_PASSWORD are required when MQTT_AUTH_MODE=mosquitto-dynsec (a ' +
        'dynamic-security client allowed $CONTROL/dynamic-security/#). Set both and start again.',
    );
  }
  return {
    ...base,
    mode: 'external',
    external: {
      url: e.MQTT_BROKER_URL,
      username: e.MQTT_BROKER_USERNAME,
      password: e.MQTT_BROKER_PASSWORD,
      authMode: e.MQTT_AUTH_MODE,
      hookToken: e.MQTT_HOOK_TOKEN,
      clientId:
        e.MQTT_CLIENT_ID ??
        `wv-${hostname()
          .replace(/[^A-Za-z0-9_.-]/g, '-')
          .slice(0, 37)}`,
    },
  };
}

export const APP_CONFIG = Symbol('APP_CONFIG');
