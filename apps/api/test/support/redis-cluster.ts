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

/**
 * One cluster node. Its cluster bus port is chosen too (`cluster-port`), below the ephemeral range like
 * the client port: by default Redis takes the client port + 10,000, which lies in that range, where an
 * outgoing connection of another test may hold it. A port taken between the check and the bind is tried
 * again with new ports.
 */
async function startNode(dir: string): Promise<{ port: number; server: TrackedProcess }> {
  for (let attempt = 1; ; attempt++) {
    const port = await freePort();
    let bus = await freePort();
    while (bus === port) bus = await freePort();
    const args = [
      '--port', String(port),
      '--cluster-port', String(bus),
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
    try {
      const server = await startTracked(`redis-server :${port}`, 'redis-server', args, () =>
        cli(port, 'ping').then(
          (out) => out.trim() === 'PONG',
          () => false,
        ),
      );
      return { port, server };
    } catch (error) {
      if (attempt >= 3 || !/Address already in use/.test((error as Error).message)) throw error;
    }
  }
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
      const { port, server } = await startNode(dir);
      ports.push(port);
      servers.push(server);
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
