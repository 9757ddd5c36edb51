import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { Redis } from 'ioredis';
import { SHARED_COUNTERS } from '../../src/counters/shared-counters.js';
import { BrokerService } from '../../src/device-bridge/broker.service.js';
import { DomainEvents } from '../../src/events/domain-events.js';
import { MachineStatusService } from '../../src/device-bridge/machine-status.service.js';
import { provisionDevice } from '../factories/fleet.factory.js';
import { createTestApp, TEST_ADMIN, type TestApp } from '../support/test-app.js';
import { TEST_REDIS_URL } from '../support/test-databases.js';

describe('machine status', () => {
  let t: TestApp;
  let admin: string;
  beforeAll(async () => {
    t = await createTestApp();
    admin = await t.http.login(TEST_ADMIN.email, TEST_ADMIN.password);
  });
  afterAll(() => t.close());

  it('emits one machine.status per change, however many reports of it arrive at once', async () => {
    const { espId } = await provisionDevice(t.http, admin);
    const status = t.running.app.get(MachineStatusService);
    const seen: boolean[] = [];
    const off = t.running.app.get(DomainEvents).on('machine.status', (e) => {
      if (e.espId === espId) seen.push(e.online);
    });
    try {
      // A connect and the retained status message report "online" at the same moment.
      await Promise.all(Array.from({ length: 8 }, () => status.set(espId, true)));
      await Promise.all(Array.from({ length: 8 }, () => status.set(espId, false)));
      await status.set(espId, true, { firmware: '2.1.0' });
      await status.set(espId, true);
      expect(seen).toEqual([true, false, true]);
      const [device] = await t.dataSource.query(`SELECT online, firmware FROM devices WHERE esp_id = $1`, [espId]);
      expect(device).toEqual({ online: true, firmware: '2.1.0' });
    } finally {
      off();
    }
  });

  it('an offline report from a broker process that no longer holds the machine changes nothing', async () => {
    const { espId } = await provisionDevice(t.http, admin);
    const status = t.running.app.get(MachineStatusService);
    const online = async () =>
      (await t.dataSource.query(`SELECT online, online_via FROM devices WHERE esp_id = $1`, [espId]))[0];
    await status.set(espId, true, { via: 'broker-a' });
    // The machine reconnected through broker B before broker A noticed that its old connection died.
    await status.set(espId, true, { via: 'broker-b' });
    await status.set(espId, false, { via: 'broker-a' });
    expect(await online()).toEqual({ online: true, online_via: 'broker-b' });
    await status.set(espId, false, { via: 'broker-b' });
    expect(await online()).toEqual({ online: false, online_via: null });
  });

  it('marks offline the machines of broker processes that are gone, and only those (docs/scale-out.md)', async () => {
    const [kept, orphaned, unknown] = await Promise.all([1, 2, 3].map(() => provisionDevice(t.http, admin)));
    const status = t.running.app.get(MachineStatusService);
    await status.set(kept.espId, true, { via: 'live-broker' });
    await status.set(orphaned.espId, true, { via: 'killed-broker' });
    await status.set(unknown.espId, true);
    const redis = new Redis(TEST_REDIS_URL, { keyPrefix: `${t.config.redisPrefix}:` });
    try {
      const key = SHARED_COUNTERS.brokerConnected;
      await redis.hset(key, 'live-broker', JSON.stringify({ connected: 1, at: Date.now() }));
      await redis.hset(key, 'killed-broker', JSON.stringify({ connected: 1, at: Date.now() - 10 * 60_000 }));
      const offline: string[] = [];
      const off = t.running.app.get(DomainEvents).on('machine.status', (e) => {
        if (!e.online && [kept.espId, orphaned.espId, unknown.espId].includes(e.espId)) offline.push(e.espId);
      });
      // What a broker process does at its start and then every 15 s.
      await (t.running.app.get(BrokerService) as unknown as { sweepOrphans(): Promise<void> }).sweepOrphans();
      off();
      const rows: { esp_id: string; online: boolean }[] = await t.dataSource.query(
        `SELECT esp_id, online FROM devices WHERE esp_id = ANY($1) ORDER BY esp_id`,
        [[kept.espId, orphaned.espId, unknown.espId]],
      );
      expect(Object.fromEntries(rows.map((r) => [r.esp_id, r.online]))).toEqual({
        [kept.espId]: true,
        [orphaned.espId]: false,
        [unknown.espId]: false,
      });
      expect(offline.sort()).toEqual([orphaned.espId, unknown.espId].sort());
      // The silent process is forgotten, also by /api/metrics' count of connected machines.
      expect(await redis.hexists(key, 'killed-broker')).toBe(0);
      expect(await redis.hexists(key, 'live-broker')).toBe(1);
    } finally {
      await redis.quit();
    }
  });
});
