/**
 * Any role, the password change (docs/security.md): whoever holds a user's token (a stolen one, or a
 * browser left signed in) must not be able to guess the current password without limit, and a
 * password change must end the sessions it is meant to end, open live connections included, in every
 * API process (docs/rest-api.md, "Endpoints": the user's other tokens and live connections end).
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from '@jest/globals';
import { io as connect, type Socket } from 'socket.io-client';
import { startApp, type RunningApp } from '../../../src/bootstrap.js';
import { createAttendant, createManager } from '../../factories/fleet.factory.js';
import { waitFor } from '../../support/mqtt-machine.js';
import { createTestApp, TEST_ADMIN, type TestApp } from '../../support/test-app.js';

/** A live client that records whether and why the server closed it. */
async function openSocket(baseUrl: string, token: string): Promise<{ socket: Socket; closedBy: () => string | null }> {
  const socket = connect(baseUrl, {
    path: '/socket.io',
    auth: { token },
    transports: ['websocket'],
    reconnection: false,
    forceNew: true,
  });
  let reason: string | null = null;
  socket.on('disconnect', (why) => (reason = why));
  await new Promise<void>((resolve, reject) => {
    socket.once('connect', () => resolve());
    socket.once('connect_error', (error) => {
      socket.close();
      reject(error);
    });
  });
  return { socket, closedBy: () => reason };
}

describe('a token holder and the password change', () => {
  let t: TestApp;
  let second: RunningApp;
  let secondUrl: string;
  let admin: string;
  const sockets: Socket[] = [];

  beforeAll(async () => {
    t = await createTestApp();
    // A second API process of the same deployment (same database and Redis prefix).
    second = await startApp({ ...t.config, port: 0, roles: new Set(['api']) });
    secondUrl = `http://127.0.0.1:${second.port}`;
    admin = await t.http.login(TEST_ADMIN.email, TEST_ADMIN.password);
  }, 60_000);
  afterEach(() => sockets.splice(0).forEach((s) => s.close()));
  afterAll(async () => {
    await second?.close();
    await t.close();
  }, 30_000);

  const change = (token: string, currentPassword: string, newPassword = 'a-brand-new-password') =>
    t.http.post('/user/password', { currentPassword, newPassword }, { token });

  it('refuses the 11th wrong current password in 15 minutes with 429, even when it is the right one', async () => {
    const manager = await createManager(t.http, admin);
    const statuses: number[] = [];
    for (let i = 0; i < 10; i++) statuses.push((await change(manager.token, `guess-number-${i}`)).status);
    expect(statuses).toEqual(Array(10).fill(422));
    const guessed = await change(manager.token, manager.password);
    expect(guessed.status).toBe(429);
    expect(guessed.body).toMatchObject({ statusCode: 429, code: 'RateLimited' });
    // A fresh token of the same user does not start a new count.
    const fresh = await t.http.login(manager.email, manager.password);
    expect((await change(fresh, manager.password)).status).toBe(429);
    expect((await change(fresh, 'guess-number-11')).status).toBe(429);
    // The password did not change.
    expect((await t.http.post('/login', { identifier: manager.email, password: manager.password })).status).toBe(200);
  }, 60_000);

  it('counts the wrong current passwords per user: another user is not limited', async () => {
    const victim = await createManager(t.http, admin);
    const bystander = await createManager(t.http, admin);
    for (let i = 0; i < 11; i++) await change(victim.token, `guess-${i}`);
    expect((await change(bystander.token, 'not-it')).status).toBe(422);
    expect((await change(bystander.token, bystander.password)).status).toBe(200);
  }, 60_000);

  it('closes the user’s open live connections, in every API process, when the password changes', async () => {
    const manager = await createManager(t.http, admin);
    const attendant = await createAttendant(t.http, manager.token, manager.devices[0]!.espId);
    const here = await openSocket(t.baseUrl, manager.token);
    const there = await openSocket(secondUrl, await t.http.login(manager.email, manager.password));
    const bystander = await openSocket(secondUrl, attendant.token);
    sockets.push(here.socket, there.socket, bystander.socket);

    expect((await change(manager.token, manager.password)).status).toBe(200);

    await waitFor(
      async () => [here.closedBy(), there.closedBy()],
      (reasons) => reasons.every((r) => r !== null),
      10_000,
    );
    expect(here.closedBy()).toBe('io server disconnect');
    expect(there.closedBy()).toBe('io server disconnect');
    // Other users' connections stay open.
    expect(bystander.socket.connected).toBe(true);
    // The old token cannot open a new one.
    await expect(openSocket(t.baseUrl, manager.token)).rejects.toThrow();
  }, 60_000);
});
