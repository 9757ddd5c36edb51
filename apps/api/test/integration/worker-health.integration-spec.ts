import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { startApp, type RunningApp } from '../../src/bootstrap.js';
import { ConfigError } from '../../src/config/app-config.js';
import { freePort } from '../support/free-port.js';
import { createTestApp, type TestApp } from '../support/test-app.js';

/**
 * A worker-only process answers the orchestrator's probes on HEALTH_PORT (docs/operations.md, "Kubernetes"), and
 * nothing else: it is not a second door into the API.
 */
describe('health probes of a worker-only process', () => {
  let t: TestApp;
  let worker: RunningApp;
  let base: string;

  beforeAll(async () => {
    t = await createTestApp({ APP_ROLES: 'api,broker' });
    const healthPort = await freePort();
    worker = await startApp({ ...t.config, port: 0, healthPort, roles: new Set(['worker']) });
    base = `http://127.0.0.1:${healthPort}`;
  });
  afterAll(async () => {
    await worker?.close();
    await t.close();
  });

  it('answers liveness and readiness (PostgreSQL and Redis up, no broker in this process)', async () => {
    const live = await fetch(`${base}/api/health/live`);
    expect(live.status).toBe(200);
    expect(await live.json()).toEqual({ status: 'ok' });
    const ready = await fetch(`${base}/api/health`);
    expect(ready.status).toBe(200);
    expect(await ready.json()).toEqual({ status: 'ok', db: 'up', redis: 'up', mqtt: 'disabled' });
  });

  it('serves nothing but the probes: other paths are 404, other methods 405', async () => {
    for (const path of ['/api/auth/login', '/api/machines', '/api/metrics', '/', '/api/health/../auth/login']) {
      const res = await fetch(`${base}${path}`);
      expect(res.status).toBe(404);
    }
    const post = await fetch(`${base}/api/health`, { method: 'POST', body: '{}' });
    expect(post.status).toBe(405);
    expect(post.headers.get('allow')).toBe('GET, HEAD');
  });

  it('refuses to start on a taken HEALTH_PORT with one line naming it', async () => {
    const taken = Number(new URL(base).port);
    await expect(startApp({ ...t.config, port: 0, healthPort: taken, roles: new Set(['worker']) })).rejects.toThrow(
      new ConfigError(`Port ${taken} is taken. Set HEALTH_PORT to a free port.`),
    );
  });
});
