import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { reaper } from '../soak/reaper.js';
import { freePort } from './free-port.js';
import { startTracked } from './tracked-process.js';

export const HAPROXY = '/usr/sbin/haproxy';

/** Debian's haproxy package (2.6 on bookworm); false when this machine lacks it. */
export function haproxyAvailable(): boolean {
  return existsSync(HAPROXY);
}

/** One process behind the balancer: its name in haproxy.cfg and the port it listens on (127.0.0.1). */
export interface Backend {
  name: string;
  port: number;
}

export interface HaproxyBackends {
  /** The broker processes' MQTT_PORT. */
  mqtt: Backend[];
  /** The API processes' PORT (HTTP, Socket.IO). */
  http: Backend[];
}

/** One line of `show stat` for a server: its state and the sessions it holds now. */
export interface ServerStat {
  backend: string;
  server: string;
  /** UP, DOWN, "UP 1/3", MAINT … as HAProxy words it. */
  status: string;
  /** Current sessions: for MQTT the machines connected through it, for HTTP requests and WebSocket tunnels. */
  current: number;
  /** Sessions since start. */
  total: number;
}

/**
 * The haproxy.cfg of docs/scale-out.md, "The HAProxy configuration", for processes on 127.0.0.1: MQTT over TCP
 * to the brokers (leastconn, timeouts above the broker's keepalive limit) and HTTP with WebSocket to the API
 * processes (roundrobin; no stickiness needed, the web app's Socket.IO uses the WebSocket transport only).
 */
export function haproxyConfig(opts: {
  mqttPort: number;
  httpPort: number;
  statsSocket: string;
  backends: HaproxyBackends;
}): string {
  const { mqttPort, httpPort, statsSocket, backends } = opts;
  return [
    'global',
    // Two descriptors per connection: a test needs few; docs/scale-out.md sizes it for a fleet.
    '  maxconn 4096',
    '  nbthread 1',
    `  stats socket ${statsSocket} mode 600 level admin`,
    '',
    'defaults',
    '  timeout connect 2s',
    // A connection refused by a dead process is retried on another server at once (redispatch on every retry).
    '  retries 3',
    '  option redispatch 1',
    '',
    'frontend mqtt_in',
    '  mode tcp',
    `  bind 127.0.0.1:${mqttPort}`,
    // Longer than 1.5 × the largest keepalive the broker accepts (900 s): an idle machine is never cut by the balancer.
    '  timeout client 30m',
    '  default_backend brokers',
    '',
    'backend brokers',
    '  mode tcp',
    '  balance leastconn',
    '  timeout server 30m',
    // A TCP connect, like the Kubernetes readiness probe (deploy/kubernetes/broker.yaml). No shutdown-sessions: a
    // broker too busy to accept for a few seconds (a reconnect storm) must not have its machines thrown at the other.
    '  default-server check inter 2s fall 3 rise 2',
    ...backends.mqtt.map((b) => `  server ${b.name} 127.0.0.1:${b.port}`),
    '',
    'frontend http_in',
    '  mode http',
    `  bind 127.0.0.1:${httpPort}`,
    '  timeout client 60s',
    '  timeout http-request 10s',
    '  default_backend api',
    '',
    'backend api',
    '  mode http',
    '  balance roundrobin',
    '  option httpchk',
    '  http-check send meth GET uri /api/health/live',
    '  http-check expect status 200',
    '  timeout server 60s',
    // After the 101 of a WebSocket upgrade (Socket.IO) the tunnel timeout applies; Socket.IO pings every 25 s.
    '  timeout tunnel 1h',
    // A hung API process fails the check: its browsers' sockets are closed and reconnect to another one.
    '  default-server check inter 2s fall 2 rise 2 on-marked-down shutdown-sessions',
    ...backends.http.map((b) => `  server ${b.name} 127.0.0.1:${b.port}`),
    '',
  ].join('\n');
}

function accepts(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect({ port, host: '127.0.0.1' });
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });
}

/**
 * HAProxy run by a test: `haproxy -f haproxy.cfg -db` as a child in the foreground, on two free ports, with an
 * admin socket for `show stat`. Registered with the reaper, so it dies with the test.
 */
export class HaproxyInstance {
  private child?: ChildProcess;
  private exited?: Promise<void>;
  private log: () => string = () => '';
  private readonly forgetDir: () => void;
  readonly configText: string;

  private constructor(
    readonly mqttPort: number,
    readonly httpPort: number,
    private readonly dir: string,
    backends: HaproxyBackends,
  ) {
    this.forgetDir = reaper.directory(dir);
    this.configText = haproxyConfig({ mqttPort, httpPort, statsSocket: this.statsSocket, backends });
    writeFileSync(this.configFile, this.configText);
  }

  static async create(backends: HaproxyBackends): Promise<HaproxyInstance> {
    if (!haproxyAvailable()) throw new Error(`${HAPROXY} is missing (apt-get install haproxy)`);
    const mqttPort = await freePort();
    let httpPort = await freePort();
    while (httpPort === mqttPort) httpPort = await freePort();
    const instance = new HaproxyInstance(mqttPort, httpPort, mkdtempSync(join(tmpdir(), 'wv-haproxy-')), backends);
    try {
      await instance.start();
      return instance;
    } catch (error) {
      await instance.destroy();
      throw error;
    }
  }

  get configFile(): string {
    return join(this.dir, 'haproxy.cfg');
  }

  get statsSocket(): string {
    return join(this.dir, 'admin.sock');
  }

  get httpUrl(): string {
    return `http://127.0.0.1:${this.httpPort}`;
  }

  /** What HAProxy printed (warnings and alerts; it has no log target here). */
  output(): string {
    return this.log();
  }

  private async start(): Promise<void> {
    const check = spawn(HAPROXY, ['-c', '-f', this.configFile], { stdio: ['ignore', 'pipe', 'pipe'] });
    let checked = '';
    check.stdout!.on('data', (c: Buffer) => (checked += c.toString()));
    check.stderr!.on('data', (c: Buffer) => (checked += c.toString()));
    const code = await new Promise<number | null>((resolve) => check.once('exit', resolve));
    if (code !== 0) throw new Error(`haproxy refused its configuration:\n${checked}\n${this.configText}`);

    const started = await startTracked(
      'haproxy',
      HAPROXY,
      ['-f', this.configFile, '-db'],
      async () => (await accepts(this.mqttPort)) && (await accepts(this.httpPort)) && (await this.allUp()),
    );
    this.child = started.child;
    this.exited = started.exited;
    this.log = started.output;
  }

  private async allUp(): Promise<boolean> {
    try {
      return (await this.stats()).every((s) => s.status === 'UP');
    } catch {
      return false;
    }
  }

  /** One command on the admin socket (HAProxy management guide, "Unix Socket commands"); the answer as text. */
  command(line: string): Promise<string> {
    return new Promise((resolve, reject) => {
      const socket = connect(this.statsSocket);
      let answer = '';
      socket.setEncoding('utf8');
      socket.once('connect', () => socket.write(`${line}\n`));
      socket.on('data', (chunk: string) => (answer += chunk));
      socket.once('error', reject);
      socket.once('close', () => resolve(answer));
    });
  }

  /** `show stat` for the servers (not the frontends and backends themselves). */
  async stats(): Promise<ServerStat[]> {
    const csv = (await this.command('show stat')).trim().split('\n');
    const header = csv[0]!.replace(/^# /, '').split(',');
    const column = (name: string) => header.indexOf(name);
    const [px, sv, status, scur, stot] = ['pxname', 'svname', 'status', 'scur', 'stot'].map(column);
    return csv
      .slice(1)
      .map((line) => line.split(','))
      .filter((f) => f[sv!] !== 'FRONTEND' && f[sv!] !== 'BACKEND')
      .map((f) => ({
        backend: f[px!]!,
        server: f[sv!]!,
        status: f[status!]!,
        current: Number(f[scur!]),
        total: Number(f[stot!]),
      }));
  }

  /** The stats of one server of one backend. */
  async server(backend: string, server: string): Promise<ServerStat> {
    const found = (await this.stats()).find((s) => s.backend === backend && s.server === server);
    if (!found) throw new Error(`haproxy has no server ${backend}/${server}`);
    return found;
  }

  async stop(): Promise<void> {
    const child = this.child;
    if (!child) return;
    this.child = undefined;
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
    await this.exited;
  }

  async destroy(): Promise<void> {
    await this.stop();
    rmSync(this.dir, { recursive: true, force: true });
    this.forgetDir();
  }
}
