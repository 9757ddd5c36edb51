import { execFile, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { reaper } from '../soak/reaper.js';
import { freePort } from './free-port.js';
import { startTracked, type TrackedProcess } from './tracked-process.js';

const run = promisify(execFile);

/** A Redis Cluster of three masters, no replicas, each `appendonly yes` (docs/redis-cluster.md). */
export interface RedisCluster {
  /** host:port of every node, as REDIS_CLUSTER_NODES takes them. */
  nodes: string[];
  stop(): Promise<void>;
}

/** Whether redis-server and redis-cli are installed; the cluster tests skip (with one warning) when not. */
export function redisClusterAvailable(): boolean {
  const ok = (command: string) => spawnSync(command, ['--version'], { stdio: 'ignore' }).status === 0;
  if (ok('redis-server') && ok('redis-cli')) return true;
  console.warn('redis-server or redis-cli is not installed: the Redis Cluster tests are skipped');
  return false;
}

async function cli(port: number, ...args: string[]): Promise<string> {
  const { stdout } = await run('redis-cli', ['-h', '127.0.0.1', '-p', String(port), ...args], { timeout: 30_000 });
  return stdout;
}

export async function startRedisCluster(size = 3): Promise<RedisCluster> {
  const dir = mkdtempSync(join(tmpdir(), 'wv-redis-cluster-'));
  const forgetDir = reaper.directory(dir);
  const servers: TrackedProcess[] = [];
  const ports: number[] = [];
  const stop = async () => {
    for (const s of servers) s.child.kill('SIGKILL');
    await Promise.all(servers.map((s) => s.exited));
    rmSync(dir, { recursive: true, force: true });
    forgetDir();
  };
  try {
    for (let i = 0; i < size; i++) {
      const port = await freePort();
      ports.push(port);
      const args = [
        '--port', String(port),
        '--bind', '127.0.0.1',
        '--dir', dir,
        '--cluster-enabled', 'yes',
        '--cluster-config-file', `nodes-${port}.conf`,
        '--cluster-node-timeout', '5000',
        '--appendonly', 'yes',
        '--appendfilename', `appendonly-${port}.aof`,
        '--appenddirname', `aof-${port}`,
        '--dbfilename', `dump-${port}.rdb`,
        '--maxmemory-policy', 'noeviction',
        '--save', '',
      ]; // prettier-ignore
      servers.push(
        await startTracked(`redis-server :${port}`, 'redis-server', args, () =>
          cli(port, 'ping').then(
            (out) => out.trim() === 'PONG',
            () => false,
          ),
        ),
      );
    }
    await cli(
      ports[0]!,
      '--cluster',
      'create',
      ...ports.map((p) => `127.0.0.1:${p}`),
      '--cluster-replicas',
      '0',
      '--cluster-yes',
    );
    const deadline = Date.now() + 30_000;
    for (;;) {
      const states = await Promise.all(ports.map((p) => cli(p, 'cluster', 'info').catch(() => '')));
      if (states.every((s) => /cluster_state:ok/.test(s))) break;
      if (Date.now() > deadline) throw new Error(`the Redis Cluster did not become ok:\n${states.join('\n')}`);
      await new Promise((r) => setTimeout(r, 100));
    }
  } catch (error) {
    await stop();
    throw error;
  }
  return { nodes: ports.map((p) => `127.0.0.1:${p}`), stop };
}
