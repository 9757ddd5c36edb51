import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { randomUUID } from 'node:crypto';
import { UniqueUsernames1763700600000 } from '../../src/database/migrations/1763700600000-unique-usernames.js';
import { createAttendant, createManager, personFields, provisionDevice } from '../factories/fleet.factory.js';
import { createTestApp, TEST_ADMIN, type TestApp } from '../support/test-app.js';

type Manager = Awaited<ReturnType<typeof createManager>>;

/**
 * Usernames are unique among active users, case-insensitive, for every role; an attendant's company
 * name is a field of its own, which several attendants may share (docs/rest-api.md, "Endpoints").
 */
describe('usernames and company names', () => {
  let t: TestApp;
  let admin: string;
  let managerA: Manager;
  let managerB: Manager;

  beforeAll(async () => {
    t = await createTestApp();
    admin = await t.http.login(TEST_ADMIN.email, TEST_ADMIN.password);
    managerA = await createManager(t.http, admin, 4);
    managerB = await createManager(t.http, admin, 2);
  });
  afterAll(() => t.close());

  const registerUser = async (overrides: Record<string, unknown>) => {
    const { espId } = await provisionDevice(t.http, admin);
    return t.http.post(
      '/admin/register-user',
      { ...personFields('named'), esp32Id: espId, machine_location: 'Kariakoo', ...overrides },
      { token: admin },
    );
  };

  const registerAttendant = (manager: Manager, deviceIndex: number, overrides: Record<string, unknown>) =>
    t.http.post(
      '/attendant/user/register-user',
      {
        ...personFields('attendant'),
        email: undefined,
        esp32Id: manager.devices[deviceIndex]!.espId,
        machine_location: 'Stand 4',
        ...overrides,
      },
      { token: manager.token },
    );

  it('admin register-user with a username already taken, in any letter case, is 409 naming the username', async () => {
    const res = await registerUser({ username: managerA.username.toUpperCase() });
    expect(res.status).toBe(409);
    expect(res.body).toMatchObject({ statusCode: 409, code: 'UserConflict' });
    expect((res.body as { message: string }).message).toContain('username');
    const rows = await t.dataSource.query(`SELECT count(*)::int AS n FROM users WHERE lower(username) = lower($1)`, [
      managerA.username,
    ]);
    expect(rows[0].n).toBe(1);
  });

  it('admin register-user with a free username still registers, and the same request again is a replay', async () => {
    const { espId } = await provisionDevice(t.http, admin);
    const body = { ...personFields('fresh'), esp32Id: espId, machine_location: 'Mwenge' };
    expect((await t.http.post('/admin/register-user', body, { token: admin })).status).toBe(201);
    expect((await t.http.post('/admin/register-user', body, { token: admin })).status).toBe(200);
  });

  it('a manager registering an attendant with a taken username gets the uniform conflict answer, which names no field', async () => {
    const own = await createAttendant(t.http, managerA.token, managerA.devices[0]!.espId);
    const probes = {
      otherTenantsManager: await registerAttendant(managerA, 1, { username: managerB.username }),
      ownTenantsAttendant: await registerAttendant(managerA, 1, { username: own.username.toUpperCase() }),
      ownManager: await registerAttendant(managerA, 1, { username: managerA.username }),
      // The answer for a taken email, which the other-tenant rules already make uniform.
      takenEmail: await registerAttendant(managerA, 1, { email: managerB.email }),
    };
    const answers = Object.values(probes).map((res) => ({ status: res.status, body: res.body }));
    for (const a of answers) expect(a).toEqual(answers[0]);
    expect(answers[0]!.status).toBe(409);
    expect(answers[0]!.body).toMatchObject({ statusCode: 409, code: 'UserConflict' });
    const text = JSON.stringify(answers[0]!.body).toLowerCase();
    for (const word of ['username', 'email', 'phone', 'user id']) expect(text).not.toContain(word);
    const device = await t.dataSource.query(`SELECT attendant_id FROM devices WHERE esp_id = $1`, [
      managerA.devices[1]!.espId,
    ]);
    expect(device[0].attendant_id).toBeNull();
  });

  it('two attendants, of one manager or of two, may share a company name', async () => {
    const companyName = 'Maji Safi Ltd';
    const first = personFields('kiosk');
    const second = personFields('kiosk');
    const third = personFields('kiosk');
    expect((await registerAttendant(managerA, 2, { ...first, email: undefined, companyName })).status).toBe(201);
    expect((await registerAttendant(managerA, 3, { ...second, email: undefined, companyName })).status).toBe(201);
    expect(
      (await registerAttendant(managerB, 1, { ...third, email: undefined, companyName: 'maji safi ltd' })).status,
    ).toBe(201);
    const rows = await t.dataSource.query(
      `SELECT username, company_name FROM users WHERE id = ANY($1) ORDER BY created_at`,
      [[first.userId, second.userId, third.userId]],
    );
    expect(rows).toEqual([
      { username: first.username, company_name: companyName },
      { username: second.username, company_name: companyName },
      { username: third.username, company_name: 'maji safi ltd' },
    ]);
    // Each signs in with their own phone number.
    expect(await t.http.login(second.phoneNumber, second.password)).toEqual(expect.any(String));
    // The same registration again is a replay (the company name is one of the compared fields) ...
    const again = await registerAttendant(managerA, 3, { ...second, email: undefined, companyName });
    expect(again.status).toBe(200);
    // ... and with another company name it is a conflict.
    const changed = await registerAttendant(managerA, 3, { ...second, email: undefined, companyName: 'Other' });
    expect(changed.status).toBe(409);
  });

  it('a removed attendant’s username may be taken again', async () => {
    const gone = await createAttendant(t.http, managerB.token, managerB.devices[0]!.espId);
    const removed = await t.http.delete(`/manager/attendants/${gone.userId}`, { token: managerB.token });
    expect(removed.status).toBe(200);
    const res = await registerAttendant(managerB, 0, { username: gone.username });
    expect(res.status).toBe(201);
  });

  it('the migration keeps the oldest of active users sharing a username, renames the others, and moves attendants’ usernames to their company name', async () => {
    const runner = t.dataSource.createQueryRunner();
    await runner.connect();
    const migration = new UniqueUsernames1763700600000();
    try {
      await migration.down(runner);
      const insert = (role: string, username: string, createdAt: string, managerId: string | null) => {
        const id = randomUUID();
        const phone = personFields().phoneNumber;
        return runner
          .query(
            `INSERT INTO users (id, role, first_name, last_name, username, phone_number, location, password_hash,
                                manager_id, created_at)
             VALUES ($1, $2, 'Old', 'Row', $3, $4, 'Arusha', 'x', $5, $6)`,
            [id, role, username, phone, managerId, createdAt],
          )
          .then(() => id);
      };
      const oldest = await insert('attendant', 'Shared Co', '2020-01-01T00:00:00Z', managerA.userId);
      const younger = await insert('attendant', 'shared co', '2021-01-01T00:00:00Z', managerA.userId);
      const youngerManager = await insert('manager', 'SHARED CO', '2022-01-01T00:00:00Z', null);
      await migration.up(runner);
      const rows: { id: string; username: string; company_name: string | null }[] = await runner.query(
        `SELECT id, username, company_name FROM users WHERE id = ANY($1)`,
        [[oldest, younger, youngerManager]],
      );
      const byId = Object.fromEntries(rows.map((r) => [r.id, r]));
      expect(byId[oldest]).toMatchObject({ username: 'Shared Co', company_name: 'Shared Co' });
      expect(byId[younger]).toMatchObject({ username: `shared co-${younger.slice(0, 8)}`, company_name: 'shared co' });
      expect(byId[youngerManager]).toMatchObject({
        username: `SHARED CO-${youngerManager.slice(0, 8)}`,
        company_name: null,
      });
      await expect(insert('manager', 'shared CO', '2023-01-01T00:00:00Z', null)).rejects.toThrow(/users_username_uq/);
      await runner.query(`DELETE FROM users WHERE id = ANY($1)`, [[oldest, younger, youngerManager]]);
    } finally {
      await runner.release();
    }
  });
});
