import { afterAll, beforeAll, describe, expect, it, jest } from '@jest/globals';
import { AlarmSweepService } from '../../src/alarm/alarm-sweep.service.js';
import { startApp, type RunningApp } from '../../src/bootstrap.js';
import { loadConfig } from '../../src/config/app-config.js';
import { createManager } from '../factories/fleet.factory.js';
import { waitFor } from '../support/mqtt-machine.js';
import { createTestApp, TEST_ADMIN, type TestApp } from '../support/test-app.js';

/**
 * The sweep runs by itself (docs/alarms.md, "The sweep"): a BullMQ job scheduler that every worker
 * process upserts ticks it, with two worker processes on one database and Redis.
 */
describe('the scheduled alarm sweep', () => {
  let t: TestApp;
  let second: RunningApp;
  let admin: string;

  beforeAll(async () => {
    t = await createTestApp({ ALARM_SWEEP_INTERVAL_MS: '1000' });
    second = await startApp(
      loadConfig({
        PORT: '0',
        MQTT_PORT: '0',
        DATABASE_URL: t.config.databaseUrl,
        REDIS_URL: t.config.redisUrl,
        REDIS_PREFIX: t.config.redisPrefix,
        JWT_SECRET: t.config.jwt.secret,
        APP_ROLES: 'worker',
        LOG_LEVEL: 'error',
        ALARM_SWEEP_INTERVAL_MS: '1000',
      }),
    );
    admin = await t.http.login(TEST_ADMIN.email, TEST_ADMIN.password);
  }, 120_000);
  afterAll(async () => {
    await second?.close();
    await t.close();
  });

  it('opens an offline alarm without anyone running the sweep, once, and keeps ticking', async () => {
    const manager = await createManager(t.http, admin, 1);
    const { espId } = manager.devices[0]!;
    const sweeps = [
      jest.spyOn(t.running.app.get(AlarmSweepService), 'sweep'),
      jest.spyOn(second.app.get(AlarmSweepService), 'sweep'),
    ];
    await t.dataSource.query(
      `UPDATE devices SET online = false, last_seen_at = now() - interval '30 minutes' WHERE esp_id = $1`,
      [espId],
    );
    await waitFor(
      () => t.http.get(`/alarms?machineId=${espId}`, { token: manager.token }),
      (res) => res.body.total === 1,
      30_000,
    );
    const ticks = () => sweeps.reduce((n, s) => n + s.mock.calls.length, 0);
    const seen = ticks();
    await waitFor(
      async () => ticks(),
      (n) => n >= seen + 3,
      30_000,
    );
    const all = await t.http.get(`/alarms?machineId=${espId}&status=all`, { token: manager.token });
    expect(all.body).toMatchObject({ total: 1, data: [{ kind: 'offline', status: 'open' }] });
  });
});
