import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { createAttendant } from '../factories/fleet.factory.js';
import {
  balanceOf,
  createMpesaWorld,
  ledgerViolations,
  newCard,
  PHONE,
  settled,
  topUp,
  waitFor,
  type MpesaWorld,
} from './mpesa-harness.js';

describe('M-Pesa top-ups: who may, and the outbox of pushes', () => {
  let w: MpesaWorld;

  beforeAll(async () => {
    w = await createMpesaWorld();
  }, 120_000);
  afterAll(async () => {
    await w?.close();
  });

  const ask = (cardId: string, token?: string) =>
    w.t.http.post(`/cards/${cardId}/mobile-top-up`, { phoneNumber: PHONE, amount: 5 }, { token });

  it('refuses anonymous callers with 401 on every payment endpoint', async () => {
    const card = await newCard(w);
    const { paymentId } = await topUp(w, card.card_id, 5);
    expect((await ask(card.card_id)).status).toBe(401);
    expect((await w.t.http.get('/payments')).status).toBe(401);
    expect((await w.t.http.get(`/payments/${paymentId}`)).status).toBe(401);
    expect((await w.t.http.post(`/payments/${paymentId}/match`, { cardId: card.card_id })).status).toBe(401);
    expect((await w.t.http.post('/payments/statement')).status).toBe(401);
  });

  it('lets the card’s attendant, an attendant of another machine of its owner, the owner and an admin top up', async () => {
    const card = await newCard(w);
    const second = await createAttendant(w.t.http, w.manager.token, w.manager.devices[1]!.espId);
    for (const token of [w.attendant.token, second.token, w.manager.token, w.admin]) {
      const res = await ask(card.card_id, token);
      expect(res.status).toBe(202);
      expect(res.body).toEqual({ paymentId: expect.any(String), status: 'pending' });
    }
  });

  it('answers 404 to another tenant’s manager and attendant, for the card and for its payments', async () => {
    const card = await newCard(w);
    const { paymentId } = await topUp(w, card.card_id, 5);
    for (const token of [w.other.manager.token, w.other.attendant.token]) {
      const res = await ask(card.card_id, token);
      expect(res.status).toBe(404);
      expect(res.body.code).toBe('CardNotFound');
      expect((await w.t.http.get(`/payments/${paymentId}`, { token })).status).toBe(404);
      const list = await w.t.http.get(`/payments?cardId=${card.card_id}`, { token });
      expect(list.status).toBe(404);
      expect(list.body.code).toBe('CardNotFound');
    }
    for (const token of [w.attendant.token, w.manager.token, w.admin]) {
      expect((await w.t.http.get(`/payments/${paymentId}`, { token })).status).toBe(200);
      const list = await w.t.http.get(`/payments?cardId=${card.card_id}`, { token });
      expect(list.body.data.map((p: { paymentId: string }) => p.paymentId)).toContain(paymentId);
    }
  });

  it('lets only admins match payments and import statements (403 for the other roles)', async () => {
    const card = await newCard(w);
    const { paymentId } = await topUp(w, card.card_id, 5);
    for (const token of [w.manager.token, w.attendant.token]) {
      const match = await w.t.http.post(`/payments/${paymentId}/match`, { cardId: card.card_id }, { token });
      expect(match.status).toBe(403);
      expect((await w.t.http.post('/payments/statement', undefined, { token })).status).toBe(403);
    }
    const notUnmatched = await w.t.http.post(
      `/payments/${paymentId}/match`,
      { cardId: card.card_id },
      { token: w.admin },
    );
    expect(notUnmatched.status).toBe(409);
    expect(notUnmatched.body.code).toBe('PaymentNotUnmatched');
  });

  it('sends a push Daraja refused with 503 again, until it is taken, and asks the payer once', async () => {
    const card = await newCard(w);
    const pushesBefore = w.sandbox.pushes().length;
    w.sandbox.failNext(2, 503);
    const { paymentId, push } = await topUp(w, card.card_id, 25);
    expect(w.sandbox.pushes().length - pushesBefore).toBe(1);
    w.sandbox.respond(push.checkoutRequestId, 'success');
    await settled(w, paymentId);
    expect(await balanceOf(w.t.dataSource, card.card_id)).toBe(25);
  });

  it('keeps a push while Daraja cannot be reached and sends it once Daraja is back', async () => {
    const card = await newCard(w);
    await w.sandbox.stop();
    const res = await ask(card.card_id, w.attendant.token);
    expect(res.status).toBe(202);
    await waitFor('a failed attempt', async () => {
      const rows = await w.t.dataSource.query(`SELECT push_attempts FROM payments WHERE id = $1`, [res.body.paymentId]);
      return rows[0].push_attempts >= 1;
    });
    await w.sandbox.start();
    const checkout = await waitFor('the push', async () => {
      const rows = await w.t.dataSource.query(`SELECT checkout_request_id AS c FROM payments WHERE id = $1`, [
        res.body.paymentId,
      ]);
      return rows[0].c as string | null;
    });
    w.sandbox.respond(checkout, 'success');
    await settled(w, res.body.paymentId);
  });

  it('never sends again a push whose answer was lost (the payer could be asked twice)', async () => {
    const card = await newCard(w);
    const pushesBefore = w.sandbox.pushes().length;
    w.sandbox.dropNextAnswers(1);
    const res = await ask(card.card_id, w.attendant.token);
    await settled(w, res.body.paymentId, 'failed');
    expect(w.sandbox.pushes().length - pushesBefore).toBe(1);
    // The payer paid anyway: the callback names a push this server does not know, and credits nothing.
    const lost = w.sandbox.pushes().at(-1)!;
    w.sandbox.respond(lost.checkoutRequestId, 'success');
    await w.sandbox.idle();
    const events = await w.t.dataSource.query(`SELECT outcome FROM payment_events WHERE reference = $1`, [
      lost.receipt,
    ]);
    expect(events).toEqual([{ outcome: 'unknown-request' }]);
    expect(await balanceOf(w.t.dataSource, card.card_id)).toBe(0);
  });

  it('keeps every card balance equal to its ledger', async () => {
    expect(await ledgerViolations(w.t.dataSource)).toEqual([]);
  });
});
