import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { dropDatabase, TEST_REDIS_URL } from './test-databases.js';
import { createTestDatabase, deleteRedisPrefix, TEST_ADMIN, testPrefix } from './test-app.js';

const MAIN = fileURLToPath(new URL('../../dist/main.js', import.meta.url));
const WEB_DIST = fileURLToPath(new URL('../../../web/dist', import.meta.url));

/** One deployment: a database, a Redis prefix and a secret that several processes can share. */
export interface Deployment {
  databaseName: string;
  databaseUrl: string;
  redisPrefix: string;
  env: Record<string, string>;
  cleanup(): Promise<void>;
}

export interface ServerProcess {
  /** Empty for a worker-only process. */
  baseUrl: string;
  mqttPort: number;
  process: ChildProcess;
  output(): string;
  /** SIGKILL: no shutdown hook runs (fault tests). */
  kill(): Promise<void>;
  /** SIGTERM and wait. */
  stop(): Promise<void>;
}

export interface RunningServer extends ServerProcess {
  databaseUrl: string;
  redisPrefix: string;
  admin: { email: string; password: string };
  /** The environment it runs with (its JWT secret among them). */
  env: Record<string, string>;
}

export async function createDeployment(env: Record<string, string> = {}): Promise<Deployment> {
  const db = await createTestDatabase();
  const redisPrefix = testPrefix();
  return {
    databaseName: db.name,
    databaseUrl: db.url,
    redisPrefix,
    env: {
      NODE_ENV: 'test',
      DATABASE_URL: db.url,
      REDIS_URL: TEST_REDIS_URL,
      REDIS_PREFIX: redisPrefix,
      JWT_SECRET: randomBytes(24).toString('hex'),
      ADMIN_EMAIL: TEST_ADMIN.email,
      ADMIN_PASSWORD: TEST_ADMIN.password,
      WEB_DIST,
      NO_COLOR: '1',
      PORT: '0',
      MQTT_PORT: '0',
      ...env,
    },
    async cleanup() {
      await dropDatabase(db.name);
      await deleteRedisPrefix(redisPrefix);
    },
  };
}

/**
 * Starts the built program (`node apps/api/dist/main.js`, as `npm start` does) for a deployment,
 * and waits until it says it is ready: HTTP listening, or for APP_ROLES=worker the worker started.
 */
export async function spawnServer(
  deployment: Deployment,
  env: Record<string, string> = {},
  timeoutMs = 30_000,
): Promise<ServerProcess> {
  if (!existsSync(MAIN)) throw new Error('apps/api/dist/main.js is missing: run `npm run build` first');
  const child = spawn(process.execPath, [MAIN], {
    env: { ...process.env, ...deployment.env, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout!.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr!.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const alive = () => child.exitCode === null && child.signalCode === null;
  const kill = async () => {
    if (alive()) child.kill('SIGKILL');
    await exited;
  };
  const stop = async () => {
    if (alive()) {
      child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), 10_000);
      await exited;
      clearTimeout(timer);
    }
  };
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline && alive()) {
    const http = /HTTP listening on http:\/\/localhost:(\d+)/.exec(output);
    const worker = /Worker started/.test(output);
    if (http || worker) {
      const mqtt = /MQTT listening on port (\d+)/.exec(output);
      return {
        baseUrl: http ? `http://127.0.0.1:${http[1]}` : '',
        mqttPort: mqtt ? Number(mqtt[1]) : 0,
        process: child,
        output: () => output,
        kill,
        stop,
      };
    }
    await new Promise((r) => setTimeout(r, 50));
  }
  await kill();
  throw new Error(`The server did not start:\n${output}`);
}

/** One process with every role on its own deployment: for browser and process tests. */
export async function startServer(
  opts: { env?: Record<string, string>; timeoutMs?: number } = {},
): Promise<RunningServer> {
  const deployment = await createDeployment(opts.env);
  try {
    const server = await spawnServer(deployment, {}, opts.timeoutMs);
    let stopped: Promise<void> | undefined;
    return {
      ...server,
      databaseUrl: deployment.databaseUrl,
      redisPrefix: deployment.redisPrefix,
      admin: TEST_ADMIN,
      env: deployment.env,
      /** Stops the program and drops its deployment, once however often it is called. */
      stop() {
        stopped ??= server.stop().then(() => deployment.cleanup());
        return stopped;
      },
    };
  } catch (error) {
    await deployment.cleanup();
    throw error;
  }
}
