import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { createManager, personFields, provisionDevice } from '../factories/fleet.factory.js';
import { createTestApp, TEST_ADMIN, type TestApp } from '../support/test-app.js';

describe('hardening', () => {
  let t: TestApp;
  let admin: string;
  beforeAll(async () => {
    t = await createTestApp({ CORS_ORIGIN: 'https://ops.example.com', HTTP_RATE_LIMIT: '40' });
    admin = await t.http.login(TEST_ADMIN.email, TEST_ADMIN.password);
  });
  afterAll(() => t.close());

  it('sends security headers and a content security policy', async () => {
    const res = await fetch(`${t.baseUrl}/api/health`);
    expect(res.headers.get('x-content-type-options')).toBe('nosniff');
    expect(res.headers.get('x-frame-options')).toBe('SAMEORIGIN');
    expect(res.headers.get('content-security-policy')).toMatch(/default-src 'self'.*frame-ancestors 'none'/);
    expect(res.headers.get('x-powered-by')).toBeNull();
  });

  it('allows CORS only for the configured origin', async () => {
    const allowed = await fetch(`${t.baseUrl}/api/health`, { headers: { origin: 'https://ops.example.com' } });
    expect(allowed.headers.get('access-control-allow-origin')).toBe('https://ops.example.com');
    const other = await fetch(`${t.baseUrl}/api/health`, { headers: { origin: 'https://evil.example.net' } });
    expect(other.headers.get('access-control-allow-origin')).toBeNull();
  });

  it('ends every other session when a user changes their password, and keeps the caller signed in', async () => {
    const manager = await createManager(t.http, admin);
    const other = await t.http.login(manager.email, manager.password);
    const tooShort = await t.http.post(
      '/user/password',
      { currentPassword: manager.password, newPassword: 'short' },
      { token: manager.token },
    );
    expect(tooShort.status).toBe(400);
    expect(tooShort.body.message).toMatch(/at least 8 characters/);
    const wrong = await t.http.post(
      '/user/password',
      { currentPassword: 'not-my-password', newPassword: 'a-new-password' },
      { token: manager.token },
    );
    expect(wrong).toMatchObject({ status: 422, body: { code: 'WrongCurrentPassword' } });

    const changed = await t.http.post(
      '/user/password',
      { currentPassword: manager.password, newPassword: 'a-new-password' },
      { token: manager.token },
    );
    expect(changed.status).toBe(200);
    expect((await t.http.get('/user/info', { token: manager.token })).status).toBe(401);
    expect((await t.http.get('/user/info', { token: other })).status).toBe(401);
    // Signing in again at once (another device, the same second) gives a token that works at once.
    const again = await t.http.login(manager.email, 'a-new-password');
    expect((await t.http.get('/user/info', { token: again })).status).toBe(200);
    expect((await t.http.get('/user/info', { token: changed.body.token })).status).toBe(200);
    expect((await t.http.post('/login', { identifier: manager.email, password: manager.password })).status).toBe(401);
    expect((await t.http.post('/login', { identifier: manager.email, password: 'a-new-password' })).status).toBe(200);
  });

  it('refuses passwords shorter than 8 characters at registration', async () => {
    const device = await provisionDevice(t.http, admin);
    const res = await t.http.post(
      '/admin/register-user',
      { ...personFields('short'), password: 'abc1234', esp32Id: device.espId, machine_location: 'x' },
      { token: admin },
    );
    expect(res.status).toBe(400);
    expect(res.body.fields).toContainEqual({ path: 'password', message: 'Password must be at least 8 characters' });
  });

  it('rate-limits anonymous callers per address with 429', async () => {
    const statuses: number[] = [];
    for (let i = 0; i < 60; i++) statuses.push((await fetch(`${t.baseUrl}/api/health/live`)).status);
    expect(statuses.filter((s) => s === 429).length).toBeGreaterThan(0);
    expect(statuses.slice(0, 5)).toEqual([200, 200, 200, 200, 200]);
    const limited = await fetch(`${t.baseUrl}/api/health/live`);
    expect(await limited.json()).toMatchObject({ statusCode: 429, code: 'RateLimited' });
  });
});
