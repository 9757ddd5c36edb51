import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { connect } from 'node:net';
import { fileURLToPath } from 'node:url';

/** docker-compose.yml at the repository's root, next to which `npm run demo` runs. */
const COMPOSE_FILE = fileURLToPath(new URL('../../../docker-compose.yml', import.meta.url));
const WAIT_MS = 120_000;

interface Service {
  /** The name of its service in docker-compose.yml. */
  compose: 'postgres' | 'redis';
  label: string;
  url: string;
  defaultPort: number;
  variable: string;
  /** How to start it without Docker (Debian/Ubuntu packages). */
  local: string;
}

/**
 * PostgreSQL and Redis for the demo: when one is unreachable on this machine and Docker Compose works,
 * the missing ones are started with `docker compose up -d postgres redis` (docker-compose.yml) and
 * waited for until healthy; without Docker each missing one is named, one line each, with the command
 * that starts it (as scripts/preflight.mjs does for the tests). Answers false when the demo cannot go on.
 */
export async function ensureServices(env: Record<string, string | undefined>): Promise<boolean> {
  const services: Service[] = [
    {
      compose: 'postgres',
      label: 'PostgreSQL',
      url: env.DATABASE_URL!,
      defaultPort: 5432,
      variable: 'DATABASE_URL',
      local: 'sudo pg_ctlcluster $(ls /etc/postgresql) main start',
    },
    {
      compose: 'redis',
      label: 'Redis',
      url: env.REDIS_URL ?? 'redis://localhost:6379',
      defaultPort: 6379,
      variable: 'REDIS_URL',
      local: 'redis-server --daemonize yes --appendonly yes',
    },
  ];
  const missing: Service[] = [];
  for (const s of services) if (!(await reachable(s.url, s.defaultPort))) missing.push(s);
  if (missing.length === 0) return true;

  // Docker can stand in only for services expected where the compose file publishes them.
  const local = missing.every((s) => isPublishedByCompose(s.url, s.defaultPort));
  const compose = local && existsSync(COMPOSE_FILE) ? findCompose() : undefined;
  if (compose) {
    const names = missing.map((s) => s.compose);
    const labels = missing.map((s) => s.label).join(' and ');
    console.log(
      `${labels} ${missing.length > 1 ? 'are' : 'is'} not running: starting ${missing.length > 1 ? 'them' : 'it'} ` +
        `with \`${[...compose, 'up', '-d', ...names].join(' ')}\` (docker-compose.yml)…`,
    );
    const reason = (await startWithCompose(compose, names)) ?? (await waitFor(missing));
    if (!reason) return true;
    console.error(`Docker could not start ${names.join(' and ')}: ${reason}`);
  }
  for (const s of missing) {
    const { host } = new URL(s.url);
    console.error(
      `${s.label} is not reachable at ${host || 'localhost'}: start it with \`${s.local}\` ` +
        `(or \`docker compose up -d ${s.compose}\`), or set ${s.variable}.`,
    );
  }
  return false;
}

/** The Compose command that works here: the `docker compose` plugin, else the older `docker-compose`. */
function findCompose(): string[] | undefined {
  for (const command of [['docker', 'compose'], ['docker-compose']]) {
    const probe = spawnSync(command[0]!, [...command.slice(1), 'version'], { stdio: 'ignore', timeout: 10_000 });
    if (probe.status === 0) return command;
  }
  return undefined;
}

/** docker-compose.yml publishes PostgreSQL and Redis on this machine's loopback, at their usual ports. */
function isPublishedByCompose(url: string, defaultPort: number): boolean {
  const { hostname, port } = new URL(url);
  const local = ['', 'localhost', '127.0.0.1', '[::1]'].includes(hostname);
  return local && Number(port || defaultPort) === defaultPort;
}

/** Runs `up -d` for the services and waits until Docker reports them healthy; answers why not, if not. */
async function startWithCompose(compose: string[], names: string[]): Promise<string | undefined> {
  const run = (args: string[]) =>
    spawnSync(compose[0]!, [...compose.slice(1), '-f', COMPOSE_FILE, ...args], {
      stdio: ['ignore', 'pipe', 'pipe'],
      encoding: 'utf8',
      timeout: WAIT_MS,
    });
  const lastLine = (r: ReturnType<typeof run>) =>
    (r.stderr ?? '').trim().split('\n').pop() || r.error?.message || `exit code ${r.status}`;
  const up = run(['up', '-d', ...names]);
  if (up.status !== 0) return lastLine(up);
  // The compose file's healthchecks say when PostgreSQL accepts connections and Redis answers.
  const deadline = Date.now() + WAIT_MS;
  for (const name of names) {
    const id = run(['ps', '-q', name]).stdout?.trim();
    if (!id) return `no container for ${name}`;
    for (;;) {
      const health = spawnSync('docker', ['inspect', '--format', '{{.State.Health.Status}}', id], { encoding: 'utf8' });
      if (health.stdout?.trim() === 'healthy') break;
      if (Date.now() > deadline) return `${name} is not healthy after ${WAIT_MS / 1000} s`;
      await new Promise((resolve) => setTimeout(resolve, 1000));
    }
  }
  return undefined;
}

/** Answers undefined once every service takes connections on its URL's port, else why not. */
async function waitFor(services: Service[]): Promise<string | undefined> {
  const deadline = Date.now() + WAIT_MS;
  for (const s of services) {
    while (!(await reachable(s.url, s.defaultPort))) {
      if (Date.now() > deadline) return `${s.label} is not reachable after ${WAIT_MS / 1000} s`;
      await new Promise((resolve) => setTimeout(resolve, 500));
    }
  }
  return undefined;
}

function reachable(url: string, defaultPort: number): Promise<boolean> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve) => {
    const socket = connect({
      host: hostname.replace(/^\[|\]$/g, '') || 'localhost',
      port: Number(port || defaultPort),
    });
    const done = (ok: boolean) => {
      socket.destroy();
      resolve(ok);
    };
    socket.setTimeout(3000, () => done(false));
    socket.once('connect', () => done(true));
    socket.once('error', () => done(false));
  });
}
