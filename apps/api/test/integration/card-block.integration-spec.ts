import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { randomUUID } from 'node:crypto';
import { createAttendant, createManager } from '../factories/fleet.factory.js';
import { fundAttendant, ledgerViolations, newCardId, registerCard } from '../factories/money.factory.js';
import { saleMessage } from '../factories/sales.factory.js';
import { DomainEvents } from '../../src/events/domain-events.js';
import { TestMachine, waitFor } from '../support/mqtt-machine.js';
import { createTestApp, TEST_ADMIN, type TestApp } from '../support/test-app.js';

type Manager = Awaited<ReturnType<typeof createManager>>;
type Attendant = Awaited<ReturnType<typeof createAttendant>>;

/**
 * docs/rest-api.md, "Selling offline": cards are blocked, unblocked, replaced and limited by the
 * people who may (the attendant of a machine where the card works, the owner manager, admins), within
 * the tenant; sales made with them anyway are kept, charged and flagged.
 */
describe('card controls: block, unblock, replace, limits', () => {
  let t: TestApp;
  let admin: string;
  let managerA: Manager;
  let managerB: Manager;
  let attA0: Attendant;
  let attA1: Attendant;
  let attB0: Attendant;
  let machine: TestMachine;
  const changed: string[] = [];

  const newCard = async (balance = 100) => {
    await fundAttendant(t.http, managerA.token, attA0, balance);
    return registerCard(t.http, attA0.token, { card_balance: balance });
  };
  const cardRow = async (cardId: string, token = managerA.token) => {
    const res = await t.http.get(`/cards/${managerA.devices[0]!.espId}`, { token });
    return (res.body as { card_id: string }[]).find((c) => c.card_id === cardId) as Record<string, unknown>;
  };
  const balanceOf = async (cardId: string) =>
    (await t.dataSource.query(`SELECT balance::float8 AS b FROM cards WHERE card_id = $1`, [cardId]))[0].b as number;
  const flagOf = async (eventId: string) =>
    (await t.dataSource.query(`SELECT flag FROM sales WHERE event_id = $1`, [eventId]))[0].flag as string | null;
  const sell = async (sales: ReturnType<typeof saleMessage>[]) => {
    await machine.publishSales(sales);
    await machine.waitForAcks(sales.map((s) => s.eventId));
  };

  beforeAll(async () => {
    t = await createTestApp();
    admin = await t.http.login(TEST_ADMIN.email, TEST_ADMIN.password);
    managerA = await createManager(t.http, admin, 2);
    managerB = await createManager(t.http, admin, 1);
    attA0 = await createAttendant(t.http, managerA.token, managerA.devices[0]!.espId);
    attA1 = await createAttendant(t.http, managerA.token, managerA.devices[1]!.espId);
    attB0 = await createAttendant(t.http, managerB.token, managerB.devices[0]!.espId);
    const d = managerA.devices[0]!;
    machine = await TestMachine.connect(t.mqttPort, d.espId, d.deviceKey);
    t.running.app.get(DomainEvents).on('cards.changed', (e) => void changed.push(...e.cardIds));
  });
  afterAll(async () => {
    await machine.end();
    expect(await ledgerViolations(t.dataSource)).toEqual([]);
    await t.close();
  });

  describe('block and unblock', () => {
    it('lets the attendant of another machine of the owner block a card, answering the card; lists show it', async () => {
      const card = await newCard();
      const res = await t.http.post(`/cards/${card.card_id}/block`, { reason: 'lost' }, { token: attA1.token });
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({ card_id: card.card_id, status: 'blocked', card_balance: 100 });
      expect(await cardRow(card.card_id)).toMatchObject({ status: 'blocked', dailyLimitLitres: null });
      await waitFor(
        async () => changed,
        (c) => c.includes(card.card_id),
      );
      const audit = await t.dataSource.query(
        `SELECT actor_id AS "actorId", after->>'status' AS status FROM audit_log WHERE action = 'card.blocked' AND entity_id = $1`,
        [card.card_id],
      );
      expect(audit).toEqual([{ actorId: attA1.userId, status: 'blocked' }]);
    });

    it('answers 409 to blocking a blocked card and to unblocking an active one', async () => {
      const card = await newCard();
      expect(
        (await t.http.post(`/cards/${card.card_id}/unblock`, undefined, { token: managerA.token })).body,
      ).toMatchObject({ statusCode: 409, code: 'CardNotBlocked' });
      expect(
        (await t.http.post(`/cards/${card.card_id}/block`, { reason: 'x' }, { token: managerA.token })).status,
      ).toBe(200);
      const again = await t.http.post(`/cards/${card.card_id}/block`, { reason: 'x' }, { token: admin });
      expect(again.status).toBe(409);
      expect(again.body).toMatchObject({ code: 'CardAlreadyBlocked' });
      const unblocked = await t.http.post(`/cards/${card.card_id}/unblock`, undefined, { token: attA0.token });
      expect(unblocked.status).toBe(200);
      expect(unblocked.body).toMatchObject({ status: 'active' });
      expect((await cardRow(card.card_id)).status).toBe('active');
    });

    it('keeps other tenants, anonymous callers and machines out; names bad input with 400', async () => {
      const card = await newCard();
      const path = `/cards/${card.card_id}/block`;
      for (const token of [managerB.token, attB0.token]) {
        const res = await t.http.post(path, { reason: 'stolen' }, { token });
        expect(res.status).toBe(404);
        expect(res.body).toMatchObject({ code: 'CardNotFound' });
      }
      expect((await t.http.post(path, { reason: 'stolen' })).status).toBe(401);
      const d = managerA.devices[0]!;
      expect((await t.http.post(path, { reason: 'stolen' }, { headers: { 'x-device-key': d.deviceKey } })).status).toBe(
        401,
      );
      expect((await t.http.post(`/cards/${newCardId()}/block`, { reason: 'x' }, { token: admin })).status).toBe(404);
      for (const body of [{}, { reason: '' }, { reason: 'x'.repeat(201) }, { reason: 'x', status: 'active' }]) {
        const res = await t.http.post(path, body, { token: managerA.token });
        expect({ body, status: res.status }).toEqual({ body, status: 400 });
      }
      const unblock = `/cards/${card.card_id}/unblock`;
      expect((await t.http.post(unblock, undefined, { token: managerB.token })).status).toBe(404);
      expect((await t.http.post(unblock, undefined, { token: attB0.token })).status).toBe(404);
      expect((await t.http.post(unblock)).status).toBe(401);
      expect((await cardRow(card.card_id)).status).toBe('active');
    });

    it('flags a sale on a blocked card blocked_card when made after the block, and still charges it', async () => {
      const card = await newCard();
      const beforeBlock = saleMessage({
        kind: 'card',
        cardId: card.card_id,
        price: 10,
        offline: true,
        time: new Date(Date.now() - 120_000).toISOString(),
      });
      expect(
        (await t.http.post(`/cards/${card.card_id}/block`, { reason: 'lost' }, { token: attA0.token })).status,
      ).toBe(200);
      const afterBlock = saleMessage({ kind: 'card', cardId: card.card_id, price: 15, offline: true });
      await sell([beforeBlock, afterBlock]);
      expect(await flagOf(beforeBlock.eventId)).toBeNull();
      expect(await flagOf(afterBlock.eventId)).toBe('blocked_card');
      expect(await balanceOf(card.card_id)).toBe(75);
    });
  });

  describe('limits', () => {
    it('lets the owner manager and admins set and clear a daily limit; attendants 403, other tenants 404', async () => {
      const card = await newCard();
      const path = `/cards/${card.card_id}/limits`;
      const set = await t.http.put(path, { dailyLimitLitres: 12.5 }, { token: managerA.token });
      expect(set.status).toBe(200);
      expect(set.body).toMatchObject({ card_id: card.card_id, dailyLimitLitres: 12.5, status: 'active' });
      expect((await cardRow(card.card_id, attA0.token)).dailyLimitLitres).toBe(12.5);
      expect((await t.http.put(path, { dailyLimitLitres: 20 }, { token: attA0.token })).status).toBe(403);
      expect((await t.http.put(path, { dailyLimitLitres: 20 }, { token: managerB.token })).status).toBe(404);
      expect((await t.http.put(path, { dailyLimitLitres: 20 })).status).toBe(401);
      for (const dailyLimitLitres of [0, -1, '5', 1.0005, 100_001, undefined]) {
        const res = await t.http.put(path, { dailyLimitLitres }, { token: admin });
        expect({ dailyLimitLitres, status: res.status }).toEqual({ dailyLimitLitres, status: 400 });
      }
      const cleared = await t.http.put(path, { dailyLimitLitres: null }, { token: admin });
      expect(cleared.body).toMatchObject({ dailyLimitLitres: null });
      expect(changed.filter((c) => c === card.card_id).length).toBeGreaterThanOrEqual(2);
    });

    it('flags the sale that takes the card past its daily limit over_limit, and still charges it', async () => {
      const card = await newCard();
      await t.http.put(`/cards/${card.card_id}/limits`, { dailyLimitLitres: 10 }, { token: managerA.token });
      const base = Date.now() - 60_000;
      const first = saleMessage({
        kind: 'card',
        cardId: card.card_id,
        price: 6,
        volume: 6,
        time: new Date(base).toISOString(),
      });
      const second = saleMessage({
        kind: 'card',
        cardId: card.card_id,
        price: 4,
        volume: 4,
        time: new Date(base + 1000).toISOString(),
      });
      await sell([first]);
      await sell([second]);
      expect(await flagOf(first.eventId)).toBeNull();
      expect(await flagOf(second.eventId)).toBeNull();
      const third = saleMessage({ kind: 'card', cardId: card.card_id, price: 1, volume: 0.5 });
      await sell([third]);
      expect(await flagOf(third.eventId)).toBe('over_limit');
      expect(await balanceOf(card.card_id)).toBe(89);
    });
  });

  describe('replace', () => {
    it('moves holder and balance to the new card with transfer entries and blocks the old one', async () => {
      const old = await newCard(60);
      await t.http.put(`/cards/${old.card_id}/limits`, { dailyLimitLitres: 30 }, { token: managerA.token });
      const newId = newCardId();
      const res = await t.http.post(`/cards/${old.card_id}/replace`, { newCardId: newId }, { token: attA1.token });
      expect(res.status).toBe(201);
      expect(res.body).toMatchObject({
        card_id: newId,
        card_holder_first_name: old.card_holder_first_name,
        card_holder_last_name: old.card_holder_last_name,
        card_type: old.card_type,
        card_balance: 60,
        status: 'active',
        dailyLimitLitres: 30,
      });
      expect(await cardRow(old.card_id)).toMatchObject({ status: 'blocked', card_balance: 0 });
      expect(await cardRow(newId)).toMatchObject({ status: 'active', card_balance: 60 });
      const oldHistory = await t.http.get(`/transactions/${old.card_id}`, { token: managerA.token });
      const newHistory = await t.http.get(`/transactions/${newId}`, { token: managerA.token });
      expect(oldHistory.body.map((r: { kind: string; amount: number }) => [r.kind, r.amount])).toContainEqual([
        'transfer-out',
        -60,
      ]);
      expect(newHistory.body.map((r: { kind: string; amount: number }) => [r.kind, r.amount])).toEqual([
        ['transfer-in', 60],
      ]);
      expect(oldHistory.body.find((r: { kind: string }) => r.kind === 'transfer-out').transaction_id).toBe(
        newHistory.body[0].transaction_id,
      );
      await waitFor(
        async () => changed,
        (c) => c.includes(old.card_id) && c.includes(newId),
      );

      // The old card cannot come back, nor be replaced twice.
      const unblock = await t.http.post(`/cards/${old.card_id}/unblock`, undefined, { token: managerA.token });
      expect(unblock.status).toBe(409);
      expect(unblock.body).toMatchObject({ code: 'CardReplaced' });
      const twice = await t.http.post(`/cards/${old.card_id}/replace`, { newCardId: newCardId() }, { token: admin });
      expect(twice.body).toMatchObject({ statusCode: 409, code: 'CardReplaced' });

      // A sale the machine made offline with the old card afterwards: kept, charged (into the negative), flagged.
      const late = saleMessage({ kind: 'card', cardId: old.card_id, price: 5, offline: true });
      await sell([late]);
      expect(await flagOf(late.eventId)).toBe('blocked_card');
      expect(await balanceOf(old.card_id)).toBe(-5);
      expect(await balanceOf(newId)).toBe(60);
    });

    it('answers 409 for a new card id taken anywhere and changes nothing', async () => {
      const old = await newCard(20);
      const taken = await registerCard(t.http, attB0.token, { card_balance: 0 });
      const res = await t.http.post(
        `/cards/${old.card_id}/replace`,
        { newCardId: taken.card_id },
        { token: managerA.token },
      );
      expect(res.status).toBe(409);
      expect(res.body).toMatchObject({ code: 'CardAlreadyRegistered' });
      const self = await t.http.post(
        `/cards/${old.card_id}/replace`,
        { newCardId: old.card_id },
        { token: managerA.token },
      );
      expect(self.status).toBe(409);
      expect(await cardRow(old.card_id)).toMatchObject({ status: 'active', card_balance: 20 });
    });

    it('replays a replace sent again with the same Idempotency-Key, moving the balance once', async () => {
      const old = await newCard(30);
      const headers = { 'idempotency-key': randomUUID() };
      const body = { newCardId: newCardId() };
      const first = await t.http.post(`/cards/${old.card_id}/replace`, body, { token: managerA.token, headers });
      const again = await t.http.post(`/cards/${old.card_id}/replace`, body, { token: managerA.token, headers });
      expect(first.status).toBe(201);
      expect(again.status).toBe(201);
      expect(again.headers.get('idempotent-replayed')).toBe('true');
      expect(again.body).toEqual(first.body);
      expect(await balanceOf(body.newCardId)).toBe(30);
      const transfers = await t.dataSource.query(
        `SELECT count(*)::int AS n FROM ledger_entries WHERE kind IN ('transfer-in', 'transfer-out')
         AND reference IN (SELECT reference FROM ledger_entries WHERE account_id = $1)`,
        [old.id],
      );
      expect(transfers).toEqual([{ n: 2 }]);
    });

    it('keeps other tenants and anonymous callers out, and names bad input with 400', async () => {
      const old = await newCard(10);
      const path = `/cards/${old.card_id}/replace`;
      expect((await t.http.post(path, { newCardId: newCardId() }, { token: managerB.token })).status).toBe(404);
      expect((await t.http.post(path, { newCardId: newCardId() }, { token: attB0.token })).status).toBe(404);
      expect((await t.http.post(path, { newCardId: newCardId() })).status).toBe(401);
      for (const bad of [{}, { newCardId: '' }, { newCardId: 'x'.repeat(65) }, { newCardId: 'N1', balance: 5 }]) {
        expect((await t.http.post(path, bad, { token: managerA.token })).status).toBe(400);
      }
      expect(await cardRow(old.card_id)).toMatchObject({ status: 'active', card_balance: 10 });
    });
  });
});
