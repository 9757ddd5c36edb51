/**
 * Operator mistakes, Redis (docs/security.md): a sale is acknowledged to its machine once it is queued in Redis
 * (docs/device-protocol.md, "Acknowledgements and durability"), so a production deployment on a Redis that forgets on
 * restart (`appendonly no`) or evicts under memory pressure would lose sales the machines have already deleted. With
 * NODE_ENV=production the built program must refuse such a Redis in one line naming both settings, unless the operator
 * says ALLOW_VOLATILE_REDIS=true, which it then warns about.
 */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Redis } from 'ioredis';
import { createDeployment, spawnServer, type Deployment } from '../../support/server-process.js';
import { TEST_REDIS_URL } from '../../support/test-databases.js';

const MAIN = fileURLToPath(new URL('../../../dist/main.js', import.meta.url));

/** Runs the built program until it exits (or `timeoutMs`); a program that keeps running is killed. */
function runUntilExit(env: Record<string, string>, timeoutMs = 45_000) {
  return new Promise<{ code: number | null; stderr: string; stdout: string; exited: boolean }>((resolve) => {
    const child = spawn(process.execPath, [MAIN], {
      env: { ...process.env, ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout!.on('data', (c: Buffer) => (stdout += c.toString()));
    child.stderr!.on('data', (c: Buffer) => (stderr += c.toString()));
    const timer = setTimeout(() => child.kill('SIGKILL'), timeoutMs);
    child.once('exit', (code, signal) => {
      clearTimeout(timer);
      resolve({ code, stderr: stderr.trim(), stdout, exited: signal === null });
    });
  });
}

async function freePort(): Promise<number> {
  const probe = createServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
  const { port } = probe.address() as { port: number };
  await new Promise((resolve) => probe.close(resolve));
  return port;
}

/** A private redis-server for the cases the machine's Redis cannot play. */
async function startRedis(args: string[]): Promise<{ url: string; stop(): Promise<void> }> {
  const port = await freePort();
  const dir = mkdtempSync(join(tmpdir(), 'wv-abuse-redis-'));
  const child: ChildProcess = spawn(
    'redis-server',
    ['--port', String(port), '--bind', '127.0.0.1', '--dir', dir, '--save', '', '--daemonize', 'no', ...args],
    { stdio: 'ignore' },
  );
  const url = `redis://127.0.0.1:${port}`;
  const stop = async () => {
    if (child.exitCode === null) {
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.kill('SIGKILL');
      await exited;
    }
    rmSync(dir, { recursive: true, force: true });
  };
  const deadline = Date.now() + 20_000;
  for (;;) {
    const client = new Redis(url, { lazyConnect: true, maxRetriesPerRequest: 0, retryStrategy: () => null });
    const pong = await client
      .connect()
      .then(() => client.ping())
      .catch(() => null);
    client.disconnect();
    if (pong === 'PONG') return { url, stop };
    if (Date.now() > deadline || child.exitCode !== null) {
      await stop();
      throw new Error('redis-server did not start');
    }
    await new Promise((r) => setTimeout(r, 100));
  }
}

const NAMES_BOTH = /appendonly yes.*maxmemory-policy noeviction/;

(existsSync(MAIN) ? describe : describe.skip)('an operator running production on a volatile Redis', () => {
  let deployment: Deployment;

  beforeAll(async () => {
    deployment = await createDeployment({ NODE_ENV: 'production', LOG_LEVEL: 'log' });
    // The premise: the machine's Redis keeps nothing across a restart.
    const redis = new Redis(TEST_REDIS_URL);
    const [, aof] = (await redis.config('GET', 'appendonly')) as string[];
    await redis.quit();
    expect(aof).toBe('no');
  }, 60_000);
  afterAll(() => deployment?.cleanup(), 30_000);

  it('refuses to start with one line naming appendonly yes and maxmemory-policy noeviction', async () => {
    const result = await runUntilExit(deployment.env);
    expect(result.exited).toBe(true);
    expect(result.code).toBe(1);
    expect(result.stderr.split('\n')).toHaveLength(1);
    expect(result.stderr).toMatch(/^Cannot start: /);
    expect(result.stderr).toMatch(NAMES_BOTH);
    expect(result.stderr).toContain('appendonly no');
    expect(result.stderr).toContain('ALLOW_VOLATILE_REDIS=true');
    expect(result.stdout).not.toMatch(/HTTP listening/);
  }, 60_000);

  it('starts with ALLOW_VOLATILE_REDIS=true and warns that queued sales could be lost', async () => {
    const server = await spawnServer(deployment, { ALLOW_VOLATILE_REDIS: 'true' }, 45_000);
    try {
      expect((await fetch(`${server.baseUrl}/api/health`)).status).toBe(200);
      const warning = server
        .output()
        .split('\n')
        .find((line) => line.includes('ALLOW_VOLATILE_REDIS=true'));
      expect(warning).toMatch(NAMES_BOTH);
      expect(warning).toMatch(/could be lost/);
    } finally {
      await server.stop();
    }
  }, 90_000);

  it('refuses a Redis that will not answer CONFIG GET, unless ALLOW_VOLATILE_REDIS=true', async () => {
    const secretive = await startRedis(['--rename-command', 'CONFIG', '""']);
    try {
      const refused = await runUntilExit({ ...deployment.env, REDIS_URL: secretive.url });
      expect(refused.code).toBe(1);
      expect(refused.stderr.split('\n')).toHaveLength(1);
      expect(refused.stderr).toMatch(NAMES_BOTH);
      expect(refused.stderr).toMatch(/CONFIG GET/);
      expect(refused.stderr).toContain('ALLOW_VOLATILE_REDIS=true');

      const allowed = await spawnServer(deployment, { REDIS_URL: secretive.url, ALLOW_VOLATILE_REDIS: 'true' }, 45_000);
      await allowed.stop();
      expect(allowed.output()).toMatch(/ALLOW_VOLATILE_REDIS=true.*CONFIG GET/);
    } finally {
      await secretive.stop();
    }
  }, 120_000);

  it('starts in production on a Redis with appendonly yes and noeviction, without the warning', async () => {
    const durable = await startRedis(['--appendonly', 'yes', '--maxmemory-policy', 'noeviction']);
    try {
      const server = await spawnServer(deployment, { REDIS_URL: durable.url }, 45_000);
      await server.stop();
      expect(server.output()).not.toMatch(/appendonly/);
    } finally {
      await durable.stop();
    }
  }, 120_000);
});
