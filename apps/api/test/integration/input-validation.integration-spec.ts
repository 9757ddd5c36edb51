import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { apiRoutes, type RouteDef } from '@wv/contracts';
import { createAttendant, createManager } from '../factories/fleet.factory.js';
import { createTestApp, TEST_ADMIN, type TestApp } from '../support/test-app.js';

const routes = Object.entries(apiRoutes) as [string, RouteDef][];

/**
 * Every endpoint answers malformed JSON, unknown fields, wrong types and bodies over 1 MB with the
 * contract's error body (400 or 413) and writes nothing.
 */
describe('bad input on every endpoint', () => {
  let t: TestApp;
  let tokenFor: (def: RouteDef) => string | undefined;
  let headersFor: (def: RouteDef) => Record<string, string>;
  let pathFor: (def: RouteDef) => string;

  const snapshot = async () =>
    (
      await t.dataSource.query(`
        SELECT (SELECT md5(coalesce(string_agg(u::text, ',' ORDER BY id), '')) FROM users u) AS users,
               (SELECT md5(coalesce(string_agg(d::text, ',' ORDER BY esp_id), '')) FROM devices d) AS devices,
               (SELECT md5(coalesce(string_agg(m::text, ',' ORDER BY mac_address), '')) FROM mac_announcements m) AS macs`)
    )[0];

  beforeAll(async () => {
    t = await createTestApp();
    const admin = await t.http.login(TEST_ADMIN.email, TEST_ADMIN.password);
    const manager = await createManager(t.http, admin, 2);
    const attendant = await createAttendant(t.http, manager.token, manager.devices[0]!.espId);
    const byRole: Record<string, string> = { admin, manager: manager.token, attendant: attendant.token };
    tokenFor = (def) => def.access.map((a) => byRole[a]).find(Boolean);
    // Device-only routes authenticate with the key of the machine in the path.
    headersFor = (def): Record<string, string> =>
      tokenFor(def) || !def.access.includes('device') ? {} : { 'x-device-key': manager.devices[1]!.deviceKey };
    pathFor = (def) =>
      def.path
        .replace(':espId', manager.devices[1]!.espId)
        .replace(':esp32Id', manager.devices[0]!.espId)
        .replace(':userId', attendant.userId)
        // Alarms and payments: any well-formed id; the input is refused before it is looked up.
        .replace(':id', '00000000-0000-4000-8000-000000000000')
        .replace(':paymentId', '00000000-0000-4000-8000-000000000000');
  });
  afterAll(() => t.close());

  const bodyRoutes = routes.filter(([, def]) => def.method === 'POST' || def.method === 'PUT');

  it.each(bodyRoutes)('%s refuses malformed JSON with 400', async (_name, def) => {
    const before = await snapshot();
    const res = await t.http.request(def.method, pathFor(def), {
      token: tokenFor(def),
      headers: headersFor(def),
      rawBody: '{"a": tru',
    });
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ statusCode: 400, code: 'MalformedJson', message: expect.any(String) });
    expect(await snapshot()).toEqual(before);
  });

  it.each(bodyRoutes)('%s refuses a body over 1 MB with 413', async (_name, def) => {
    const before = await snapshot();
    const res = await t.http.request(def.method, pathFor(def), {
      token: tokenFor(def),
      headers: headersFor(def),
      body: { padding: 'x'.repeat(1024 * 1024) },
    });
    expect(res.status).toBe(413);
    expect(res.body).toMatchObject({ statusCode: 413, code: 'PayloadTooLarge' });
    expect(await snapshot()).toEqual(before);
  });

  it.each(bodyRoutes)('%s refuses unknown fields and wrong types with 400 naming the fields', async (_name, def) => {
    const before = await snapshot();
    const unknown = await t.http.request(def.method, pathFor(def), {
      token: tokenFor(def),
      headers: headersFor(def),
      body: { role: 'admin', balance: 1e6 },
    });
    expect(unknown.status).toBe(400);
    expect(unknown.body).toMatchObject({ statusCode: 400, code: 'ValidationFailed', fields: expect.any(Array) });

    if (def.body) {
      const shape = (def.body as unknown as { shape?: Record<string, unknown> }).shape ?? {};
      const wrongTypes = Object.fromEntries(Object.keys(shape).map((k) => [k, { nested: [true] }]));
      const res = await t.http.request(def.method, pathFor(def), {
        token: tokenFor(def),
        headers: headersFor(def),
        body: wrongTypes,
      });
      expect(res.status).toBe(400);
      const named = (res.body.fields as { path: string }[]).map((f) => f.path);
      for (const key of Object.keys(shape).filter(
        (k) => !(shape[k] as { isOptional?: () => boolean }).isOptional?.(),
      )) {
        // A nested payload (Daraja's callbacks) names the field inside the key.
        expect(named.filter((path) => path === key || path.startsWith(`${key}.`))).not.toEqual([]);
      }
      const array = await t.http.request(def.method, pathFor(def), {
        token: tokenFor(def),
        headers: headersFor(def),
        body: [1, 2, 3],
      });
      expect(array.status).toBe(400);
    }
    expect(await snapshot()).toEqual(before);
  });

  it.each(routes.filter(([, def]) => def.method === 'GET' && !def.query))(
    '%s refuses unknown query parameters',
    async (_name, def) => {
      const res = await t.http.request('GET', `${pathFor(def)}?role=admin`, {
        token: tokenFor(def),
        headers: headersFor(def),
      });
      expect(res.status).toBe(400);
      expect(res.body.message).toMatch(/Unknown field: role/);
    },
  );

  it('refuses path parameters of the wrong shape', async () => {
    const res = await t.http.request('DELETE', '/manager/attendants/not-a-uuid', {
      token: tokenFor(apiRoutes.removeAttendant),
    });
    expect(res.status).toBe(400);
    expect(res.body.fields).toContainEqual(expect.objectContaining({ path: 'userId' }));
  });
});
