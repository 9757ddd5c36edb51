import 'reflect-metadata';
import { INestApplication, Logger } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import type { NestExpressApplication } from '@nestjs/platform-express';
import { SwaggerModule, type OpenAPIObject } from '@nestjs/swagger';
import helmet from 'helmet';
import { createServer } from 'node:net';
import { DataSource } from 'typeorm';
import { AppModule } from './app.module.js';
import { announce } from './common/announce.js';
import { JsonLogger } from './observability/json-logger.js';
import { ensureFirstAdmin } from './auth/first-admin.js';
import { ConfigError, type AppConfig } from './config/app-config.js';
import { ensureDatabase } from './database/ensure-database.js';
import { buildOpenApiDocument } from './openapi/openapi-document.js';
import { createRedis } from './redis/redis.provider.js';
import { UserRepository } from './user/user.repository.js';
import { SOCKET_PATH } from './live/live-server.service.js';
import { serveWebApp } from './web/serve-web.js';
import { ownUpgrades } from './web/upgrade-owner.js';

const MIGRATION_LOCK = 7_263_001;

export interface RunningApp {
  app: INestApplication;
  port: number;
  close(): Promise<void>;
}

/** Starts the whole program for the roles in `config`; every failure to start is one clear line. */
export async function startApp(config: AppConfig): Promise<RunningApp> {
  const logger = new Logger('Bootstrap');
  const servesHttp = config.roles.has('api') || config.roles.has('broker');
  // A worker-only process never listens: it shares the api process's environment (and its PORT).
  if (servesHttp) await assertPortFree(config.port, 'PORT');
  const dbUrl = redactUrl(config.databaseUrl);
  await ensureDatabase(config.databaseUrl).catch((error: Error) => {
    throw new ConfigError(`Cannot reach PostgreSQL at ${dbUrl} (${error.message}). Check DATABASE_URL.`);
  });
  const redis = createRedis(config);
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
    throw new ConfigError(`Cannot reach Redis at ${redactUrl(config.redisUrl)} (${reason}). Check REDIS_URL.`);
  });

  if (!servesHttp) return startWorkerOnly(config, redis);
  const app = await NestFactory.create<NestExpressApplication>(AppModule.forRoot(config, redis), {
    bodyParser: false,
    logger: new JsonLogger(config.logLevel),
  });
  app.disable('x-powered-by');
  applySecurityHeaders(app, config);
  app.setGlobalPrefix('api', { exclude: [] });

  const dataSource = app.get(DataSource);
  await runMigrations(dataSource);
  await ensureFirstAdmin(config, app.get(UserRepository));
  await warnAboutRedis(redis, logger);
  if (config.jwt.generated)
    logger.warn('JWT_SECRET is not set: a random secret was generated, so sessions end when the program restarts');

  SwaggerModule.setup('api/docs', app, buildOpenApiDocument() as unknown as OpenAPIObject, {
    jsonDocumentUrl: 'api/docs/openapi.json',
  });
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
  announce(config, `HTTP listening on http://localhost:${port} (API at /api, docs at /api/docs)`);
  return { app, port, close: () => app.close() };
}

/**
 * Security headers on every answer (helmet), a content security policy that fits the built web app
 * (its own scripts, inline style attributes from the chart library, WebSocket to itself), and CORS
 * only for the configured origins (none by default: the web app is served from the same origin).
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
          'img-src': ["'self'", 'data:'],
          'connect-src': ["'self'", 'ws:', 'wss:'],
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

/** APP_ROLES=worker: no HTTP server, only the queue workers. */
async function startWorkerOnly(config: AppConfig, redis: import('ioredis').Redis): Promise<RunningApp> {
  const app = await NestFactory.createApplicationContext(AppModule.forRoot(config, redis), {
    logger: new JsonLogger(config.logLevel),
  });
  await runMigrations(app.get(DataSource));
  await app.init();
  announce(config, 'Worker started (APP_ROLES=worker): processing the sales queue');
  return { app: app as unknown as INestApplication, port: 0, close: () => app.close() };
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

/** CONTRACT section 4: production Redis runs with appendonly yes and noeviction; say so when not. */
async function warnAboutRedis(redis: import('ioredis').Redis, logger: Logger): Promise<void> {
  try {
    const aof = (await redis.config('GET', 'appendonly')) as string[];
    const policy = (await redis.config('GET', 'maxmemory-policy')) as string[];
    if (aof[1] !== 'yes')
      logger.warn('Redis runs without appendonly yes: queued sales could be lost if Redis restarts');
    if (policy[1] !== 'noeviction')
      logger.warn(`Redis maxmemory-policy is ${policy[1]}, not noeviction: queued sales could be evicted`);
  } catch {
    logger.warn(
      'Could not read the Redis configuration (CONFIG GET refused); make sure it has appendonly yes and noeviction',
    );
  }
}

export function redactUrl(url: string): string {
  try {
    const u = new URL(url);
    if (u.password) u.password = '***';
    return u.toString();
  } catch {
    return '(unparseable URL)';
  }
}
