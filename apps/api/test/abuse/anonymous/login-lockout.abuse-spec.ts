/**
 * Anonymous internet, sign-in (docs/security.md): a password guesser who spreads the guesses over the
 * many spellings of one identifier (phone formats, email cases) and over many addresses still gets at
 * most 10 guesses in 15 minutes per account, and an identifier that names nobody is limited alike, so
 * the answers do not tell which accounts exist (OWASP Authentication Cheat Sheet, account lockout).
 */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { request } from 'node:http';
import { createManager } from '../../factories/fleet.factory.js';
import { createTestApp, TEST_ADMIN, type TestApp } from '../../support/test-app.js';

/** The whole of 127.0.0.0/8 is loopback on Linux: each guess can come from its own address. */
let nextAddress = 10;
const freshAddress = () => `127.0.${Math.floor(nextAddress / 250)}.${(nextAddress++ % 250) + 2}`;

/** POST /api/login from `localAddress`; resolves with the status. */
function loginFrom(t: TestApp, localAddress: string, identifier: string, password: string): Promise<number> {
  const url = new URL(`${t.baseUrl}/api/login`);
  const body = JSON.stringify({ identifier, password });
  return new Promise((resolve, reject) => {
    const req = request(
      {
        host: url.hostname,
        port: url.port,
        path: url.pathname,
        method: 'POST',
        localAddress,
        headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) },
        timeout: 20_000,
      },
      (res) => {
        res.resume();
        res.once('end', () => resolve(res.statusCode ?? 0));
      },
    );
    req.once('error', reject);
    req.once('timeout', () => req.destroy(new Error('login timed out')));
    req.end(body);
  });
}

/** The spellings the server accepts for one Tanzanian mobile number (`+2557XXXXXXXX`). */
function phoneSpellings(e164: string): string[] {
  const national = e164.slice(4); // 7XXXXXXXX
  const [a, b, c] = [national.slice(0, 3), national.slice(3, 6), national.slice(6)];
  return [
    e164,
    `255${national}`,
    `0${national}`,
    `+255 ${a} ${b} ${c}`,
    `0${a}-${b}-${c}`,
    `255-${a}-${b}-${c}`,
    `+255 (${a}) ${b}.${c}`,
    `00255${national}`,
    ` 0${a} ${b}${c} `,
    `+255-${national}`,
    `0 ${a} ${b} ${c}`,
    `(0${a}) ${b} ${c}`,
  ];
}

const emailSpellings = (email: string) => [
  email,
  email.toUpperCase(),
  email.replace(/^./, (ch) => ch.toUpperCase()),
  email.replace(/\.local$/, '.LOCAL'),
  ` ${email.toUpperCase()} `,
];

describe('anonymous internet: guessing one account’s password under many spellings and addresses', () => {
  let t: TestApp;
  let admin: string;

  beforeAll(async () => {
    t = await createTestApp();
    admin = await t.http.login(TEST_ADMIN.email, TEST_ADMIN.password);
  }, 60_000);
  afterAll(() => t.close(), 30_000);

  it('locks an account after 10 wrong passwords spread over its phone formats and email cases, even for the right password', async () => {
    const manager = await createManager(t.http, admin);
    const spellings = [...phoneSpellings(manager.phoneNumber), ...emailSpellings(manager.email)];
    const statuses: number[] = [];
    for (const identifier of spellings) {
      statuses.push(await loginFrom(t, freshAddress(), identifier, 'wrong-password-1'));
    }
    expect(statuses.slice(0, 10)).toEqual(Array(10).fill(401));
    expect(statuses.slice(10)).toEqual(Array(spellings.length - 10).fill(429));
    // The owner’s right password from yet another address: still locked until the window passes.
    expect(await loginFrom(t, freshAddress(), manager.phoneNumber, manager.password)).toBe(429);
    expect(await loginFrom(t, freshAddress(), manager.email, manager.password)).toBe(429);
    // Another account is not affected.
    expect(await loginFrom(t, freshAddress(), TEST_ADMIN.email, TEST_ADMIN.password)).toBe(200);
  }, 60_000);

  it('allows at most 10 guesses when they all arrive at once', async () => {
    const manager = await createManager(t.http, admin);
    const spellings = phoneSpellings(manager.phoneNumber);
    const statuses = await Promise.all(
      [...spellings, ...spellings].map((identifier) => loginFrom(t, freshAddress(), identifier, 'wrong-password-2')),
    );
    expect(statuses.filter((s) => s === 401).length).toBeLessThanOrEqual(10);
    expect(statuses.filter((s) => s !== 401 && s !== 429)).toEqual([]);
    expect(await loginFrom(t, freshAddress(), manager.email, manager.password)).toBe(429);
  }, 60_000);

  it('limits an identifier that names nobody exactly like one that names an account', async () => {
    const manager = await createManager(t.http, admin);
    const nobody = `+2557${String(Math.floor(Math.random() * 1e8)).padStart(8, '0')}`;
    const answers = async (e164: string) => {
      const statuses: number[] = [];
      for (const identifier of phoneSpellings(e164)) {
        statuses.push(await loginFrom(t, freshAddress(), identifier, 'wrong-password-3'));
      }
      return statuses;
    };
    const forNobody = await answers(nobody);
    const forManager = await answers(manager.phoneNumber);
    expect(forNobody).toEqual([...Array(10).fill(401), 429, 429]);
    expect(forNobody).toEqual(forManager);
  }, 60_000);
});
