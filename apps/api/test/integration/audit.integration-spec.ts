import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { createAttendant, createManager, personFields, provisionDevice } from '../factories/fleet.factory.js';
import { fundAttendant, registerCard, sellOnCard } from '../factories/money.factory.js';
import { createTestApp, TEST_ADMIN, type TestApp } from '../support/test-app.js';

type Row = {
  id: string;
  actorId: string | null;
  action: string;
  entity: string;
  entityId: string;
  before: any;
  after: any;
  at: string;
};

/**
 * The audit trail: every money movement and every change of users, devices, tariffs and Wi-Fi, with
 * actor, time, before and after, and never a password, a password hash or a device key.
 */
describe('audit trail', () => {
  let t: TestApp;
  let admin: string;
  let adminId: string;
  let manager: Awaited<ReturnType<typeof createManager>>;
  let attendant: Awaited<ReturnType<typeof createAttendant>>;
  let rotatedKey: string;
  let cardId: string;

  const audit = async (query = '') => {
    const res = await t.http.get(`/admin/audit${query}`, { token: admin });
    expect(res.status).toBe(200);
    return res.body as { data: Row[]; total: number };
  };
  const all = async (query = '') => (await audit(`?limit=500${query}`)).data;

  beforeAll(async () => {
    t = await createTestApp();
    admin = await t.http.login(TEST_ADMIN.email, TEST_ADMIN.password);
    adminId = (await t.dataSource.query(`SELECT id FROM users WHERE role = 'admin'`))[0].id;
    manager = await createManager(t.http, admin, 2);
    attendant = await createAttendant(t.http, manager.token, manager.devices[0]!.espId);
    const rotated = await t.http.post(`/admin/devices/${manager.devices[1]!.espId}/rotate-key`, undefined, {
      token: admin,
    });
    rotatedKey = rotated.body.deviceKey;
    const espId = manager.devices[0]!.espId;
    await t.http.put(
      '/update_wifi_credentials',
      { espId, ssid: 'kiosk', password: 'wifi-secret-1' },
      { token: manager.token },
    );
    await t.http.put(
      '/update_wifi_credentials',
      { espId, ssid: 'kiosk-2', password: 'wifi-secret-2' },
      { token: manager.token },
    );
    await t.http.post(
      '/insert_tariffs',
      { espId, coldTariffs: 50, freshTariffs: 40, coldCalb: 1.5, freshCalb: 1.25 },
      { token: manager.token },
    );
    await t.http.post(
      '/insert_tariffs',
      { espId, coldTariffs: 60, freshTariffs: 40, coldCalb: 1.5, freshCalb: 1.25 },
      { token: manager.token },
    );
    await fundAttendant(t.http, manager.token, attendant, 100);
    const card = await registerCard(t.http, attendant.token, { card_balance: 30 });
    cardId = card.card_id;
    await t.http.post(`/att/cards/${cardId}/top-up`, { amount: 5 }, { token: attendant.token });
    await sellOnCard(t.http, t.dataSource, manager.devices[0]!, cardId, 12);
  });
  afterAll(() => t.close());

  it('is for admins only', async () => {
    expect((await t.http.get('/admin/audit')).status).toBe(401);
    for (const token of [manager.token, attendant.token]) {
      expect((await t.http.get('/admin/audit', { token })).status).toBe(403);
    }
  });

  it('records user and device changes with actor, before and after', async () => {
    const rows = await all();
    expect(rows).toContainEqual(
      expect.objectContaining({
        actorId: adminId,
        action: 'user.created',
        entity: 'user',
        entityId: manager.userId,
        before: null,
        after: expect.objectContaining({ role: 'manager', email: manager.email, phoneNumber: manager.phoneNumber }),
      }),
    );
    expect(rows).toContainEqual(
      expect.objectContaining({
        actorId: adminId,
        action: 'device.owner-assigned',
        entityId: manager.devices[0]!.espId,
        before: { ownerId: null, location: null },
        after: { ownerId: manager.userId, location: 'Kariakoo' },
      }),
    );
    expect(rows).toContainEqual(
      expect.objectContaining({ actorId: manager.userId, action: 'user.created', entityId: attendant.userId }),
    );
    expect(rows).toContainEqual(
      expect.objectContaining({
        action: 'device.attendant-assigned',
        entityId: attendant.espId,
        before: { attendantId: null, location: 'Kariakoo' },
        after: { attendantId: attendant.userId, location: 'Ubungo stand' },
      }),
    );
    expect(rows).toContainEqual(
      expect.objectContaining({ actorId: adminId, action: 'device.created', entityId: manager.devices[0]!.espId }),
    );
    expect(rows).toContainEqual(
      expect.objectContaining({ actorId: adminId, action: 'device.key-rotated', entityId: manager.devices[1]!.espId }),
    );
  });

  it('records Wi-Fi and tariff changes with the previous values, the Wi-Fi password redacted', async () => {
    const espId = manager.devices[0]!.espId;
    const wifi = await all(`&entity=wifi`);
    expect(wifi.map((r) => [r.before, r.after])).toEqual([
      [
        { ssid: 'kiosk', password: '[redacted]' },
        { ssid: 'kiosk-2', password: '[redacted]' },
      ],
      [null, { ssid: 'kiosk', password: '[redacted]' }],
    ]);
    expect(wifi.every((r) => r.entityId === espId && r.actorId === manager.userId)).toBe(true);
    const tariffs = await all(`&entity=tariffs`);
    expect(tariffs[0]).toMatchObject({
      action: 'tariffs.inserted',
      before: { cold: 50, fresh: 40, coldCalb: 1.5, freshCalb: 1.25 },
      after: { cold: 60, fresh: 40, coldCalb: 1.5, freshCalb: 1.25 },
    });
  });

  it('records every money movement: approvals, loads, top-ups and sale debits, with balances before and after', async () => {
    const floats = await all(`&entity=float`);
    expect(floats.map((r) => [r.action, r.before.balance, r.after.balance])).toEqual([
      ['ledger.top-up', 70, 65],
      ['ledger.load', 100, 70],
      ['ledger.float_approval', 0, 100],
    ]);
    const cards = (await all(`&entity=card`)).filter((r) => r.entityId === cardId);
    expect(cards.map((r) => [r.action, r.actorId, r.before?.balance, r.after.balance ?? r.after.card_balance])).toEqual(
      [
        ['ledger.sale', null, 35, 23],
        ['ledger.top-up', attendant.userId, 30, 35],
        ['card.registered', attendant.userId, undefined, 30],
        ['ledger.load', attendant.userId, 0, 30],
      ],
    );
    const requests = await all(`&entity=float_request`);
    expect(requests.map((r) => [r.action, r.before?.status ?? null, r.after.status])).toEqual([
      ['float_request.approved', 'pending', 'approved'],
      ['float_request.created', null, 'pending'],
    ]);
  });

  it('records an attendant’s removal with the device freed and the pending float request rejected', async () => {
    const device = await provisionDevice(t.http, admin);
    await t.http.post(
      '/add/user/devices',
      { userId: manager.userId, esp32Id: device.espId, machine_location: 'Tabata' },
      { token: admin },
    );
    const leaving = await createAttendant(t.http, manager.token, device.espId);
    await t.http.post('/attendant/request-float', { amount: 9 }, { token: leaving.token });
    await t.http.delete(`/manager/attendants/${leaving.userId}`, { token: manager.token });
    const rows = await all(`&actorId=${manager.userId}`);
    expect(rows.slice(0, 3).map((r) => [r.action, r.entityId])).toEqual(
      expect.arrayContaining([
        ['user.removed', leaving.userId],
        ['device.attendant-removed', device.espId],
        ['float_request.rejected', expect.any(String)],
      ]),
    );
  });

  it('never holds a password, a password hash or a device key', async () => {
    const text = JSON.stringify(await t.dataSource.query(`SELECT before, after FROM audit_log`));
    const hashes = await t.dataSource.query(`SELECT password_hash FROM users`);
    const keyHashes = await t.dataSource.query(`SELECT key_hash FROM devices WHERE key_hash IS NOT NULL`);
    for (const secret of [
      manager.password,
      attendant.password,
      TEST_ADMIN.password,
      'wifi-secret-1',
      'wifi-secret-2',
      rotatedKey,
      ...manager.devices.map((d) => d.deviceKey),
      ...hashes.map((h: { password_hash: string }) => h.password_hash),
      ...keyHashes.map((h: { key_hash: string }) => h.key_hash),
    ]) {
      expect(text).not.toContain(secret);
    }
    expect(text).not.toMatch(/argon2/);
  });

  it('filters by actor, entity and time, newest first, paged with the total', async () => {
    const mine = await audit(`?actorId=${manager.userId}&limit=2&page=1`);
    expect(mine.data).toHaveLength(2);
    expect(mine.total).toBeGreaterThan(4);
    const page2 = await audit(`?actorId=${manager.userId}&limit=2&page=2`);
    expect(page2.total).toBe(mine.total);
    expect(page2.data[0]!.id).not.toBe(mine.data[0]!.id);
    const everything = await all(`&actorId=${manager.userId}`);
    expect(everything.every((r) => r.actorId === manager.userId)).toBe(true);
    const times = everything.map((r) => Date.parse(r.at));
    expect([...times].sort((a, b) => b - a)).toEqual(times);

    const now = Date.now();
    const future = new Date(now + 60_000).toISOString();
    expect((await audit(`?from=${encodeURIComponent(future)}`)).total).toBe(0);
    expect((await audit(`?to=${encodeURIComponent(new Date(now - 3_600_000).toISOString())}`)).total).toBe(0);
    const today = new Intl.DateTimeFormat('en-CA', { timeZone: t.config.timezone }).format(new Date());
    const total = (await audit()).total;
    expect((await audit(`?from=${today}&to=${today}`)).total).toBe(total);
    expect((await audit(`?to=2000-01-01`)).total).toBe(0);
  });

  it('refuses bad filters with 400 naming the field', async () => {
    for (const [query, field] of [
      ['entity=password', 'entity'],
      ['actorId=me', 'actorId'],
      ['from=yesterday', 'from'],
      ['limit=501', 'limit'],
      ['page=0', 'page'],
      ['role=admin', 'role'],
    ]) {
      const res = await t.http.get(`/admin/audit?${query}`, { token: admin });
      expect({ query, status: res.status }).toEqual({ query, status: 400 });
      expect(res.body.fields.map((f: { path: string }) => f.path).join()).toContain(field);
    }
  });

  it('does not record a user registration replayed with the same data', async () => {
    const device = await provisionDevice(t.http, admin);
    const fields = { ...personFields('again'), esp32Id: device.espId, machine_location: 'Sinza' };
    expect((await t.http.post('/admin/register-user', fields, { token: admin })).status).toBe(201);
    expect((await t.http.post('/admin/register-user', fields, { token: admin })).status).toBe(200);
    const rows = (await all(`&entity=user`)).filter((r) => r.entityId === fields.userId);
    expect(rows).toHaveLength(1);
  });
});
