import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import {
  createAttendant,
  createManager,
  personFields,
  provisionDevice,
  randomMac,
} from '../factories/fleet.factory.js';
import { createTestApp, TEST_ADMIN, type TestApp } from '../support/test-app.js';

type Caller = 'anonymous' | 'attendant' | 'ownManager' | 'otherManager' | 'admin';
const CALLERS: Caller[] = ['anonymous', 'attendant', 'ownManager', 'otherManager', 'admin'];

/**
 * Walks every foundation endpoint as anonymous, attendant, own manager, other manager and admin,
 * asserting the status and that no other tenant's data appears (docs/rest-api.md, "Roles and scope").
 */
describe('roles and tenant scope', () => {
  let t: TestApp;
  let tokens: Record<Caller, string | undefined>;
  let managerA: Awaited<ReturnType<typeof createManager>>;
  let managerB: Awaited<ReturnType<typeof createManager>>;
  let attendantA: Awaited<ReturnType<typeof createAttendant>>;
  let unowned: Awaited<ReturnType<typeof provisionDevice>>;

  const call = (caller: Caller, method: string, path: string, body?: unknown) =>
    t.http.request(method, path, { token: tokens[caller], body });

  /** Asserts the status per caller; returns the bodies for further checks. */
  async function expectStatuses(method: string, path: string, expected: Record<Caller, number>, body?: unknown) {
    const bodies: Partial<Record<Caller, unknown>> = {};
    for (const caller of CALLERS) {
      const res = await call(caller, method, path, typeof body === 'function' ? body() : body);
      expect({ caller, status: res.status }).toEqual({ caller, status: expected[caller] });
      if (res.status >= 400)
        expect(res.body).toMatchObject({
          statusCode: res.status,
          code: expect.any(String),
          message: expect.any(String),
        });
      bodies[caller] = res.body;
    }
    return bodies;
  }

  const mentionsTenantB = (body: unknown) => {
    const text = JSON.stringify(body);
    return [managerB.userId, managerB.email, ...managerB.devices.map((d) => d.espId)].some((s) => text.includes(s));
  };

  beforeAll(async () => {
    t = await createTestApp();
    const admin = await t.http.login(TEST_ADMIN.email, TEST_ADMIN.password);
    managerA = await createManager(t.http, admin, 3);
    managerB = await createManager(t.http, admin, 1);
    attendantA = await createAttendant(t.http, managerA.token, managerA.devices[0]!.espId);
    unowned = await provisionDevice(t.http, admin);
    tokens = {
      anonymous: undefined,
      attendant: attendantA.token,
      ownManager: managerA.token,
      otherManager: managerB.token,
      admin,
    };
  });
  afterAll(() => t.close());

  it('GET /user/info answers each caller with their own profile', async () => {
    const bodies = await expectStatuses('GET', '/user/info', {
      anonymous: 401,
      attendant: 200,
      ownManager: 200,
      otherManager: 200,
      admin: 200,
    });
    expect(bodies.ownManager).toEqual({
      firstName: 'manager-first',
      lastName: 'manager-last',
      username: managerA.username,
      email: managerA.email,
      phoneNumber: managerA.phoneNumber,
      location: 'Dar es Salaam',
      language: 'en',
    });
    expect(mentionsTenantB(bodies.ownManager) || mentionsTenantB(bodies.attendant)).toBe(false);
  });

  it('GET /user/esp32-ids lists owned, assigned or all devices', async () => {
    const bodies = await expectStatuses('GET', '/user/esp32-ids', {
      anonymous: 401,
      attendant: 200,
      ownManager: 200,
      otherManager: 200,
      admin: 200,
    });
    const ids = (b: unknown) => (b as { esp32Id: string }[]).map((d) => d.esp32Id).sort();
    expect(ids(bodies.attendant)).toEqual([attendantA.espId]);
    expect(ids(bodies.ownManager)).toEqual(managerA.devices.map((d) => d.espId).sort());
    expect(ids(bodies.otherManager)).toEqual([managerB.devices[0]!.espId]);
    expect(ids(bodies.admin)).toEqual(
      expect.arrayContaining([...ids(bodies.ownManager), ...ids(bodies.otherManager), unowned.espId]),
    );
    expect(bodies.attendant).toEqual([{ esp32Id: attendantA.espId, machine_location: 'Ubungo stand' }]);
  });

  it('GET /admin/get/esp32-ids and /get/user/assigned/esp32-ids are admin-only; assigned excludes unowned devices', async () => {
    const all = await expectStatuses('GET', '/admin/get/esp32-ids', {
      anonymous: 401,
      attendant: 403,
      ownManager: 403,
      otherManager: 403,
      admin: 200,
    });
    expect(all.admin).toEqual(expect.arrayContaining([unowned.espId, managerA.devices[0]!.espId]));
    const assigned = await expectStatuses('GET', '/get/user/assigned/esp32-ids', {
      anonymous: 401,
      attendant: 403,
      ownManager: 403,
      otherManager: 403,
      admin: 200,
    });
    expect(assigned.admin).toEqual(expect.arrayContaining([managerA.devices[0]!.espId, managerB.devices[0]!.espId]));
    expect(assigned.admin).not.toContain(unowned.espId);
  });

  it('GET /admin/users is admin-only and lists users with roles and devices', async () => {
    const bodies = await expectStatuses('GET', '/admin/users', {
      anonymous: 401,
      attendant: 403,
      ownManager: 403,
      otherManager: 403,
      admin: 200,
    });
    const rows = bodies.admin as { userId: string; role: string; devices: { esp32Id: string }[] }[];
    const a = rows.find((r) => r.userId === managerA.userId)!;
    expect(a.role).toBe('manager');
    expect(a.devices.map((d) => d.esp32Id).sort()).toEqual(managerA.devices.map((d) => d.espId).sort());
    expect(rows.find((r) => r.userId === attendantA.userId)).toMatchObject({
      role: 'attendant',
      devices: [{ esp32Id: attendantA.espId }],
    });
    expect(JSON.stringify(rows)).not.toMatch(/password/i);
  });

  it('POST /admin/register-user is admin-only and idempotent on userId', async () => {
    const device = await provisionDevice(t.http, tokens.admin!);
    const fields = { ...personFields('new'), esp32Id: device.espId, machine_location: 'Sinza' };
    const statuses = await expectStatuses(
      'POST',
      '/admin/register-user',
      { anonymous: 401, attendant: 403, ownManager: 403, otherManager: 403, admin: 201 },
      fields,
    );
    expect(statuses.admin).toEqual({ message: expect.any(String) });
    const again = await call('admin', 'POST', '/admin/register-user', fields);
    expect(again.status).toBe(200);
    const changed = await call('admin', 'POST', '/admin/register-user', { ...fields, lastName: 'Other' });
    expect(changed.status).toBe(409);
    const users = await t.dataSource.query('SELECT count(*)::int AS n FROM users WHERE id = $1', [fields.userId]);
    expect(users[0].n).toBe(1);
    const owned = await call('admin', 'POST', '/admin/register-user', {
      ...personFields('x'),
      esp32Id: device.espId,
      machine_location: 'Sinza',
    });
    expect(owned.status).toBe(409);
    const unknownDevice = await call('admin', 'POST', '/admin/register-user', {
      ...personFields('y'),
      esp32Id: 'ESP-NOPE',
      machine_location: 'Sinza',
    });
    expect(unknownDevice.status).toBe(404);
    const takenEmail = await call('admin', 'POST', '/admin/register-user', {
      ...personFields('z'),
      email: managerA.email,
      esp32Id: unowned.espId,
      machine_location: 'Sinza',
    });
    expect(takenEmail.status).toBe(409);
    expect(takenEmail.body.message).toMatch(/email/);
  });

  it('POST /add/user/devices: admin for anyone, a manager only for self and only unowned devices', async () => {
    const [d1, d2] = [await provisionDevice(t.http, tokens.admin!), await provisionDevice(t.http, tokens.admin!)];
    const forA = (espId: string) => ({ userId: managerA.userId, esp32Id: espId, machine_location: 'Tegeta' });
    expect((await call('anonymous', 'POST', '/add/user/devices', forA(d1.espId))).status).toBe(401);
    expect((await call('attendant', 'POST', '/add/user/devices', forA(d1.espId))).status).toBe(403);
    expect((await call('otherManager', 'POST', '/add/user/devices', forA(d1.espId))).status).toBe(403);
    // Another tenant's device answers as an unknown one: a manager must not learn which IDs exist.
    expect(
      (
        await call('otherManager', 'POST', '/add/user/devices', {
          ...forA(managerA.devices[0]!.espId),
          userId: managerB.userId,
        })
      ).status,
    ).toBe(404);
    expect((await call('ownManager', 'POST', '/add/user/devices', forA(d1.espId))).status).toBe(201);
    expect((await call('ownManager', 'POST', '/add/user/devices', forA(d1.espId))).status).toBe(409);
    expect((await call('ownManager', 'POST', '/add/user/devices', forA('ESP-UNKNOWN'))).status).toBe(404);
    expect(
      (await call('admin', 'POST', '/add/user/devices', { ...forA(d2.espId), userId: managerB.userId })).status,
    ).toBe(201);
    const bIds = (await call('otherManager', 'GET', '/user/esp32-ids')).body.map((d: { esp32Id: string }) => d.esp32Id);
    expect(bIds).toContain(d2.espId);
  });

  it('announcing a MAC is open; listing and assigning are admin-only; the key is shown once and works', async () => {
    const macAddress = randomMac();
    expect((await call('anonymous', 'POST', '/devices/announce', { macAddress })).status).toBe(202);
    expect((await call('anonymous', 'POST', '/devices/announce', { macAddress: 'not-a-mac' })).status).toBe(400);
    const lists = await expectStatuses('GET', '/get_mac_addresses', {
      anonymous: 401,
      attendant: 403,
      ownManager: 403,
      otherManager: 403,
      admin: 200,
    });
    expect(lists.admin).toContainEqual({ macAddress });
    expect(lists.admin).not.toContainEqual({ macAddress: unowned.macAddress });

    const espId = `ESP-NEW-${Date.now()}`;
    for (const caller of ['anonymous', 'attendant', 'ownManager'] as Caller[]) {
      expect((await call(caller, 'POST', '/assign_id', { macAddress, espId })).status).toBe(
        caller === 'anonymous' ? 401 : 403,
      );
    }
    expect((await call('admin', 'POST', '/assign_id', { macAddress: randomMac(), espId })).status).toBe(404);
    const assigned = await call('admin', 'POST', '/assign_id', { macAddress, espId });
    expect(assigned.status).toBe(201);
    expect(assigned.body).toEqual({
      message: expect.any(String),
      deviceKey: expect.stringMatching(/^[A-Za-z0-9_-]{40,}$/),
    });
    const stored = await t.dataSource.query('SELECT key_hash FROM devices WHERE esp_id = $1', [espId]);
    expect(stored[0].key_hash).not.toContain(assigned.body.deviceKey);
    expect((await call('admin', 'GET', '/get_mac_addresses')).body).not.toContainEqual({ macAddress });

    const other = randomMac();
    await call('anonymous', 'POST', '/devices/announce', { macAddress: other });
    expect((await call('admin', 'POST', '/assign_id', { macAddress: other, espId })).status).toBe(409);
  });

  it('POST /admin/devices/:espId/rotate-key is admin-only and replaces the key', async () => {
    const device = await provisionDevice(t.http, tokens.admin!);
    const path = `/admin/devices/${device.espId}/rotate-key`;
    await expectStatuses('POST', path, {
      anonymous: 401,
      attendant: 403,
      ownManager: 403,
      otherManager: 403,
      admin: 201,
    });
    const rotated = await call('admin', 'POST', path);
    expect(rotated.body.deviceKey).not.toBe(device.deviceKey);
    expect((await call('admin', 'POST', '/admin/devices/ESP-NOPE/rotate-key')).status).toBe(404);
  });

  it('GET /attendant/user/assigned/ids lists only the calling manager’s devices', async () => {
    const bodies = await expectStatuses('GET', '/attendant/user/assigned/ids', {
      anonymous: 401,
      attendant: 403,
      ownManager: 200,
      otherManager: 200,
      admin: 403,
    });
    expect(bodies.ownManager).toEqual(expect.arrayContaining(managerA.devices.map((d) => d.espId)));
    expect(mentionsTenantB(bodies.ownManager)).toBe(false);
    expect(bodies.otherManager).toContain(managerB.devices[0]!.espId);
    expect(JSON.stringify(bodies.otherManager)).not.toContain(managerA.devices[0]!.espId);
  });

  it('POST /attendant/user/register-user: a manager, for an own device without attendant', async () => {
    const target = managerA.devices[1]!.espId;
    const fields = () => ({ ...personFields('att'), email: '', esp32Id: target, machine_location: 'Stand 2' });
    const statuses = await expectStatuses(
      'POST',
      '/attendant/user/register-user',
      { anonymous: 401, attendant: 403, ownManager: 201, otherManager: 404, admin: 403 },
      fields,
    );
    expect(statuses.otherManager).toMatchObject({ code: 'DeviceNotFound' });
    const second = await call('ownManager', 'POST', '/attendant/user/register-user', fields());
    expect(second.status).toBe(409);
    const device = await t.dataSource.query('SELECT location FROM devices WHERE esp_id = $1', [target]);
    expect(device[0].location).toBe('Stand 2');
  });

  it('GET /manager/attendants lists only the manager’s attendants', async () => {
    const bodies = await expectStatuses('GET', '/manager/attendants', {
      anonymous: 401,
      attendant: 403,
      ownManager: 200,
      otherManager: 200,
      admin: 403,
    });
    expect(bodies.ownManager).toContainEqual({
      userId: attendantA.userId,
      firstName: 'attendant-first',
      lastName: 'attendant-last',
      phoneNumber: attendantA.phoneNumber,
      esp32Id: attendantA.espId,
    });
    expect(bodies.otherManager).toEqual([]);
  });

  it('GET /attendant/:esp32Id/info: own manager and admin; others get 404 or 403', async () => {
    const bodies = await expectStatuses('GET', `/attendant/${attendantA.espId}/info`, {
      anonymous: 401,
      attendant: 403,
      ownManager: 200,
      otherManager: 404,
      admin: 200,
    });
    expect(bodies.ownManager).toEqual({ firstName: 'attendant-first', lastName: 'attendant-last' });
    expect((await call('ownManager', 'GET', `/attendant/${managerA.devices[2]!.espId}/info`)).status).toBe(404);
  });

  it('DELETE /manager/attendants/:userId removes only the manager’s attendant and ends their session', async () => {
    const victim = await createAttendant(t.http, managerA.token, managerA.devices[2]!.espId);
    const path = `/manager/attendants/${victim.userId}`;
    expect((await call('anonymous', 'DELETE', path)).status).toBe(401);
    expect((await call('attendant', 'DELETE', path)).status).toBe(403);
    expect((await call('admin', 'DELETE', path)).status).toBe(403);
    expect((await call('otherManager', 'DELETE', path)).status).toBe(404);
    expect((await call('ownManager', 'DELETE', path)).status).toBe(200);
    expect((await t.http.get('/user/info', { token: victim.token })).status).toBe(401);
    expect((await t.http.post('/login', { identifier: victim.phoneNumber, password: victim.password })).status).toBe(
      401,
    );
    expect((await call('ownManager', 'DELETE', path)).status).toBe(404);
    const kept = await t.dataSource.query('SELECT deleted_at FROM users WHERE id = $1', [victim.userId]);
    expect(kept[0].deleted_at).not.toBeNull();
    expect(
      (await call('ownManager', 'GET', '/manager/attendants')).body.map((a: { userId: string }) => a.userId),
    ).not.toContain(victim.userId);
  });

  it('GET /health answers anyone', async () => {
    await expectStatuses('GET', '/health', {
      anonymous: 200,
      attendant: 200,
      ownManager: 200,
      otherManager: 200,
      admin: 200,
    });
  });
});
