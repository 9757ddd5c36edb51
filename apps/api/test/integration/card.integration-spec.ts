import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { createAttendant, createManager } from '../factories/fleet.factory.js';
import {
  cardFields,
  fundAttendant,
  ledgerViolations,
  newCardId,
  registerCard,
  sellOnCard,
} from '../factories/money.factory.js';
import { createTestApp, TEST_ADMIN, type TestApp } from '../support/test-app.js';

type Manager = Awaited<ReturnType<typeof createManager>>;
type Attendant = Awaited<ReturnType<typeof createAttendant>>;

/** docs/rest-api.md, "Endpoints": cards are registered and topped up from float, and read within the tenant's scope. */
describe('cards', () => {
  let t: TestApp;
  let admin: string;
  let managerA: Manager;
  let managerB: Manager;
  let attendantA: Attendant;
  let attendantA2: Attendant;
  let attendantB: Attendant;

  const floatOf = async (a: Attendant) =>
    (await t.http.get('/attendant/float-balance', { token: a.token })).body.balance as number;

  beforeAll(async () => {
    t = await createTestApp();
    admin = await t.http.login(TEST_ADMIN.email, TEST_ADMIN.password);
    managerA = await createManager(t.http, admin, 3);
    managerB = await createManager(t.http, admin, 1);
    attendantA = await createAttendant(t.http, managerA.token, managerA.devices[0]!.espId);
    attendantA2 = await createAttendant(t.http, managerA.token, managerA.devices[1]!.espId);
    attendantB = await createAttendant(t.http, managerB.token, managerB.devices[0]!.espId);
    await fundAttendant(t.http, managerA.token, attendantA, 1000);
    await fundAttendant(t.http, managerA.token, attendantA2, 100);
    await fundAttendant(t.http, managerB.token, attendantB, 100);
  });
  afterAll(async () => {
    expect(await ledgerViolations(t.dataSource)).toEqual([]);
    await t.close();
  });

  describe('POST /att/add/user/card', () => {
    it('registers the card at the attendant’s machine, loading its balance from float, and answers 201 {id}', async () => {
      const before = await floatOf(attendantA);
      const fields = cardFields({ card_balance: 250.5, phoneNumber: '0712 000 111' });
      const res = await t.http.post('/att/add/user/card', fields, { token: attendantA.token });
      expect(res.status).toBe(201);
      expect(res.body).toEqual({ id: expect.stringMatching(/^[0-9a-f-]{36}$/) });
      expect(await floatOf(attendantA)).toBe(before - 250.5);
      const cards = await t.http.get(`/cards/${attendantA.espId}`, { token: attendantA.token });
      expect(cards.body).toContainEqual({
        id: res.body.id,
        card_id: fields.card_id,
        card_holder_first_name: 'Asha',
        card_holder_last_name: 'Mwita',
        phoneNumber: '+255712000111',
        card_balance: 250.5,
        card_type: 'household',
        date_registered: expect.any(String),
        status: 'active',
        dailyLimitLitres: null,
      });
      const entries = await t.dataSource.query(
        `SELECT account_type, kind, amount::float8 AS amount, actor_id FROM ledger_entries WHERE reference = (
           SELECT reference FROM ledger_entries WHERE account_type = 'card' AND account_id = $1) ORDER BY amount`,
        [res.body.id],
      );
      expect(entries).toEqual([
        { account_type: 'float', kind: 'load', amount: -250.5, actor_id: attendantA.userId },
        { account_type: 'card', kind: 'load', amount: 250.5, actor_id: attendantA.userId },
      ]);
    });

    it('refuses a card id registered anywhere in the system with 409 "Card is already registered"', async () => {
      const card = await registerCard(t.http, attendantA.token, { card_balance: 1 });
      const floatB = await floatOf(attendantB);
      const res = await t.http.post('/att/add/user/card', cardFields({ card_id: card.card_id, card_balance: 5 }), {
        token: attendantB.token,
      });
      expect(res.status).toBe(409);
      expect(res.body).toMatchObject({
        statusCode: 409,
        code: 'CardAlreadyRegistered',
        error: 'Card is already registered',
        message: 'Card is already registered',
      });
      expect(await floatOf(attendantB)).toBe(floatB);
    });

    it('refuses a load larger than the float with 422 "Insufficient float balance" and registers nothing', async () => {
      const fields = cardFields({ card_balance: (await floatOf(attendantA2)) + 0.01 });
      const res = await t.http.post('/att/add/user/card', fields, { token: attendantA2.token });
      expect(res.status).toBe(422);
      expect(res.body).toMatchObject({ code: 'InsufficientFloat', error: 'Insufficient float balance' });
      const rows = await t.dataSource.query(`SELECT 1 FROM cards WHERE card_id = $1`, [fields.card_id]);
      expect(rows).toEqual([]);
      expect(await floatOf(attendantA2)).toBe(100);
    });

    it('registers a card with a zero balance without any float', async () => {
      const fresh = await createAttendant(t.http, managerA.token, managerA.devices[2]!.espId);
      const res = await t.http.post('/att/add/user/card', cardFields({ card_balance: 0 }), { token: fresh.token });
      expect(res.status).toBe(201);
      expect(await floatOf(fresh)).toBe(0);
    });

    it('names each bad field with 400: negative or 3-decimal balance, long card type, missing names', async () => {
      for (const [override, field] of [
        [{ card_balance: -1 }, 'card_balance'],
        [{ card_balance: 1.005 }, 'card_balance'],
        [{ card_type: 'x'.repeat(33) }, 'card_type'],
        [{ card_holder_first_name: '' }, 'card_holder_first_name'],
        [{ card_id: '' }, 'card_id'],
        [{ phoneNumber: 'not a phone' }, 'phoneNumber'],
      ] as const) {
        const res = await t.http.post('/att/add/user/card', cardFields(override), { token: attendantA.token });
        expect({ field, status: res.status }).toEqual({ field, status: 400 });
        expect(res.body.fields.map((f: { path: string }) => f.path)).toContain(field);
      }
    });

    it('is for attendants only', async () => {
      const body = cardFields();
      expect((await t.http.post('/att/add/user/card', body)).status).toBe(401);
      expect((await t.http.post('/att/add/user/card', body, { token: managerA.token })).status).toBe(403);
      expect((await t.http.post('/att/add/user/card', body, { token: admin })).status).toBe(403);
    });
  });

  describe('POST /att/cards/{card_id}/top-up', () => {
    it('moves float onto the card and answers 201 {card_balance}', async () => {
      const card = await registerCard(t.http, attendantA.token, { card_balance: 10 });
      const before = await floatOf(attendantA);
      const res = await t.http.post(`/att/cards/${card.card_id}/top-up`, { amount: 0.3 }, { token: attendantA.token });
      expect(res.status).toBe(201);
      expect(res.body).toEqual({ card_balance: 10.3 });
      expect(await floatOf(attendantA)).toBe(Math.round((before - 0.3) * 100) / 100);
    });

    it('answers 404 for an unknown card and for a card of another machine', async () => {
      const other = await registerCard(t.http, attendantA2.token, { card_balance: 1 });
      for (const cardId of [newCardId(), other.card_id]) {
        const res = await t.http.post(`/att/cards/${cardId}/top-up`, { amount: 1 }, { token: attendantA.token });
        expect(res.status).toBe(404);
        expect(res.body).toMatchObject({ code: 'CardNotFound' });
      }
    });

    it('refuses more than the float with 422 and leaves both balances alone', async () => {
      const card = await registerCard(t.http, attendantA2.token, { card_balance: 2 });
      const before = await floatOf(attendantA2);
      const res = await t.http.post(
        `/att/cards/${card.card_id}/top-up`,
        { amount: before + 1 },
        { token: attendantA2.token },
      );
      expect(res.status).toBe(422);
      expect(res.body).toMatchObject({ code: 'InsufficientFloat', error: 'Insufficient float balance' });
      expect(await floatOf(attendantA2)).toBe(before);
      const [row] = await t.dataSource.query(`SELECT balance::float8 AS b FROM cards WHERE card_id = $1`, [
        card.card_id,
      ]);
      expect(row.b).toBe(2);
    });

    it('refuses an amount that is not above 0 with 400, and callers other than attendants', async () => {
      const card = await registerCard(t.http, attendantA.token);
      for (const amount of [0, -5, 'abc']) {
        const res = await t.http.post(`/att/cards/${card.card_id}/top-up`, { amount }, { token: attendantA.token });
        expect(res.status).toBe(400);
      }
      expect((await t.http.post(`/att/cards/${card.card_id}/top-up`, { amount: 1 })).status).toBe(401);
      const asManager = await t.http.post(
        `/att/cards/${card.card_id}/top-up`,
        { amount: 1 },
        { token: managerA.token },
      );
      expect(asManager.status).toBe(403);
    });
  });

  describe('reads within the tenant’s scope', () => {
    let card: Awaited<ReturnType<typeof registerCard>>;

    beforeAll(async () => {
      card = await registerCard(t.http, attendantA.token, { card_balance: 20 });
      await t.http.post(`/att/cards/${card.card_id}/top-up`, { amount: 5 }, { token: attendantA.token });
      await sellOnCard(t.http, t.dataSource, managerA.devices[0]!, card.card_id, 15);
      await sellOnCard(t.http, t.dataSource, managerA.devices[1]!, card.card_id, 12.5);
    });

    it('GET /cards/{esp32Id}: the attendant’s machine, the owner and admins; others get 404', async () => {
      const path = `/cards/${attendantA.espId}`;
      const expected: [string | undefined, number][] = [
        [undefined, 401],
        [attendantA.token, 200],
        [attendantA2.token, 404],
        [managerA.token, 200],
        [managerB.token, 404],
        [attendantB.token, 404],
        [admin, 200],
      ];
      for (const [token, status] of expected) expect((await t.http.get(path, { token })).status).toBe(status);
      const own = await t.http.get(path, { token: managerA.token });
      expect(own.body.map((c: { card_id: string }) => c.card_id)).toContain(card.card_id);
      expect((await t.http.get(`/cards/ESP-NOPE`, { token: admin })).status).toBe(404);
      const bCards = await t.http.get(`/cards/${attendantB.espId}`, { token: managerB.token });
      expect(JSON.stringify(bCards.body)).not.toContain(card.card_id);
    });

    it('GET /transactions/{card_id}: loads, top-ups and sales, signed, newest first, with flags', async () => {
      const res = await t.http.get(`/transactions/${card.card_id}`, { token: managerA.token });
      expect(res.status).toBe(200);
      const rows = res.body as { kind: string; amount: number; flag: string | null; created_at: string }[];
      expect(rows.map((r) => [r.kind, r.amount, r.flag])).toEqual([
        ['sale', -12.5, 'overdrawn'],
        ['sale', -15, null],
        ['top-up', 5, null],
        ['load', 20, null],
      ]);
      for (const r of res.body) {
        expect(r).toEqual({
          id: expect.any(String),
          transaction_id: expect.any(String),
          amount: expect.any(Number),
          created_at: expect.any(String),
          card_type: 'household',
          kind: expect.any(String),
          flag: r.flag,
        });
      }
      const times = rows.map((r) => Date.parse(r.created_at));
      expect([...times].sort((a, b) => b - a)).toEqual(times);
      const [row] = await t.dataSource.query(`SELECT balance::float8 AS b FROM cards WHERE card_id = $1`, [
        card.card_id,
      ]);
      expect(row.b).toBe(-2.5);
    });

    it('GET /transactions/{card_id}: scoped by the card’s machine', async () => {
      const path = `/transactions/${card.card_id}`;
      const expected: [string | undefined, number][] = [
        [undefined, 401],
        [attendantA.token, 200],
        [attendantA2.token, 404],
        [managerA.token, 200],
        [managerB.token, 404],
        [attendantB.token, 404],
        [admin, 200],
      ];
      for (const [token, status] of expected) expect((await t.http.get(path, { token })).status).toBe(status);
      expect((await t.http.get(`/transactions/${newCardId()}`, { token: admin })).status).toBe(404);
    });

    it('GET /transactions/{card_id}: sales made before the card was registered show as unknown_card', async () => {
      const cardId = newCardId();
      await sellOnCard(t.http, t.dataSource, managerA.devices[0]!, cardId, 3);
      await registerCard(t.http, attendantA.token, { card_id: cardId, card_balance: 4 });
      const res = await t.http.get(`/transactions/${cardId}`, { token: attendantA.token });
      expect(res.body.map((r: { kind: string; flag: string | null }) => [r.kind, r.flag])).toEqual([
        ['load', null],
        ['sale', 'unknown_card'],
      ]);
    });

    it('GET /cards/summary: every machine in scope with its count, zeros included', async () => {
      const a = await t.http.get('/cards/summary', { token: managerA.token });
      expect(a.status).toBe(200);
      expect(Object.keys(a.body).sort()).toEqual(managerA.devices.map((d) => d.espId).sort());
      const [counts] = await t.dataSource.query(
        `SELECT json_object_agg(d.esp_id, (SELECT count(*) FROM cards c WHERE c.esp_id = d.esp_id)) AS j
         FROM devices d WHERE owner_id = $1`,
        [managerA.userId],
      );
      expect(a.body).toEqual(counts.j);
      const b = await t.http.get('/cards/summary', { token: managerB.token });
      expect(Object.keys(b.body)).toEqual([managerB.devices[0]!.espId]);
      const all = await t.http.get('/cards/summary', { token: admin });
      expect(all.body).toMatchObject({ ...a.body, ...b.body });
      const fresh = await createManager(t.http, admin, 1);
      expect((await t.http.get('/cards/summary', { token: fresh.token })).body).toEqual({
        [fresh.devices[0]!.espId]: 0,
      });
      expect((await t.http.get('/cards/summary', { token: attendantA.token })).status).toBe(403);
      expect((await t.http.get('/cards/summary')).status).toBe(401);
    });
  });
});
