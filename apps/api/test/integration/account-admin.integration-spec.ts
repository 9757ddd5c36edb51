import { afterAll, afterEach, beforeAll, describe, expect, it } from '@jest/globals';
import { randomUUID } from 'node:crypto';
import { io as connect, type Socket } from 'socket.io-client';
import { DomainEvents } from '../../src/events/domain-events.js';
import { createAttendant, createManager, provisionDevice } from '../factories/fleet.factory.js';
import { createTestApp, TEST_ADMIN, type TestApp } from '../support/test-app.js';

interface Received {
  event: string;
  payload: any;
}

const pause = (ms: number) => new Promise((r) => setTimeout(r, ms));

/**
 * The admin's actions on existing accounts and the session refresh (docs/rest-api.md, "Accounts and
 * sessions"): machines taken from and given to users, deactivation and reactivation, POST /auth/refresh.
 */
describe('account administration', () => {
  let t: TestApp;
  let admin: string;
  let adminId: string;
  const sockets: Socket[] = [];

  const open = async (token: string): Promise<{ socket: Socket; events: Received[] }> => {
    const socket = connect(t.baseUrl, {
      path: '/socket.io',
      auth: { token },
      transports: ['websocket'],
      reconnection: false,
      forceNew: true,
    });
    sockets.push(socket);
    const events: Received[] = [];
    socket.onAny((event: string, payload: unknown) => events.push({ event, payload }));
    await new Promise<void>((resolve, reject) => {
      socket.once('connect', () => resolve());
      socket.once('connect_error', reject);
    });
    return { socket, events };
  };
  const users = async () => (await t.http.get('/admin/users', { token: admin })).body as any[];
  const auditOf = async (entityId: string) =>
    ((await t.http.get(`/admin/audit?limit=500`, { token: admin })).body.data as any[]).filter(
      (row) => row.entityId === entityId,
    );

  beforeAll(async () => {
    t = await createTestApp();
    admin = await t.http.login(TEST_ADMIN.email, TEST_ADMIN.password);
    adminId = JSON.parse(Buffer.from(admin.split('.')[1]!, 'base64url').toString()).sub;
  });
  afterEach(() => sockets.splice(0).forEach((s) => s.close()));
  afterAll(() => t.close());

  describe('DELETE /admin/users/{userId}/devices/{esp32Id}', () => {
    it('makes a manager’s machine unowned, keeps its history, and stops its live events reaching the manager', async () => {
      const manager = await createManager(t.http, admin, 2);
      const [kept, taken] = manager.devices;
      const attendant = await createAttendant(t.http, manager.token, taken!.espId);
      const asManager = await open(manager.token);
      const asAttendant = await open(attendant.token);

      const res = await t.http.delete(`/admin/users/${manager.userId}/devices/${taken!.espId}`, { token: admin });
      expect(res).toMatchObject({ status: 200, body: { message: 'Machine unassigned successfully' } });

      const owned = (await t.http.get('/get/user/assigned/esp32-ids', { token: admin })).body as string[];
      expect(owned).toContain(kept!.espId);
      expect(owned).not.toContain(taken!.espId);
      const row = (await users()).find((u) => u.userId === manager.userId);
      expect(row.devices.map((d: { esp32Id: string }) => d.esp32Id)).toEqual([kept!.espId]);
      // An owner's machine also loses its attendant: attendants work only at their manager's machines.
      expect((await users()).find((u) => u.userId === attendant.userId).devices).toEqual([]);
      expect((await t.http.get(`/cards/${taken!.espId}`, { token: manager.token })).status).toBe(404);

      const trail = await auditOf(taken!.espId);
      expect(trail[0]).toMatchObject({
        actorId: adminId,
        action: 'device.owner-removed',
        before: { ownerId: manager.userId, attendantId: attendant.userId },
        after: { ownerId: null, attendantId: null },
      });

      // The sockets opened before the change no longer get the machine's events; the kept one still does.
      await pause(200);
      const events = t.running.app.get(DomainEvents);
      const now = new Date().toISOString();
      events.emit('machine.status', { espId: taken!.espId, online: true, lastSeen: now });
      events.emit('machine.status', { espId: kept!.espId, online: true, lastSeen: now });
      await pause(500);
      const machinesOf = (list: Received[]) =>
        list.filter((e) => e.event === 'machine.status').map((e) => e.payload.machineId);
      expect(machinesOf(asManager.events)).toEqual([kept!.espId]);
      expect(machinesOf(asAttendant.events)).toEqual([]);
    });

    it('takes an attendant’s machine from them, and gives it back through POST /add/user/devices', async () => {
      const manager = await createManager(t.http, admin, 2);
      const [first, second] = manager.devices;
      const attendant = await createAttendant(t.http, manager.token, first!.espId);

      const res = await t.http.delete(`/admin/users/${attendant.userId}/devices/${first!.espId}`, { token: admin });
      expect(res.status).toBe(200);
      expect((await users()).find((u) => u.userId === attendant.userId).devices).toEqual([]);
      // The manager keeps the machine.
      expect((await users()).find((u) => u.userId === manager.userId).devices).toHaveLength(2);

      const assign = (esp32Id: string, userId = attendant.userId) =>
        t.http.post('/add/user/devices', { userId, esp32Id, machine_location: 'Ubungo' }, { token: admin });
      const other = await createManager(t.http, admin, 1);
      expect(await assign(other.devices[0]!.espId)).toMatchObject({
        status: 422,
        body: { code: 'AttendantOutsideTenant' },
      });
      expect((await assign(second!.espId)).status).toBe(201);
      expect(await assign(first!.espId)).toMatchObject({ status: 409, body: { code: 'AttendantHasMachine' } });
      const colleague = await createAttendant(t.http, manager.token, first!.espId);
      // One attendant per device (docs/rest-api.md, "Details").
      await t.http.delete(`/admin/users/${attendant.userId}/devices/${second!.espId}`, { token: admin });
      expect(await assign(first!.espId)).toMatchObject({ status: 409, body: { code: 'AttendantAlreadyAssigned' } });
      expect((await users()).find((u) => u.userId === colleague.userId).devices[0].esp32Id).toBe(first!.espId);
      expect((await t.http.get('/user/esp32-ids', { token: attendant.token })).body).toEqual([]);
    });

    it('joins the open sockets of a user given a machine to its room at once', async () => {
      const manager = await createManager(t.http, admin, 1);
      const device = await provisionDevice(t.http, admin);
      const asManager = await open(manager.token);
      const added = await t.http.post(
        '/add/user/devices',
        { userId: manager.userId, esp32Id: device.espId, machine_location: 'Mwenge' },
        { token: admin },
      );
      expect(added.status).toBe(201);
      await pause(200);
      const now = new Date().toISOString();
      t.running.app.get(DomainEvents).emit('machine.status', { espId: device.espId, online: true, lastSeen: now });
      await pause(500);
      expect(asManager.events.filter((e) => e.event === 'machine.status').map((e) => e.payload.machineId)).toEqual([
        device.espId,
      ]);
    });

    it('answers 404 for an unknown user, an unknown machine and a machine the user does not have', async () => {
      const manager = await createManager(t.http, admin, 1);
      const stranger = await provisionDevice(t.http, admin);
      const unknownUser = await t.http.delete(`/admin/users/${randomUUID()}/devices/${manager.devices[0]!.espId}`, {
        token: admin,
      });
      expect(unknownUser).toMatchObject({ status: 404, body: { code: 'UserNotFound' } });
      for (const espId of ['ESP-NOBODY-HAS', stranger.espId]) {
        const res = await t.http.delete(`/admin/users/${manager.userId}/devices/${espId}`, { token: admin });
        expect(res).toMatchObject({
          status: 404,
          body: { code: 'UserDeviceNotFound', message: 'This user does not have this machine' },
        });
      }
    });

    it('is the admin’s alone: 401 anonymous, 403 for managers and attendants', async () => {
      const manager = await createManager(t.http, admin, 1);
      const attendant = await createAttendant(t.http, manager.token, manager.devices[0]!.espId);
      const path = `/admin/users/${manager.userId}/devices/${manager.devices[0]!.espId}`;
      expect((await t.http.delete(path)).status).toBe(401);
      for (const token of [manager.token, attendant.token])
        expect((await t.http.delete(path, { token })).status).toBe(403);
      expect((await users()).find((u) => u.userId === manager.userId).devices).toHaveLength(1);
    });
  });

  describe('POST /admin/users/{userId}/deactivate and /reactivate', () => {
    it('refuses the sign-in of a deactivated user after the right password only, ends their sessions and keeps their history', async () => {
      const manager = await createManager(t.http, admin, 1);
      const other = await t.http.login(manager.email, manager.password);
      const { socket } = await open(manager.token);
      const closed = new Promise((resolve) => socket.once('disconnect', resolve));

      const res = await t.http.post(`/admin/users/${manager.userId}/deactivate`, undefined, { token: admin });
      expect(res).toMatchObject({ status: 200, body: { message: 'User deactivated successfully' } });
      await closed;
      for (const token of [manager.token, other]) {
        expect((await t.http.get('/user/info', { token })).status).toBe(401);
        expect((await t.http.post('/auth/refresh', undefined, { token })).status).toBe(401);
      }
      await expect(open(manager.token)).rejects.toThrow(/Sign in/);

      const right = await t.http.post('/login', { identifier: manager.email, password: manager.password });
      expect(right).toMatchObject({
        status: 401,
        body: { code: 'AccountDeactivated', message: 'This account is deactivated' },
      });
      // A wrong password gets the usual answer: the account's state is not told to a guesser.
      const wrong = await t.http.post('/login', { identifier: manager.email, password: 'wrong-password' });
      expect(wrong).toMatchObject({ status: 401, body: { code: 'InvalidCredentials' } });

      const row = (await users()).find((u) => u.userId === manager.userId);
      expect(row).toMatchObject({ active: false, devices: [{ esp32Id: manager.devices[0]!.espId }] });
      expect((await auditOf(manager.userId))[0]).toMatchObject({
        actorId: adminId,
        action: 'user.deactivated',
        before: { active: true },
        after: { active: false },
      });

      // Repeating it changes nothing; reactivating lets them sign in, and old tokens stay dead.
      expect((await t.http.post(`/admin/users/${manager.userId}/deactivate`, undefined, { token: admin })).status).toBe(
        200,
      );
      expect((await auditOf(manager.userId)).filter((r) => r.action === 'user.deactivated')).toHaveLength(1);
      const back = await t.http.post(`/admin/users/${manager.userId}/reactivate`, undefined, { token: admin });
      expect(back).toMatchObject({ status: 200, body: { message: 'User reactivated successfully' } });
      expect((await users()).find((u) => u.userId === manager.userId).active).toBe(true);
      expect((await auditOf(manager.userId))[0]).toMatchObject({ action: 'user.reactivated', after: { active: true } });
      expect((await t.http.get('/user/info', { token: manager.token })).status).toBe(401);
      const fresh = await t.http.login(manager.email, manager.password);
      expect((await t.http.get('/user/info', { token: fresh })).status).toBe(200);
    });

    it('deactivates an attendant, whose machine stays theirs', async () => {
      const manager = await createManager(t.http, admin, 1);
      const attendant = await createAttendant(t.http, manager.token, manager.devices[0]!.espId);
      expect(
        (await t.http.post(`/admin/users/${attendant.userId}/deactivate`, undefined, { token: admin })).status,
      ).toBe(200);
      expect(
        (await t.http.post('/login', { identifier: attendant.phoneNumber, password: attendant.password })).body.code,
      ).toBe('AccountDeactivated');
      expect((await t.http.get(`/attendant/${manager.devices[0]!.espId}/info`, { token: manager.token })).status).toBe(
        200,
      );
    });

    it('does not let an admin deactivate themselves', async () => {
      const res = await t.http.post(`/admin/users/${adminId}/deactivate`, undefined, { token: admin });
      expect(res).toMatchObject({
        status: 422,
        body: { code: 'CannotDeactivateSelf', message: 'You cannot deactivate your own account' },
      });
      expect((await t.http.get('/user/info', { token: admin })).status).toBe(200);
    });

    it('answers 404 for an unknown user, and is the admin’s alone', async () => {
      for (const action of ['deactivate', 'reactivate']) {
        const unknown = await t.http.post(`/admin/users/${randomUUID()}/${action}`, undefined, { token: admin });
        expect(unknown).toMatchObject({ status: 404, body: { code: 'UserNotFound' } });
      }
      const manager = await createManager(t.http, admin, 1);
      const attendant = await createAttendant(t.http, manager.token, manager.devices[0]!.espId);
      for (const action of ['deactivate', 'reactivate']) {
        const path = `/admin/users/${attendant.userId}/${action}`;
        expect((await t.http.post(path)).status).toBe(401);
        // A manager may not even deactivate their own attendant this way (they remove them instead).
        for (const token of [manager.token, attendant.token])
          expect((await t.http.post(path, undefined, { token })).status).toBe(403);
      }
      expect((await users()).find((u) => u.userId === attendant.userId).active).toBe(true);
    });
  });

  describe('POST /auth/refresh', () => {
    it('gives every role a new token for the same user; the old one keeps working until it expires', async () => {
      const manager = await createManager(t.http, admin, 1);
      const attendant = await createAttendant(t.http, manager.token, manager.devices[0]!.espId);
      for (const [token, role] of [
        [admin, 'admin'],
        [manager.token, 'manager'],
        [attendant.token, 'attendant'],
      ] as const) {
        await pause(5);
        const res = await t.http.post('/auth/refresh', undefined, { token });
        expect(res.status).toBe(200);
        const before = JSON.parse(Buffer.from(token.split('.')[1]!, 'base64url').toString());
        const after = JSON.parse(Buffer.from(res.body.token.split('.')[1]!, 'base64url').toString());
        expect(after).toMatchObject({ sub: before.sub, role });
        expect(after.exp - after.iat).toBe(1200);
        expect(after.iatMs).toBeGreaterThan(before.iatMs);
        expect((await t.http.get('/user/info', { token: res.body.token })).status).toBe(200);
        expect((await t.http.get('/user/info', { token })).status).toBe(200);
      }
    });

    it('refuses anonymous calls, revoked tokens and a removed attendant', async () => {
      expect((await t.http.post('/auth/refresh')).status).toBe(401);
      const manager = await createManager(t.http, admin, 1);
      const stale = manager.token;
      await pause(5);
      const changed = await t.http.post(
        '/user/password',
        { currentPassword: manager.password, newPassword: 'another-password-1' },
        { token: manager.token },
      );
      expect(changed.status).toBe(200);
      expect((await t.http.post('/auth/refresh', undefined, { token: stale })).status).toBe(401);
      expect((await t.http.post('/auth/refresh', undefined, { token: changed.body.token })).status).toBe(200);

      const attendant = await createAttendant(t.http, changed.body.token, manager.devices[0]!.espId);
      await t.http.delete(`/manager/attendants/${attendant.userId}`, { token: changed.body.token });
      expect((await t.http.post('/auth/refresh', undefined, { token: attendant.token })).status).toBe(401);
    });

    it('limits refreshes per user: the eleventh in one token lifetime is 429', async () => {
      const manager = await createManager(t.http, admin, 1);
      for (let i = 0; i < 10; i++) {
        expect((await t.http.post('/auth/refresh', undefined, { token: manager.token })).status).toBe(200);
      }
      const over = await t.http.post('/auth/refresh', undefined, { token: manager.token });
      expect(over).toMatchObject({ status: 429, body: { code: 'RateLimited' } });
      expect((await t.http.post('/auth/refresh', undefined, { token: admin })).status).toBe(200);
    });
  });
});
