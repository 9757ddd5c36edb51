// Checks, before any test runs, that the machine has what the tests need, and says in one line what
// to run when it does not: PostgreSQL and Redis (integration, abuse and browser tests), Debian's
// Mosquitto and HAProxy (the external-broker and scale-out tests start their own instances) and
// Debian's Chromium (browser tests). Missing packages are installed here when we are root on Debian
// or Ubuntu, since the tests never download a program of their own.
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { connect } from 'node:net';

const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

/** The Debian packages the tests run as processes: the file each provides, and which tests need it. */
function programs({ services, browser }) {
  return [
    browser && { file: CHROMIUM, pkg: 'chromium', by: 'the browser tests drive', or: ' (or set CHROMIUM_PATH)' },
    services && { file: '/usr/sbin/mosquitto', pkg: 'mosquitto', by: 'the external-broker tests start', or: '' },
    services && { file: '/usr/sbin/haproxy', pkg: 'haproxy', by: 'the scale-out test starts', or: '' },
  ].filter(Boolean);
}

function reachable(url, fallbackPort) {
  const { hostname, port } = new URL(url);
  return new Promise((resolve) => {
    const socket = connect({ host: hostname || 'localhost', port: Number(port || fallbackPort) });
    const done = (ok) => {
      socket.destroy();
      resolve(ok);
    };
    socket.setTimeout(3000, () => done(false));
    socket.once('connect', () => done(true));
    socket.once('error', () => done(false));
  });
}

/** Resolves to a list of problems, one line each; empty when the machine is ready. */
export async function preflight({ services, browser }) {
  const problems = [];
  if (services) {
    const pg = process.env.TEST_PG_URL ?? 'postgres://postgres@localhost:5432/postgres';
    if (!(await reachable(pg, 5432)))
      problems.push(
        `PostgreSQL is not reachable at ${new URL(pg).host}: start it with ` +
          '`sudo pg_ctlcluster $(ls /etc/postgresql) main start` (or `docker compose up -d postgres`), or set TEST_PG_URL.',
      );
    const redis = process.env.TEST_REDIS_URL ?? 'redis://localhost:6379';
    if (!(await reachable(redis, 6379)))
      problems.push(
        `Redis is not reachable at ${new URL(redis).host}: start it with ` +
          '`redis-server --daemonize yes` (or `docker compose up -d redis`), or set TEST_REDIS_URL.',
      );
  }
  const needed = programs({ services, browser });
  installMissing(needed.filter((p) => !existsSync(p.file)));
  for (const p of needed.filter((p) => !existsSync(p.file)))
    problems.push(
      `${p.file} is missing, which ${p.by}: install it with \`sudo apt-get install -y ${p.pkg}\`${p.or}, ` +
        'then run the tests again.',
    );
  return problems;
}

function installMissing(missing) {
  const root = typeof process.getuid === 'function' && process.getuid() === 0;
  // A CHROMIUM_PATH of one's own is not replaced by Debian's package.
  const packages = missing.filter((p) => p.file !== process.env.CHROMIUM_PATH).map((p) => p.pkg);
  if (!root || !existsSync('/usr/bin/apt-get') || packages.length === 0) return;
  console.log(`Installing Debian's ${packages.join(', ')} for the tests (apt-get install ${packages.join(' ')})…`);
  const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
  spawnSync('apt-get', ['update', '-qq'], { stdio: 'ignore', env });
  spawnSync('apt-get', ['install', '-y', '-qq', ...packages], { stdio: 'ignore', env });
}
