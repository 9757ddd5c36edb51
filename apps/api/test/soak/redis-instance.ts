import type { ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Redis } from 'ioredis';
import { reaper } from './reaper.js';
import { freePort } from '../support/free-port.js';
import { startTracked } from '../support/tracked-process.js';

/**
 * The soak's own redis-server, configured as production should be (docs/operations.md, "Redis and PostgreSQL
 * settings"): an append-only file fsynced on every write, so that what Redis acknowledged survives a restart or a
 * SIGKILL. The machine's shared Redis runs without persistence (docs/operations.md, "Toolchain notes"), so it cannot be
 * used.
 */
export class RedisInstance {
  private child?: ChildProcess;
  private exited?: Promise<void>;

  private constructor(
    readonly port: number,
    private readonly dir: string,
  ) {
    this.forgetDir = reaper.directory(dir);
  }

  private readonly forgetDir: () => void;

  static async create(): Promise<RedisInstance> {
    const instance = new RedisInstance(await freePort(), mkdtempSync(join(tmpdir(), 'wv-soak-redis-')));
    try {
      await instance.start();
      return instance;
    } catch (error) {
      await instance.destroy();
      throw error;
    }
  }

  get url(): string {
    return `redis://127.0.0.1:${this.port}`;
  }

  get isRunning(): boolean {
    return this.child !== undefined;
  }

  /** Starts redis-server (it replays its append-only file) and waits until it answers PING. */
  async start(): Promise<void> {
    if (this.child) return;
    // maxmemory-policy noeviction is the default; set it anyway, as the contract requires it.
    const args = [
      ...['--port', String(this.port), '--bind', '127.0.0.1', '--dir', this.dir, '--save', ''],
      ...['--appendonly', 'yes', '--appendfsync', 'always', '--maxmemory-policy', 'noeviction'],
      ...['--protected-mode', 'no', '--daemonize', 'no', '--loglevel', 'warning'],
    ];
    const started = await startTracked('redis-server', 'redis-server', args, () => this.ping());
    this.child = started.child;
    this.exited = started.exited;
  }

  /** SIGKILL: nothing is flushed beyond what appendfsync already wrote. SIGTERM: a clean shutdown. */
  async stop(signal: 'SIGKILL' | 'SIGTERM'): Promise<void> {
    const child = this.child;
    if (!child) return;
    this.child = undefined;
    child.kill(signal);
    await this.exited;
  }

  async flushAll(): Promise<void> {
    const client = new Redis(this.url, { lazyConnect: true, maxRetriesPerRequest: 1 });
    await client.connect();
    await client.flushall();
    await client.quit();
  }

  private async ping(): Promise<boolean> {
    const client = new Redis(this.url, { lazyConnect: true, maxRetriesPerRequest: 0, retryStrategy: () => null });
    client.on('error', () => undefined);
    try {
      await client.connect();
      // LOADING while the append-only file is replayed: not ready yet.
      return (await client.ping()) === 'PONG';
    } catch {
      return false;
    } finally {
      client.disconnect();
    }
  }

  async destroy(): Promise<void> {
    await this.stop('SIGKILL');
    rmSync(this.dir, { recursive: true, force: true });
    this.forgetDir();
  }
}
