import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { DomainEvents } from '../../src/events/domain-events.js';
import { MachineStatusService } from '../../src/device-bridge/machine-status.service.js';
import { provisionDevice } from '../factories/fleet.factory.js';
import { createTestApp, TEST_ADMIN, type TestApp } from '../support/test-app.js';

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
});
