import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { createAttendant, createManager } from '../factories/fleet.factory.js';
import { createTestApp, TEST_ADMIN, type TestApp } from '../support/test-app.js';

describe('each user’s language, kept on the server (PUT /user/language, GET /user/info)', () => {
  let t: TestApp;
  let admin: string;
  let manager: Awaited<ReturnType<typeof createManager>>;
  let attendant: Awaited<ReturnType<typeof createAttendant>>;

  beforeAll(async () => {
    t = await createTestApp();
    admin = await t.http.login(TEST_ADMIN.email, TEST_ADMIN.password);
    manager = await createManager(t.http, admin, 1);
    attendant = await createAttendant(t.http, manager.token, manager.devices[0]!.espId);
  }, 120_000);
  afterAll(() => t?.close());

  const info = async (token: string) => (await t.http.get('/user/info', { token })).body as { language: string };

  it('starts in English for every user', async () => {
    expect((await info(manager.token)).language).toBe('en');
    expect((await info(attendant.token)).language).toBe('en');
    expect((await info(admin)).language).toBe('en');
  });

  it('lets any signed-in user set their own language, and only their own', async () => {
    for (const token of [manager.token, attendant.token, admin]) {
      const res = await t.http.put('/user/language', { language: 'sw' }, { token });
      expect(res.status).toBe(200);
      expect(res.body).toEqual({ language: 'sw' });
      expect((await info(token)).language).toBe('sw');
    }
    const back = await t.http.put('/user/language', { language: 'en' }, { token: attendant.token });
    expect(back.status).toBe(200);
    expect((await info(attendant.token)).language).toBe('en');
    // The others kept theirs.
    expect((await info(manager.token)).language).toBe('sw');
    expect((await info(admin)).language).toBe('sw');
    const [row] = await t.dataSource.query(`SELECT language FROM users WHERE id = $1`, [manager.userId]);
    expect(row).toEqual({ language: 'sw' });
  });

  it('refuses a language the messages are not written in, or a body that is not one', async () => {
    for (const body of [
      { language: 'fr' },
      { language: 'SW' },
      { language: '' },
      {},
      { language: 'sw', userId: admin },
    ]) {
      const res = await t.http.put('/user/language', body, { token: manager.token });
      expect({ body, status: res.status }).toEqual({ body, status: 400 });
    }
    expect((await info(manager.token)).language).toBe('sw');
  });

  it('refuses a caller who is not signed in', async () => {
    expect((await t.http.put('/user/language', { language: 'sw' })).status).toBe(401);
    expect((await t.http.put('/user/language', { language: 'sw' }, { token: 'not-a-token' })).status).toBe(401);
  });
});
