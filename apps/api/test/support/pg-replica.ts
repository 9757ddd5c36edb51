import { execFile, execFileSync, spawnSync } from 'node:child_process';
import { appendFileSync, chownSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { PgCluster } from '../soak/pg-cluster.js';
import { reaper } from '../soak/reaper.js';
import { freePort } from './free-port.js';

/** Debian's PostgreSQL binaries (`postgresql-NN`), the newest installed version, as pg-cluster.ts finds them. */
function postgresBinDir(): string {
  const root = '/usr/lib/postgresql';
  const versions = existsSync(root)
    ? readdirSync(root)
        .filter((v) => existsSync(join(root, v, 'bin', 'pg_basebackup')))
        .sort((a, b) => Number(b) - Number(a))
    : [];
  if (!versions.length) throw new Error('no PostgreSQL binaries in /usr/lib/postgresql/*/bin (postgresql package)');
  return join(root, versions[0]!, 'bin');
}

/** PostgreSQL refuses to run as root: as root, server commands run as `postgres` (as pg-cluster.ts does). */
function serverUser(): { uid: number; gid: number } | null {
  if (process.getuid?.() !== 0) return null;
  const id = (flag: string) => Number(execFileSync('id', [flag, 'postgres'], { encoding: 'utf8' }).trim());
  return { uid: id('-u'), gid: id('-g') };
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function until(what: string, check: () => Promise<boolean>, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (await check().catch(() => false)) return;
    if (Date.now() > deadline) throw new Error(`${what}: not within ${timeoutMs} ms`);
    await sleep(50);
  }
}

/**
 * A hot standby of `primary`, streaming its WAL (PostgreSQL documentation, "Log-Shipping Standby
 * Servers"): `pg_basebackup -R` copies the primary into a temporary directory and writes
 * `primary_conninfo` and `standby.signal`; the standby then runs on a free port of its own. The primary
 * needs nothing beyond initdb's defaults: `wal_level = replica`, `max_wal_senders = 10`, and with
 * `-A trust` the `replication` entries of pg_hba.conf for 127.0.0.1 and the local socket.
 */
export class PgStandby {
  readonly port: number;
  private readonly bin = postgresBinDir();
  private readonly user = serverUser();
  private readonly root: string;
  private readonly dataDir: string;
  private readonly logFile: string;
  private readonly forget: (() => void)[];

  private constructor(
    port: number,
    /** Its walreceiver's application_name, as the primary's pg_stat_replication shows it. */
    readonly name: string,
  ) {
    this.port = port;
    this.root = mkdtempSync(join(tmpdir(), 'wv-test-pg-standby-'));
    this.dataDir = join(this.root, 'data');
    this.logFile = join(this.root, 'server.log');
    // If the test process dies, the reaper stops the server and removes its files.
    this.forget = [reaper.command(...this.command('pg_ctl', this.stopArgs('immediate'))), reaper.directory(this.root)];
  }

  /** Copies `primary`, starts the copy and waits until the primary streams to it. */
  static async create(primary: PgCluster, name = 'wv_standby'): Promise<PgStandby> {
    const standby = new PgStandby(await freePort(), name);
    try {
      standby.backUp(primary);
      await standby.start();
      await until('the standby streaming', () => standby.isStreaming(primary), 30_000);
      return standby;
    } catch (error) {
      standby.destroy();
      throw error;
    }
  }

  urlFor(database: string): string {
    return `postgres://postgres@127.0.0.1:${this.port}/${database}`;
  }

  private command(cmd: string, args: string[]): [string, string[]] {
    const file = join(this.bin, cmd);
    return this.user ? ['runuser', ['-u', 'postgres', '--', file, ...args]] : [file, args];
  }

  private failure(cmd: string, args: string[], detail: unknown): Error {
    return new Error(`${cmd} ${args.join(' ')} failed: ${String(detail)}\n${this.logTail(2000)}`);
  }

  private runSync(cmd: string, args: string[]): void {
    const [file, argv] = this.command(cmd, args);
    const result = spawnSync(file, argv, { encoding: 'utf8', timeout: 120_000, cwd: this.root });
    if (result.status !== 0) throw this.failure(cmd, args, result.stderr || result.stdout || result.error);
  }

  private run(cmd: string, args: string[]): Promise<void> {
    const [file, argv] = this.command(cmd, args);
    return new Promise((resolve, reject) =>
      execFile(file, argv, { timeout: 60_000, cwd: this.root }, (error, stdout, stderr) =>
        error ? reject(this.failure(cmd, args, stderr || stdout || error)) : resolve(),
      ),
    );
  }

  private backUp(primary: PgCluster): void {
    if (this.user) chownSync(this.root, this.user.uid, this.user.gid);
    // -X stream: the WAL written during the copy comes along; -c fast: the checkpoint starts at once.
    this.runSync('pg_basebackup', [
      ...['-h', '127.0.0.1', '-p', String(primary.port), '-U', 'postgres'],
      ...['-D', this.dataDir, '-R', '-X', 'stream', '-c', 'fast', '--no-sync'],
    ]);
    // The copy carries the primary's postgresql.auto.conf; the last value of a setting wins.
    appendFileSync(
      join(this.dataDir, 'postgresql.auto.conf'),
      [
        '',
        `port = ${this.port}`,
        `unix_socket_directories = '${this.root}'`,
        `cluster_name = '${this.name}'`,
        'hot_standby = on',
        // Long reads (exports) are not cancelled by the primary's vacuum (docs/read-replica.md, "Setting up").
        'hot_standby_feedback = on',
        '',
      ].join('\n'),
    );
  }

  private stopArgs(mode: 'fast' | 'immediate'): string[] {
    return ['-D', this.dataDir, '-m', mode, '-w', '-t', '60', 'stop'];
  }

  async start(): Promise<void> {
    await this.run('pg_ctl', ['-D', this.dataDir, '-l', this.logFile, '-w', '-t', '60', 'start']);
  }

  async stop(mode: 'fast' | 'immediate' = 'fast'): Promise<void> {
    await this.run('pg_ctl', this.stopArgs(mode));
  }

  /** In recovery here, and streaming on the primary's side. */
  async isStreaming(primary: PgCluster): Promise<boolean> {
    const [recovery] = await this.query<{ standby: boolean }>('SELECT pg_is_in_recovery() AS standby');
    if (!recovery?.standby) return false;
    const senders = await primary.query<{ state: string }>(
      'SELECT state FROM pg_stat_replication WHERE application_name = $1',
      [this.name],
    );
    return senders.some((s) => s.state === 'streaming');
  }

  async query<T extends pg.QueryResultRow = Record<string, unknown>>(
    sql: string,
    params: unknown[] = [],
    database = 'postgres',
  ): Promise<T[]> {
    const client = new pg.Client({ connectionString: this.urlFor(database), connectionTimeoutMillis: 10_000 });
    client.on('error', () => undefined);
    await client.connect();
    try {
      return (await client.query<T>(sql, params)).rows;
    } finally {
      await client.end();
    }
  }

  logTail(chars = 3000): string {
    return existsSync(this.logFile) ? readFileSync(this.logFile, 'utf8').slice(-chars) : '';
  }

  /** The whole server log (the tests look for statements the standby refused). */
  log(): string {
    return existsSync(this.logFile) ? readFileSync(this.logFile, 'utf8') : '';
  }

  /** Stops the server (if up) and removes its directory. Safe to call twice. */
  destroy(): void {
    if (existsSync(join(this.dataDir, 'postmaster.pid'))) {
      try {
        this.runSync('pg_ctl', this.stopArgs('immediate'));
      } catch {
        // already down
      }
    }
    rmSync(this.root, { recursive: true, force: true });
    for (const forget of this.forget) forget();
  }
}

/** A primary (PgCluster, from the fault suite) and a streaming hot standby of it. */
export class PgReplicaPair {
  private constructor(
    readonly primary: PgCluster,
    readonly standby: PgStandby,
  ) {}

  static async create(): Promise<PgReplicaPair> {
    const primary = await PgCluster.create();
    try {
      return new PgReplicaPair(primary, await PgStandby.create(primary));
    } catch (error) {
      primary.destroy();
      throw error;
    }
  }

  /** Waits until the standby has replayed everything the primary had written when called. */
  async caughtUp(timeoutMs = 30_000): Promise<void> {
    const [{ lsn }] = (await this.primary.query<{ lsn: string }>('SELECT pg_current_wal_lsn()::text AS lsn')) as [
      { lsn: string },
    ];
    await until(
      `the standby replaying up to ${lsn}`,
      async () => {
        const [row] = await this.standby.query<{ done: boolean }>(
          'SELECT pg_last_wal_replay_lsn() >= $1::pg_lsn AS done',
          [lsn],
        );
        return row?.done === true;
      },
      timeoutMs,
    );
  }

  /** Stops applying WAL on the standby (it keeps receiving it): its data stays as it is now. */
  async pauseReplay(): Promise<void> {
    await this.standby.query('SELECT pg_wal_replay_pause()');
    await until(
      'replay paused',
      async () =>
        (await this.standby.query<{ state: string }>('SELECT pg_get_wal_replay_pause_state() AS state'))[0]?.state ===
        'paused',
      10_000,
    );
  }

  async resumeReplay(): Promise<void> {
    await this.standby.query('SELECT pg_wal_replay_resume()');
  }

  destroy(): void {
    this.standby.destroy();
    this.primary.destroy();
  }
}
