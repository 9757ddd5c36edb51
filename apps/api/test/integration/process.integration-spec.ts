import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { spawnSync } from 'node:child_process';
import { createServer } from 'node:net';
import { fileURLToPath } from 'node:url';
import { startServer, type RunningServer } from '../support/server-process.js';

const MAIN = fileURLToPath(new URL('../../dist/main.js', import.meta.url));

/** Runs the built program the way `npm start` does and checks its start-up failures are one clear line. */
function runMain(env: Record<string, string>) {
  const result = spawnSync(process.execPath, [MAIN], {
    env: { PATH: process.env.PATH ?? '', NO_COLOR: '1', ...env },
    encoding: 'utf8',
    timeout: 20_000,
  });
  return { code: result.status, stderr: result.stderr.trim(), stdout: result.stdout };
}

describe('the program as a process', () => {
  let server: RunningServer;
  beforeAll(async () => {
    server = await startServer();
  }, 60_000);
  afterAll(() => server?.stop());

  it('serves the API and the web app with an index.html fallback for deep links', async () => {
    const health = await fetch(`${server.baseUrl}/api/health`);
    expect(health.status).toBe(200);
    const deep = await fetch(`${server.baseUrl}/manager/attendant/register`);
    expect(deep.status).toBe(200);
    expect(deep.headers.get('content-type')).toMatch(/text\/html/);
    // The server's time zone and currency travel to the web app in the page.
    expect(await deep.text()).toContain(
      '<meta name="wv-timezone" content="Africa/Dar_es_Salaam"><meta name="wv-currency" content="TZS">',
    );
    const unknownApi = await fetch(`${server.baseUrl}/api/no-such-thing`);
    expect(unknownApi.status).toBe(404);
    expect(await unknownApi.json()).toMatchObject({ statusCode: 404, code: 'NotFound' });
  });

  it('ends start-up with one line naming the variable when a port is taken', async () => {
    const blocker = createServer();
    await new Promise<void>((resolve) => blocker.listen(0, '0.0.0.0', resolve));
    const port = (blocker.address() as { port: number }).port;
    const result = runMain({
      PORT: String(port),
      MQTT_PORT: '0',
      DATABASE_URL: server.databaseUrl,
      REDIS_PREFIX: server.redisPrefix,
    });
    blocker.close();
    expect(result.code).toBe(1);
    expect(result.stderr).toBe(`Cannot start: Port ${port} is taken. Set PORT to a free port.`);
  });

  it.each([
    [{ PORT: 'abc' }, /^Cannot start: Invalid PORT: .*Change PORT and start again\.$/],
    [{ APP_TIMEZONE: 'Mars/Olympus' }, /^Cannot start: Invalid APP_TIMEZONE: .*Change APP_TIMEZONE/],
    [{ NODE_ENV: 'production' }, /^Cannot start: JWT_SECRET is required when NODE_ENV=production/],
    [
      { DATABASE_URL: 'postgres://postgres@127.0.0.1:1/x' },
      /^Cannot start: Cannot reach PostgreSQL at .*Check DATABASE_URL\.$/,
    ],
    [{ REDIS_URL: 'redis://127.0.0.1:1' }, /^Cannot start: Cannot reach Redis at .*Check REDIS_URL\.$/],
  ])('refuses %p with one clear line', (env, expected) => {
    const result = runMain({
      PORT: '0',
      MQTT_PORT: '0',
      DATABASE_URL: server.databaseUrl,
      REDIS_PREFIX: server.redisPrefix,
      ...env,
    });
    expect(result.code).toBe(1);
    expect(result.stderr.split('\n')).toHaveLength(1);
    expect(result.stderr).toMatch(expected);
  });
});
