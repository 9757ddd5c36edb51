import { execFile, execFileSync, spawnSync } from 'node:child_process';
import {
  chownSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { reaper } from './reaper.js';
import { freePort } from '../support/free-port.js';

/** Debian's PostgreSQL binaries (`postgresql-NN`), the newest installed version. */
function postgresBinDir(): string {
  const root = '/usr/lib/postgresql';
  const versions = existsSync(root)
    ? readdirSync(root)
        .filter((v) => existsSync(join(root, v, 'bin', 'initdb')))
        .sort((a, b) => Number(b) - Number(a))
    : [];
  if (!versions.length)
    throw new Error('no PostgreSQL server binaries in /usr/lib/postgresql/*/bin (postgresql package)');
  return join(root, versions[0]!, 'bin');
}

/**
 * PostgreSQL refuses to run as root: as root every server command runs as the `postgres` user
 * (runuser, from util-linux), and the cluster's directory belongs to that user.
 */
function serverUser(): { uid: number; gid: number; wrap: (cmd: string, args: string[]) => [string, string[]] } | null {
  if (process.getuid?.() !== 0) return null;
  const uid = Number(execFileSync('id', ['-u', 'postgres'], { encoding: 'utf8' }).trim());
  const gid = Number(execFileSync('id', ['-g', 'postgres'], { encoding: 'utf8' }).trim());
  return { uid, gid, wrap: (cmd, args) => ['runuser', ['-u', 'postgres', '--', cmd, ...args]] };
}

/**
 * A throw-away PostgreSQL cluster that the soak can stop and start at will: initdb into a temporary
 * directory, trust authentication on 127.0.0.1 and a private socket directory, a free port.
 * fsync is off: it only protects against a crash of the machine, never of a process, so every
 * fault the soak injects (server stop, immediate shutdown, killed clients) behaves as in production.
 */
export class PgCluster {
  readonly port: number;
  private readonly bin = postgresBinDir();
  private readonly user = serverUser();
  private readonly root: string;
  private readonly dataDir: string;
  private readonly logFile: string;
  private running = false;
  private readonly forget: (() => void)[];

  private constructor(port: number) {
    this.port = port;
    this.root = mkdtempSync(join(tmpdir(), 'wv-soak-pg-'));
    this.dataDir = join(this.root, 'data');
    this.logFile = join(this.root, 'server.log');
    // If the soak dies, the reaper stops the server (an immediate shutdown) and removes its files.
    this.forget = [reaper.command(...this.command('pg_ctl', this.stopArgs('immediate'))), reaper.directory(this.root)];
  }

  static async create(): Promise<PgCluster> {
    const cluster = new PgCluster(await freePort());
    try {
      cluster.init();
      await cluster.start();
      return cluster;
    } catch (error) {
      cluster.destroy();
      throw error;
    }
  }

  get url(): string {
    return this.urlFor('postgres');
  }

  urlFor(database: string, port = this.port): string {
    return `postgres://postgres@127.0.0.1:${port}/${database}`;
  }

  get isRunning(): boolean {
    return this.running;
  }

  private command(cmd: string, args: string[]): [string, string[]] {
    return this.user ? this.user.wrap(join(this.bin, cmd), args) : [join(this.bin, cmd), args];
  }

  private failure(cmd: string, args: string[], detail: unknown): Error {
    return new Error(`${cmd} ${args.join(' ')} failed: ${String(detail)}\n${this.logTail(2000)}`);
  }

  /** Blocks: only for set-up and clean-up. */
  private runSync(cmd: string, args: string[]): void {
    const [file, argv] = this.command(cmd, args);
    const result = spawnSync(file, argv, { encoding: 'utf8', timeout: 60_000, cwd: this.root });
    if (result.status !== 0) throw this.failure(cmd, args, result.stderr || result.stdout || result.error);
  }

  /** Does not block the event loop: the fleet and the probes keep running while the server stops or starts. */
  private run(cmd: string, args: string[]): Promise<void> {
    const [file, argv] = this.command(cmd, args);
    return new Promise((resolve, reject) =>
      execFile(file, argv, { timeout: 60_000, cwd: this.root }, (error, stdout, stderr) =>
        error ? reject(this.failure(cmd, args, stderr || stdout || error)) : resolve(),
      ),
    );
  }

  private init(): void {
    mkdirSync(this.dataDir);
    if (this.user) {
      chownSync(this.root, this.user.uid, this.user.gid);
      chownSync(this.dataDir, this.user.uid, this.user.gid);
    }
    this.runSync('initdb', ['-D', this.dataDir, '-U', 'postgres', '-A', 'trust', '-E', 'UTF8', '--no-sync']);
    writeFileSync(
      join(this.dataDir, 'postgresql.auto.conf'),
      [
        `port = ${this.port}`,
        `listen_addresses = '127.0.0.1'`,
        `unix_socket_directories = '${this.root}'`,
        'fsync = off',
        'full_page_writes = off',
        'max_connections = 200',
        'shared_buffers = 128MB',
        `log_min_messages = warning`,
        '',
      ].join('\n'),
    );
    if (this.user) chownSync(join(this.dataDir, 'postgresql.auto.conf'), this.user.uid, this.user.gid);
  }

  private startArgs(): string[] {
    return ['-D', this.dataDir, '-l', this.logFile, '-w', '-t', '60', 'start'];
  }

  private stopArgs(mode: 'fast' | 'immediate'): string[] {
    return ['-D', this.dataDir, '-m', mode, '-w', '-t', '60', 'stop'];
  }

  /** Starts the server and waits until it accepts connections. */
  async start(): Promise<void> {
    await this.run('pg_ctl', this.startArgs());
    this.running = true;
  }

  /** `fast` ends sessions cleanly; `immediate` is a crash of the server (recovery on the next start). */
  async stop(mode: 'fast' | 'immediate'): Promise<void> {
    this.running = false;
    await this.run('pg_ctl', this.stopArgs(mode));
  }

  async query<T extends pg.QueryResultRow = any>(sql: string, params: unknown[] = [], database = 'postgres') {
    const client = new pg.Client({ connectionString: this.urlFor(database), connectionTimeoutMillis: 10_000 });
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

  /** Stops the server (if up) and removes the cluster's directory. Safe to call twice. */
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
