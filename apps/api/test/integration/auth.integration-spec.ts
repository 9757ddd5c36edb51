import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { createManager } from '../factories/fleet.factory.js';
import { createTestApp, TEST_ADMIN, type TestApp } from '../support/test-app.js';

function decode(token: string): Record<string, unknown> {
  return JSON.parse(Buffer.from(token.split('.')[1]!, 'base64url').toString());
}

describe('sign-in', () => {
  let t: TestApp;
  let adminToken: string;

  beforeAll(async () => {
    t = await createTestApp();
    adminToken = await t.http.login(TEST_ADMIN.email, TEST_ADMIN.password);
  });
  afterAll(() => t.close());

  it('issues a token carrying sub, role, iat and exp with 20 minutes of life', () => {
    const payload = decode(adminToken);
    expect(payload.role).toBe('admin');
    expect(typeof payload.sub).toBe('string');
    expect((payload.exp as number) - (payload.iat as number)).toBe(1200);
  });

  it('accepts the email in any case', async () => {
    const res = await t.http.post('/login', {
      identifier: TEST_ADMIN.email.toUpperCase(),
      password: TEST_ADMIN.password,
    });
    expect(res.status).toBe(200);
  });

  it('signs a manager in by phone in +255, 255 and local 0 forms', async () => {
    const manager = await createManager(t.http, adminToken);
    const local = `0${manager.phoneNumber.slice(4)}`;
    for (const identifier of [manager.phoneNumber, manager.phoneNumber.slice(1), local]) {
      const res = await t.http.post('/login', { identifier, password: manager.password });
      expect(res.status).toBe(200);
      expect(decode(res.body.token).sub).toBe(manager.userId);
      expect(decode(res.body.token).role).toBe('manager');
    }
  });

  it('answers a wrong password and an unknown user alike with 401 and the contract message', async () => {
    const wrong = await t.http.post('/login', { identifier: TEST_ADMIN.email, password: 'nope-nope-nope' });
    const unknown = await t.http.post('/login', { identifier: 'nobody@test.local', password: 'nope-nope-nope' });
    for (const res of [wrong, unknown]) {
      expect(res.status).toBe(401);
      expect(res.body).toMatchObject({
        statusCode: 401,
        code: 'InvalidCredentials',
        message: 'Invalid email/phone or password',
      });
    }
  });

  it('refuses requests without a token, with a forged token and with a malformed header', async () => {
    expect((await t.http.get('/user/info')).status).toBe(401);
    const forged = adminToken.slice(0, -4) + 'AAAA';
    expect((await t.http.get('/user/info', { token: forged })).status).toBe(401);
    expect((await t.http.get('/user/info', { headers: { authorization: 'Basic abc' } })).status).toBe(401);
  });

  it('rejects malformed JSON, unknown fields, wrong types and bodies over 1 MB with the error body', async () => {
    const malformed = await t.http.request('POST', '/login', { rawBody: '{"identifier":' });
    expect(malformed.status).toBe(400);
    expect(malformed.body).toMatchObject({ statusCode: 400, code: 'MalformedJson' });

    const unknown = await t.http.post('/login', { identifier: 'a@b.c', password: 'x', role: 'admin' });
    expect(unknown.status).toBe(400);
    expect(unknown.body.message).toMatch(/Unknown field: role/);

    const wrongType = await t.http.post('/login', { identifier: 42, password: 'x' });
    expect(wrongType.status).toBe(400);
    expect(wrongType.body.fields).toEqual([expect.objectContaining({ path: 'identifier' })]);

    const huge = await t.http.post('/login', { identifier: 'a@b.c', password: 'x'.repeat(1024 * 1024 + 10) });
    expect(huge.status).toBe(413);
    expect(huge.body).toMatchObject({ statusCode: 413, code: 'PayloadTooLarge' });
  });

  it('serves the OpenAPI document generated from the contracts', async () => {
    const res = await fetch(`${t.baseUrl}/api/docs/openapi.json`);
    expect(res.status).toBe(200);
    const doc = (await res.json()) as { paths: Record<string, Record<string, unknown>> };
    expect(Object.keys(doc.paths)).toEqual(expect.arrayContaining(['/api/login', '/api/manager/attendants/{userId}']));
    expect(doc.paths['/api/admin/register-user']!.post).toHaveProperty('requestBody');
  });

  it('reports health of the database and Redis', async () => {
    const res = await t.http.get('/health');
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ status: 'ok', db: 'up', redis: 'up' });
  });
});

describe('sign-in rate limit', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  it('locks an identifier and the address after 10 failures in 15 minutes, even for the right password', async () => {
    const adminToken = await t.http.login(TEST_ADMIN.email, TEST_ADMIN.password);
    const manager = await createManager(t.http, adminToken);
    for (let i = 0; i < 10; i++) {
      // X-Forwarded-For is not trusted: every attempt counts against this address too.
      const res = await t.http.post(
        '/login',
        { identifier: manager.email, password: 'wrong-password' },
        { headers: { 'x-forwarded-for': `10.0.0.${i}` } },
      );
      expect(res.status).toBe(401);
    }
    const locked = await t.http.post('/login', { identifier: manager.email, password: manager.password });
    expect(locked.status).toBe(429);
    expect(locked.body.code).toBe('RateLimited');
    const sameAddress = await t.http.post('/login', { identifier: TEST_ADMIN.email, password: TEST_ADMIN.password });
    expect(sameAddress.status).toBe(429);
  });
});
