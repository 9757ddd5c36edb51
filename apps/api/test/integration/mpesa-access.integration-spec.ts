import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
// The Daraja stand-in lives with the demo, which serves it to people too; tests may use it.
import { statementCsv } from '../../../demo/src/daraja/index.js';
import { createAttendant } from '../factories/fleet.factory.js';
import {
  balanceOf,
  createMpesaWorld,
  ledgerViolations,
  mobileCredits,
  newCard,
  paymentOf,
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

  it('never sends again a push whose answer was lost, and credits it once when its paid callback comes', async () => {
    const card = await newCard(w);
    const pushesBefore = w.sandbox.pushes().length;
    w.sandbox.dropNextAnswers(1);
    const res = await ask(card.card_id, w.attendant.token);
    await waitFor('the push of unknown outcome', async () => {
      const rows = await w.t.dataSource.query(`SELECT push_state FROM payments WHERE id = $1`, [res.body.paymentId]);
      return rows[0].push_state === 'unknown';
    });
    expect((await paymentOf(w, res.body.paymentId)).status).toBe('pending');
    expect(w.sandbox.pushes().length - pushesBefore).toBe(1);
    // The payer paid anyway: the callback names a CheckoutRequestID this server never recorded, and its
    // phone number and amount find the push (docs/mobile-money.md, "Exactly once").
    const lost = w.sandbox.pushes().at(-1)!;
    w.sandbox.respond(lost.checkoutRequestId, 'success', { copies: 2 });
    await w.sandbox.idle();
    const paid = await settled(w, res.body.paymentId);
    expect(paid.receipt).toBe(lost.receipt);
    expect(await balanceOf(w.t.dataSource, card.card_id)).toBe(paid.amount);
    expect(await mobileCredits(w.t.dataSource, card.card_id)).toEqual([
      { amount: paid.amount, reference: lost.receipt },
    ]);
    expect(w.sandbox.pushes().length - pushesBefore).toBe(1);
  });

  it('credits once a paid callback that comes while the push is still being sent (before its answer is recorded)', async () => {
    const card = await newCard(w);
    const pushesBefore = w.sandbox.pushes().length;
    w.sandbox.holdNextAnswers(1);
    const res = await ask(card.card_id, w.attendant.token);
    const held = await waitFor('the push at the sandbox', () =>
      w.sandbox.pushes().find((p) => p.accountReference === card.card_id.slice(0, 12) && !p.result),
    );
    const [{ push_state: state }] = await w.t.dataSource.query(`SELECT push_state FROM payments WHERE id = $1`, [
      res.body.paymentId,
    ]);
    expect(state).toBe('sending');
    // The payer pays before Daraja's answer to the push reaches this server (or its worker stopped
    // mid-send): the callback's CheckoutRequestID is not recorded yet, its phone and amount find the push.
    w.sandbox.respond(held.checkoutRequestId, 'success', { copies: 2 });
    await w.sandbox.idle();
    const paid = await settled(w, res.body.paymentId);
    expect(paid.receipt).toBe(held.receipt);
    w.sandbox.releaseAnswers();
    await waitFor('the answer recorded', async () => {
      const rows = await w.t.dataSource.query(`SELECT push_state FROM payments WHERE id = $1`, [res.body.paymentId]);
      return rows[0].push_state === 'sent';
    });
    expect((await paymentOf(w, res.body.paymentId)).status).toBe('completed');
    expect(await balanceOf(w.t.dataSource, card.card_id)).toBe(paid.amount);
    expect(await mobileCredits(w.t.dataSource, card.card_id)).toEqual([
      { amount: paid.amount, reference: held.receipt },
    ]);
    expect(w.sandbox.pushes().length - pushesBefore).toBe(1);
  });

  it('fails a push of unknown outcome that no callback claims, and the statement still completes it if it was paid', async () => {
    const card = await newCard(w);
    w.sandbox.dropNextAnswers(1);
    const res = await ask(card.card_id, w.attendant.token);
    const lost = await waitFor('the push at the sandbox', () =>
      w.sandbox.pushes().find((p) => p.accountReference === card.card_id.slice(0, 12) && !p.result),
    );
    // Paid, but the callback is lost too: only the statement knows.
    w.sandbox.respond(lost.checkoutRequestId, 'success', { copies: 0 });
    // MPESA_QUERY_AFTER_SECONDS is 2 here: the push waits 30 s for its callback, then fails.
    await settled(w, res.body.paymentId, 'failed');
    expect(await balanceOf(w.t.dataSource, card.card_id)).toBe(0);
    const form = new FormData();
    form.append('file', new Blob([statementCsv(w.sandbox.statement())]), 'statement.csv');
    const upload = await fetch(`${w.t.baseUrl}/api/payments/statement`, {
      method: 'POST',
      headers: { authorization: `Bearer ${w.admin}` },
      body: form,
    });
    expect(upload.status).toBe(200);
    const paid = await settled(w, res.body.paymentId);
    expect(paid.receipt).toBe(lost.receipt);
    expect(await mobileCredits(w.t.dataSource, card.card_id)).toEqual([
      { amount: paid.amount, reference: lost.receipt },
    ]);
  }, 90_000);

  it('keeps every card balance equal to its ledger', async () => {
    expect(await ledgerViolations(w.t.dataSource)).toEqual([]);
  });
});
