import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { randomUUID } from 'node:crypto';
import { createAttendant, createManager, provisionDevice } from '../factories/fleet.factory.js';
import { cardFields, fundAttendant, ledgerViolations, registerCard, sellOnCard } from '../factories/money.factory.js';
import { IdempotencyKeyPurger, IDEMPOTENCY_KEY_RETENTION_MS } from '../../src/ledger/idempotency-key.purger.js';
import { createTestApp, TEST_ADMIN, type TestApp } from '../support/test-app.js';

type Manager = Awaited<ReturnType<typeof createManager>>;
type Attendant = Awaited<ReturnType<typeof createAttendant>>;

/**
 * Money calls under retries and races: Idempotency-Key replays, 422 on a reused key, at-most-once
 * approvals, loads that can never overdraw the float, and a ledger that can never be rewritten.
 */
describe('money: idempotency, races and the immutable ledger', () => {
  let t: TestApp;
  let admin: string;
  let manager: Manager;

  const key = () => ({ 'idempotency-key': randomUUID() });
  const floatOf = async (a: Attendant) =>
    (await t.http.get('/attendant/float-balance', { token: a.token })).body.balance as number;
  const freshAttendant = async () => {
    const device = await provisionDevice(t.http, admin);
    await t.http.post(
      '/add/user/devices',
      { userId: manager.userId, esp32Id: device.espId, machine_location: 'Posta' },
      { token: admin },
    );
    const attendant = await createAttendant(t.http, manager.token, device.espId);
    return { ...attendant, device };
  };

  beforeAll(async () => {
    t = await createTestApp();
    admin = await t.http.login(TEST_ADMIN.email, TEST_ADMIN.password);
    manager = await createManager(t.http, admin, 1);
  });
  afterAll(async () => {
    expect(await ledgerViolations(t.dataSource)).toEqual([]);
    await t.close();
  });

  describe('Idempotency-Key', () => {
    it('keeps keys for the retention and purges older ones, which then count as new calls', async () => {
      const a = await freshAttendant();
      await fundAttendant(t.http, manager.token, a, 100);
      const [oldKey, freshKey] = [key(), key()];
      const body = cardFields({ card_balance: 10 });
      expect((await t.http.post('/att/add/user/card', body, { token: a.token, headers: oldKey })).status).toBe(201);
      const other = cardFields({ card_balance: 10 });
      expect((await t.http.post('/att/add/user/card', other, { token: a.token, headers: freshKey })).status).toBe(201);
      await t.dataSource.query(`UPDATE idempotency_keys SET created_at = now() - $2::interval WHERE key = $1`, [
        oldKey['idempotency-key'],
        `${IDEMPOTENCY_KEY_RETENTION_MS + 60_000} milliseconds`,
      ]);
      expect(await t.running.app.get(IdempotencyKeyPurger).purge()).toBe(1);
      const keys = await t.dataSource.query(`SELECT key FROM idempotency_keys WHERE caller_id = $1`, [a.userId]);
      expect(keys).toEqual([{ key: freshKey['idempotency-key'] }]);
      // The fresh key still replays; the purged one is a new call (a duplicate card, 409).
      const replay = await t.http.post('/att/add/user/card', other, { token: a.token, headers: freshKey });
      expect(replay.headers.get('idempotent-replayed')).toBe('true');
      expect((await t.http.post('/att/add/user/card', body, { token: a.token, headers: oldKey })).status).toBe(409);
      expect(await floatOf(a)).toBe(80);
    });

    it('replays a card registration: same status and body, the card and the load happen once', async () => {
      const a = await freshAttendant();
      await fundAttendant(t.http, manager.token, a, 100);
      const headers = key();
      const body = cardFields({ card_balance: 30 });
      const first = await t.http.post('/att/add/user/card', body, { token: a.token, headers });
      const again = await t.http.post('/att/add/user/card', body, { token: a.token, headers });
      expect(first.status).toBe(201);
      expect(again.status).toBe(201);
      expect(again.body).toEqual(first.body);
      expect(again.headers.get('idempotent-replayed')).toBe('true');
      expect(first.headers.get('idempotent-replayed')).toBeNull();
      expect(await floatOf(a)).toBe(70);
      // Without the key the same body is a new call, refused as a duplicate card.
      expect((await t.http.post('/att/add/user/card', body, { token: a.token })).status).toBe(409);
    });

    it('replays a top-up, a float request, an approval and a rejection without repeating them', async () => {
      const a = await freshAttendant();
      await fundAttendant(t.http, manager.token, a, 50);
      const card = await registerCard(t.http, a.token, { card_balance: 5 });
      const topUp = key();
      for (let i = 0; i < 3; i++) {
        const res = await t.http.post(
          `/att/cards/${card.card_id}/top-up`,
          { amount: 10 },
          { token: a.token, headers: topUp },
        );
        expect([res.status, res.body]).toEqual([201, { card_balance: 15 }]);
      }
      expect(await floatOf(a)).toBe(35);

      const ask = key();
      for (let i = 0; i < 3; i++) {
        const res = await t.http.post('/attendant/request-float', { amount: 7 }, { token: a.token, headers: ask });
        expect([res.status, res.body]).toEqual([201, { message: 'Float request submitted successfully' }]);
      }
      const requests = (await t.http.get('/attendant/float-requests', { token: a.token })).body;
      expect(requests.filter((r: { status: string }) => r.status === 'pending')).toHaveLength(1);

      const approve = key();
      const body = { attendantId: a.userId, amount: 7, requestId: requests[0].requestId };
      for (let i = 0; i < 3; i++) {
        const res = await t.http.post('/manager/assign-float', body, { token: manager.token, headers: approve });
        expect([res.status, res.body]).toEqual([201, { message: 'Float assigned successfully' }]);
      }
      expect(await floatOf(a)).toBe(42);
      expect((await t.http.post('/manager/assign-float', body, { token: manager.token, headers: key() })).status).toBe(
        409,
      );

      await t.http.post('/attendant/request-float', { amount: 1 }, { token: a.token });
      const [pending] = (await t.http.get('/attendant/float-requests', { token: a.token })).body;
      const reject = key();
      for (let i = 0; i < 2; i++) {
        const res = await t.http.post(`/manager/float-requests/${pending.requestId}/reject`, undefined, {
          token: manager.token,
          headers: reject,
        });
        expect(res.status).toBe(200);
      }
    });

    it('refuses the same key with another body, on another route, with 422; other callers’ keys are their own', async () => {
      const a = await freshAttendant();
      const b = await freshAttendant();
      const headers = key();
      expect((await t.http.post('/attendant/request-float', { amount: 5 }, { token: a.token, headers })).status).toBe(
        201,
      );
      const other = await t.http.post('/attendant/request-float', { amount: 6 }, { token: a.token, headers });
      expect(other.status).toBe(422);
      expect(other.body).toMatchObject({
        statusCode: 422,
        code: 'IdempotencyKeyReused',
        error: 'This Idempotency-Key was already used with a different request',
      });
      const card = await t.http.post('/att/add/user/card', cardFields(), { token: a.token, headers });
      expect(card.status).toBe(422);
      // Keys are per caller: another attendant's identical key is a new call.
      const sameKeyB = await t.http.post('/attendant/request-float', { amount: 5 }, { token: b.token, headers });
      expect(sameKeyB.status).toBe(201);
      expect(sameKeyB.headers.get('idempotent-replayed')).toBeNull();
      const [ra, rb] = await Promise.all(
        [a, b].map(async (x) => (await t.http.get('/attendant/float-requests', { token: x.token })).body),
      );
      expect([ra.length, rb.length]).toEqual([1, 1]);
    });

    it('hashes the parsed body: the same fields in another order or with the number written otherwise are the same request', async () => {
      const a = await freshAttendant();
      await fundAttendant(t.http, manager.token, a, 10);
      const headers = key();
      const fields = cardFields({ card_balance: 2 });
      const first = await t.http.post('/att/add/user/card', fields, { token: a.token, headers });
      // The JSON number 2.00 (money is never a string) with the fields in reverse order.
      const reordered = JSON.stringify(Object.fromEntries(Object.entries(fields).reverse())).replace(
        '"card_balance":2',
        '"card_balance":2.00',
      );
      expect(reordered).toContain('"card_balance":2.00');
      const again = await t.http.request('POST', '/att/add/user/card', { token: a.token, headers, rawBody: reordered });
      expect([first.status, again.status]).toEqual([201, 201]);
      expect(again.body).toEqual(first.body);
    });

    it('replays a refusal too: the first answer stands for that key, a new key tries again', async () => {
      const a = await freshAttendant();
      const headers = key();
      const body = cardFields({ card_balance: 20 });
      const refused = await t.http.post('/att/add/user/card', body, { token: a.token, headers });
      expect(refused.status).toBe(422);
      await fundAttendant(t.http, manager.token, a, 20);
      const replayed = await t.http.post('/att/add/user/card', body, { token: a.token, headers });
      expect([replayed.status, replayed.body]).toEqual([422, refused.body]);
      expect(replayed.headers.get('idempotent-replayed')).toBe('true');
      expect((await t.http.post('/att/add/user/card', body, { token: a.token, headers: key() })).status).toBe(201);
      expect(await floatOf(a)).toBe(0);
    });

    it('runs ten concurrent deliveries of one key once and answers all of them alike', async () => {
      const a = await freshAttendant();
      await fundAttendant(t.http, manager.token, a, 100);
      const headers = key();
      const body = cardFields({ card_balance: 60 });
      const results = await Promise.all(
        Array.from({ length: 10 }, () => t.http.post('/att/add/user/card', body, { token: a.token, headers })),
      );
      expect(results.map((r) => r.status)).toEqual(Array(10).fill(201));
      expect(new Set(results.map((r) => r.body.id)).size).toBe(1);
      expect(results.filter((r) => r.headers.get('idempotent-replayed') === 'true')).toHaveLength(9);
      expect(await floatOf(a)).toBe(40);
    });

    it('stores the key, the request hash and the answer with the movement', async () => {
      const a = await freshAttendant();
      const headers = key();
      await t.http.post('/attendant/request-float', { amount: 3 }, { token: a.token, headers });
      const rows = await t.dataSource.query(
        `SELECT status_code, response, length(request_hash) AS hash FROM idempotency_keys WHERE caller_id = $1 AND key = $2`,
        [a.userId, headers['idempotency-key']],
      );
      expect(rows).toEqual([
        { status_code: 201, response: { message: 'Float request submitted successfully' }, hash: 64 },
      ]);
    });

    it('refuses a malformed key with 400 naming the header', async () => {
      const a = await freshAttendant();
      const res = await t.http.post(
        '/attendant/request-float',
        { amount: 1 },
        {
          token: a.token,
          headers: { 'idempotency-key': 'x'.repeat(256) },
        },
      );
      expect(res.status).toBe(400);
      expect(res.body.fields).toEqual([{ path: 'Idempotency-Key', message: expect.any(String) }]);
      expect((await t.http.get('/attendant/float-requests', { token: a.token })).body).toEqual([]);
    });
  });

  describe('races', () => {
    it('never overdraws the float when twenty card loads race for it', async () => {
      const a = await freshAttendant();
      await fundAttendant(t.http, manager.token, a, 100);
      const results = await Promise.all(
        Array.from({ length: 20 }, () =>
          t.http.post('/att/add/user/card', cardFields({ card_balance: 10 }), { token: a.token }),
        ),
      );
      expect(results.filter((r) => r.status === 201)).toHaveLength(10);
      expect(results.filter((r) => r.status === 422)).toHaveLength(10);
      expect(await floatOf(a)).toBe(0);
    });

    it('never overdraws the float when top-ups and loads race, and every balance stays the sum of its entries', async () => {
      const a = await freshAttendant();
      await fundAttendant(t.http, manager.token, a, 50);
      const card = await registerCard(t.http, a.token, { card_balance: 5 });
      const results = await Promise.all([
        ...Array.from({ length: 10 }, () =>
          t.http.post(`/att/cards/${card.card_id}/top-up`, { amount: 4.5 }, { token: a.token }),
        ),
        ...Array.from({ length: 5 }, () =>
          t.http.post('/att/add/user/card', cardFields({ card_balance: 4.5 }), { token: a.token }),
        ),
        sellOnCard(t.http, t.dataSource, a.device, card.card_id, 2).then(() => ({ status: 0 })),
      ]);
      const spent = results.filter((r) => r.status === 201).length * 4.5;
      expect(spent).toBe(45);
      expect(await floatOf(a)).toBe(0);
      expect(await ledgerViolations(t.dataSource)).toEqual([]);
    });

    it('keeps two same card ids registered at once down to one card', async () => {
      const a = await freshAttendant();
      const b = await freshAttendant();
      await fundAttendant(t.http, manager.token, a, 10);
      await fundAttendant(t.http, manager.token, b, 10);
      const body = cardFields({ card_balance: 10 });
      const results = await Promise.all([a, b].map((x) => t.http.post('/att/add/user/card', body, { token: x.token })));
      expect(results.map((r) => r.status).sort()).toEqual([201, 409]);
      expect((await floatOf(a)) + (await floatOf(b))).toBe(10);
    });
  });

  describe('the ledger', () => {
    it('refuses to change or delete a ledger entry or an audit entry', async () => {
      const a = await freshAttendant();
      await fundAttendant(t.http, manager.token, a, 1);
      await expect(t.dataSource.query(`UPDATE ledger_entries SET amount = amount * 2`)).rejects.toThrow(/immutable/);
      await expect(t.dataSource.query(`DELETE FROM ledger_entries`)).rejects.toThrow(/immutable/);
      await expect(t.dataSource.query(`UPDATE audit_log SET actor_id = NULL`)).rejects.toThrow(/immutable/);
    });

    it('refuses a negative float balance even from a statement that bypasses the service', async () => {
      const a = await freshAttendant();
      await fundAttendant(t.http, manager.token, a, 1);
      await expect(
        t.dataSource.query(`UPDATE float_accounts SET balance = balance - 2 WHERE attendant_id = $1`, [a.userId]),
      ).rejects.toThrow(/float_accounts_not_negative/);
    });

    it('records each movement with its actor and time, and its audit entry with before and after', async () => {
      const a = await freshAttendant();
      await fundAttendant(t.http, manager.token, a, 8);
      const [entry] = await t.dataSource.query(
        `SELECT kind, amount::float8 AS amount, balance_after::float8 AS after, actor_id, created_at FROM ledger_entries
         WHERE account_type = 'float' AND account_id = $1`,
        [a.userId],
      );
      expect(entry).toEqual({
        kind: 'float_approval',
        amount: 8,
        after: 8,
        actor_id: manager.userId,
        created_at: expect.any(Date),
      });
      const [audit] = await t.dataSource.query(
        `SELECT actor_id, action, before, after FROM audit_log WHERE entity = 'float' AND entity_id = $1`,
        [a.userId],
      );
      expect(audit).toMatchObject({
        actor_id: manager.userId,
        action: 'ledger.float_approval',
        before: { balance: 0 },
        after: { balance: 8, amount: 8, kind: 'float_approval' },
      });
    });
  });
});
