import { redactUrl } from './common/redact-url.js';
import 'reflect-metadata';
import { INestApplication, Logger } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import type { NestExpressApplication } from '@nestjs/platform-express';
import { SwaggerModule, type OpenAPIObject } from '@nestjs/swagger';
import helmet from 'helmet';
import { createServer } from 'node:net';
import { DataSource } from 'typeorm';
import { guardPoolClients } from './database/pool-error-guard.js';
import { AppModule } from './app.module.js';
import { announce } from './common/announce.js';
import { JsonLogger } from './observability/json-logger.js';
import { ensureFirstAdmin } from './user/first-admin.js';
import { ConfigError, type AppConfig } from './config/app-config.js';
import { ensureDatabase } from './database/ensure-database.js';
import { buildOpenApiDocument } from './openapi/openapi-document.js';
import { masterNodes, redisTarget } from './redis/redis-connection.js';
import { createAppRedis } from './redis/redis.provider.js';
import { UserRepository } from './user/user.repository.js';
import { SOCKET_PATH } from './live/live-server.service.js';
import { serveWebApp } from './web/serve-web.js';
import { ownUpgrades } from './web/upgrade-owner.js';
import { healthPortOf, listenHealthPort } from './health/health-port.js';
import { WorkerPriority } from './common/process-priority.js';
import { HealthService } from './health/health.service.js';

const MIGRATION_LOCK = 7_263_001;

export interface RunningApp {
  app: INestApplication;
  port: number;
  close(): Promise<void>;
}

export interface StartOptions {
  /**
   * The program is this whole process (`npm start`), not an app among others in it (tests, the demo): settings of
   * the process apply, such as a worker-only process's lower CPU priority (WORKER_NICE).
   */
  ownProcess?: boolean;
}

/** Starts the whole program for the roles in `config`; every failure to start is one clear line. */
export async function startApp(config: AppConfig, options: StartOptions = {}): Promise<RunningApp> {
  const logger = new Logger('Bootstrap');
  const servesHttp = config.roles.has('api') || config.roles.has('broker');
  // A worker-only process never listens on PORT: it shares the api process's environment. It may answer the health
  // probes on HEALTH_PORT.
  if (servesHttp) await assertPortFree(config.port, 'PORT');
  else if (config.healthPort !== undefined) await assertPortFree(config.healthPort, 'HEALTH_PORT');
  const dbUrl = redactUrl(config.databaseUrl);
  await ensureDatabase(config.databaseUrl).catch((error: Error) => {
    throw new ConfigError(`Cannot reach PostgreSQL at ${dbUrl} (${error.message}). Check DATABASE_URL.`);
  });
  const redis = createAppRedis(config);
  let redisError: Error | undefined;
  // Until start-up is over the first error is reported once, below; afterwards ioredis reconnects.
  redis.on('error', (error: Error) => {
    if (started) logger.warn(`Redis: ${error.message}`);
    else redisError ??= error;
  });
  let started = false;
  await redis.connect().catch((error: Error) => {
    redis.disconnect();
    const reason = redisError?.message ?? error.message;
    const variable = config.redisClusterNodes ? 'REDIS_CLUSTER_NODES' : 'REDIS_URL';
    throw new ConfigError(`Cannot reach ${redisTarget(config, redactUrl)} (${reason}). Check ${variable}.`);
  });
  // Checked before any other work, so that a refused start leaves nothing behind.
  const redisWarning = await checkRedisDurability(redis, config).catch((error: Error) => {
    redis.disconnect();
    throw error;
  });

  if (!servesHttp) return startWorkerOnly(config, redis, redisWarning, options);
  const app = await NestFactory.create<NestExpressApplication>(AppModule.forRoot(config, redis), {
    bodyParser: false,
    logger: new JsonLogger(config.logLevel),
  });
  app.disable('x-powered-by');
  applySecurityHeaders(app, config);
  app.setGlobalPrefix('api', { exclude: [] });

  const dataSource = app.get(DataSource);
  guardPoolClients(dataSource);
  await runMigrations(dataSource);
  await ensureFirstAdmin(config, app.get(UserRepository));
  if (redisWarning) logger.warn(redisWarning);
  if (config.jwt.generated)
    logger.warn('JWT_SECRET is not set: a random secret was generated, so sessions end when the program restarts');

  serveApiDocs(app, config);
  const webDist = config.webDist;
  if (webDist && !serveWebApp(app.getHttpAdapter().getInstance(), webDist, config)) {
    logger.warn(`No built web app in ${webDist}: run npm run build`);
  }

  // Every transport attaches its upgrade listener during init; the owner of the rest goes last.
  await app.init();
  ownUpgrades(app.getHttpServer(), {
    socketIoPath: config.roles.has('api') ? SOCKET_PATH : undefined,
    mqttWsPath: config.roles.has('broker') ? config.mqtt.wsPath : undefined,
  });
  await app.listen(config.port).catch((error: NodeJS.ErrnoException) => {
    void app.close();
    if (error.code === 'EADDRINUSE') throw new ConfigError(`Port ${config.port} is taken. Set PORT to a free port.`);
    throw error;
  });
  started = true;
  const address = app.getHttpServer().address();
  const port = typeof address === 'object' && address ? address.port : config.port;
  announce(
    config,
    `HTTP listening on http://localhost:${port} (API at /api${config.apiDocs ? ', docs at /api/docs' : ''})`,
  );
  return { app, port, close: () => app.close() };
}

/**
 * Security headers on every answer (helmet), a content security policy that fits the built web app
 * (its own scripts, inline style attributes from the chart library, WebSocket to itself), and CORS
 * only for the configured origins (none by default: the web app is served from the same origin).
 *
 * connect-src is 'self' alone: CSP Level 3 matches 'self' against ws: and wss: URLs of the page's own
 * host and port (Chromium, Firefox and Safari 15.4+ do), which is all the live connection needs; the
 * schemes `ws:` and `wss:` alone would let injected script send data to any host.
 */
function applySecurityHeaders(app: NestExpressApplication, config: AppConfig): void {
  app.use(
    helmet({
      contentSecurityPolicy: {
        useDefaults: true,
        directives: {
          'default-src': ["'self'"],
          'script-src': ["'self'"],
          'style-src': ["'self'", "'unsafe-inline'"],
          // The fleet map's tiles, when MAP_TILE_URL names a tile server (docs/web-app.md, "Fleet map").
          'img-src': ["'self'", 'data:', ...(config.map.tileOrigin ? [config.map.tileOrigin] : [])],
          'connect-src': ["'self'"],
          'frame-ancestors': ["'none'"],
          'upgrade-insecure-requests': null,
        },
      },
      strictTransportSecurity: config.env === 'production',
    }),
  );
  if (config.corsOrigins.length > 0) {
    app.enableCors({
      origin: config.corsOrigins,
      credentials: false,
      maxAge: 600,
      exposedHeaders: ['X-Request-Id', 'Content-Disposition'],
    });
  }
}

/** APP_ROLES=worker: no HTTP server, only the queue workers (and the health probes when HEALTH_PORT is set). */
async function startWorkerOnly(
  config: AppConfig,
  redis: import('ioredis').Redis,
  redisWarning: string | undefined,
  options: StartOptions,
): Promise<RunningApp> {
  const app = await NestFactory.createApplicationContext(AppModule.forRoot(config, redis), {
    logger: new JsonLogger(config.logLevel),
  });
  if (redisWarning) new Logger('Bootstrap').warn(redisWarning);
  guardPoolClients(app.get(DataSource));
  await runMigrations(app.get(DataSource));
  await app.init();
  const health =
    config.healthPort === undefined ? null : await listenHealthPort(config.healthPort, app.get(HealthService));
  // Throughput work at a lower priority than the brokers that may share this host while it keeps up: their PUBACKs go
  // first, and the worker takes the CPU they leave; behind, it takes its priority back (docs/performance.md, "The
  // worker yields"). Only when the app is the whole process: an app started in a test would change the test runner's.
  if (options.ownProcess) app.get(WorkerPriority).start(config.workerNice);
  announce(config, 'Worker started (APP_ROLES=worker): processing the sales queue');
  if (health) announce(config, `Health probes on http://localhost:${healthPortOf(health)}/api/health`);
  return {
    app: app as unknown as INestApplication,
    port: 0,
    close: async () => {
      if (health) await new Promise((resolve) => health.close(resolve));
      await app.close();
    },
  };
}

/** A taken port is reported before any other work, as one line naming the variable. */
export function assertPortFree(port: number, variable: string): Promise<void> {
  if (port === 0) return Promise.resolve();
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', (error: NodeJS.ErrnoException) =>
      reject(
        error.code === 'EADDRINUSE'
          ? new ConfigError(`Port ${port} is taken. Set ${variable} to a free port.`)
          : new ConfigError(`Cannot listen on port ${port} (${error.message}). Set ${variable} to another port.`),
      ),
    );
    probe.listen(port, () => probe.close(() => resolve()));
  });
}

/** Several processes may start at once: an advisory lock lets one migrate while the others wait. */
async function runMigrations(dataSource: DataSource): Promise<void> {
  const runner = dataSource.createQueryRunner();
  await runner.connect();
  try {
    await runner.query('SELECT pg_advisory_lock($1)', [MIGRATION_LOCK]);
    await dataSource.runMigrations({ transaction: 'each' });
  } finally {
    await runner.query('SELECT pg_advisory_unlock($1)', [MIGRATION_LOCK]).catch(() => undefined);
    await runner.release();
  }
}

/**
 * The API's description (Swagger UI and the OpenAPI document). It maps every endpoint and field for
 * whoever asks, so a production deployment serves it only when the operator sets API_DOCS=true.
 */
function serveApiDocs(app: NestExpressApplication, config: AppConfig): void {
  if (!config.apiDocs) return;
  SwaggerModule.setup('api/docs', app, buildOpenApiDocument() as unknown as OpenAPIObject, {
    jsonDocumentUrl: 'api/docs/openapi.json',
  });
}

/**
 * A sale is acknowledged to its machine once it is queued in Redis, so Redis must
 * keep it across a restart (appendonly yes) and under memory pressure (maxmemory-policy noeviction)
 * (docs/device-protocol.md, "Acknowledgements and durability"; docs/operations.md, "Redis and PostgreSQL settings").
 * With NODE_ENV=production a Redis that does not, or that will not say (CONFIG GET refused), stops the
 * start unless ALLOW_VOLATILE_REDIS=true, which is then warned about; elsewhere it is a warning. Answers
 * the warning, logged once the program's logger is in place. Over a Redis Cluster every master node is checked
 * (docs/redis-cluster.md).
 */
async function checkRedisDurability(redis: import('ioredis').Redis, config: AppConfig): Promise<string | undefined> {
  const required = 'appendonly yes and maxmemory-policy noeviction';
  const nodes = masterNodes(redis);
  const named = config.redisClusterNodes !== undefined;
  const faults = await Promise.all(
    nodes.map(async (node) => {
      const it = named ? `node ${node.options.host ?? '?'}:${node.options.port ?? '?'}` : 'it';
      try {
        const [, aof] = (await node.config('GET', 'appendonly')) as string[];
        const [, policy] = (await node.config('GET', 'maxmemory-policy')) as string[];
        if (aof === 'yes' && policy === 'noeviction') return undefined;
        return `${it} has appendonly ${aof ?? 'unknown'} and maxmemory-policy ${policy ?? 'unknown'}`;
      } catch {
        return `${it} refused CONFIG GET, so neither could be checked`;
      }
    }),
  );
  const found = faults.filter((f) => f !== undefined).join('; ');
  if (!found) return undefined;
  const production = config.env === 'production';
  if (production && !config.allowVolatileRedis) {
    throw new ConfigError(
      `${redisTarget(config, redactUrl)} must run with ${required} when NODE_ENV=production (${found}): ` +
        'queued sales could be lost. Configure Redis so, or set ALLOW_VOLATILE_REDIS=true to start anyway.',
    );
  }
  return (
    `${production ? 'ALLOW_VOLATILE_REDIS=true: starting on a Redis' : 'Redis runs'} without ${required} ` +
    `(${found}): queued sales could be lost if Redis restarts or runs out of memory`
  );
}
