// Checks, before any test runs, that the machine has what the tests need, and says in one line what
// to run when it does not: PostgreSQL and Redis (integration, abuse and browser tests) and Debian's
// Chromium (browser tests). Chromium is installed here when we are root on Debian or Ubuntu, since
// the browser tests never download a browser of their own.
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { connect } from 'node:net';

const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

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
  if (browser && !existsSync(CHROMIUM)) installChromium();
  if (browser && !existsSync(CHROMIUM))
    problems.push(
      `Chromium is missing at ${CHROMIUM}, which the browser tests drive: install it with ` +
        '`sudo apt-get install -y chromium` (or set CHROMIUM_PATH), then run the tests again.',
    );
  return problems;
}

function installChromium() {
  const root = typeof process.getuid === 'function' && process.getuid() === 0;
  if (!root || !existsSync('/usr/bin/apt-get') || process.env.CHROMIUM_PATH) return;
  console.log("Installing Debian's Chromium for the browser tests (apt-get install chromium)…");
  const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
  spawnSync('apt-get', ['update', '-qq'], { stdio: 'ignore', env });
  spawnSync('apt-get', ['install', '-y', '-qq', 'chromium'], { stdio: 'ignore', env });
}
