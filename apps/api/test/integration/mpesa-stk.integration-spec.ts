import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { stkCallbackBody } from '../../../demo/src/daraja/index.js';
import {
  balanceOf,
  callback,
  createMpesaWorld,
  ledgerViolations,
  mobileCredits,
  newCard,
  paymentOf,
  settled,
  topUp,
  waitFor,
  type MpesaWorld,
} from './mpesa-harness.js';
import { CALL_TIMEOUT_MS } from '../../src/payment/daraja.client.js';
import { MOBILE_MONEY_PROVIDER, type MobileMoneyProvider } from '../../src/payment/mobile-money.provider.js';
import { PaymentSettlementService } from '../../src/payment/payment-settlement.service.js';
import { PaymentDispatcher, queryLeaseSeconds } from '../../src/payment/payment.dispatcher.js';
import { PaymentRepository } from '../../src/payment/payment.repository.js';

describe('M-Pesa top-ups by STK push (against the Daraja sandbox)', () => {
  let w: MpesaWorld;

  beforeAll(async () => {
    w = await createMpesaWorld();
  }, 120_000);
  afterAll(async () => {
    await w?.close();
  });

  it('credits the card once the payer accepts, with the receipt in the card history', async () => {
    const card = await newCard(w);
    const { paymentId, push } = await topUp(w, card.card_id, 150);
    expect(push).toMatchObject({ amount: 150, phoneNumber: '254708374149' });
    expect(push.callbackUrl).toBe(`${w.t.config.mpesa!.publicUrl}/api/payments/mpesa/${w.token}/stk-callback`);
    expect((await paymentOf(w, paymentId)).status).toBe('pending');

    w.sandbox.respond(push.checkoutRequestId, 'success');
    const done = await settled(w, paymentId);
    expect(done).toMatchObject({ method: 'stk', cardId: card.card_id, amount: 150, receipt: push.receipt });
    expect(await balanceOf(w.t.dataSource, card.card_id)).toBe(150);

    const history = await w.t.http.get(`/transactions/${card.card_id}`, { token: w.attendant.token });
    expect(history.body).toContainEqual(
      expect.objectContaining({ kind: 'mobile-top-up', amount: 150, transaction_id: push.receipt }),
    );
  });

  it('sends each push exactly once and reuses the OAuth token until it expires', async () => {
    const before = w.sandbox.calls.get('/mpesa/stkpush/v1/processrequest') ?? 0;
    const tokensBefore = w.sandbox.calls.get('/oauth/v1/generate') ?? 0;
    const card = await newCard(w);
    const first = await topUp(w, card.card_id, 10, { key: 'same-key-1' });
    const again = await w.t.http.post(
      `/cards/${card.card_id}/mobile-top-up`,
      { phoneNumber: '0708374149', amount: 10 },
      { token: w.attendant.token, headers: { 'idempotency-key': 'same-key-1' } },
    );
    // Another phone spelling is another request: the key was used with a different body.
    expect(again.status).toBe(422);
    const replay = await w.t.http.post(
      `/cards/${card.card_id}/mobile-top-up`,
      { phoneNumber: '+254708374149', amount: 10 },
      { token: w.attendant.token, headers: { 'idempotency-key': 'same-key-1' } },
    );
    expect(replay.status).toBe(202);
    expect(replay.body.paymentId).toBe(first.paymentId);
    await topUp(w, card.card_id, 20);
    expect((w.sandbox.calls.get('/mpesa/stkpush/v1/processrequest') ?? 0) - before).toBe(2);
    expect((w.sandbox.calls.get('/oauth/v1/generate') ?? 0) - tokensBefore).toBe(0);
  });

  it('marks a push the payer cancelled (1032) cancelled and credits nothing', async () => {
    const card = await newCard(w);
    const { paymentId, push } = await topUp(w, card.card_id, 40);
    w.sandbox.respond(push.checkoutRequestId, 'cancelled');
    await settled(w, paymentId, 'cancelled');
    expect(await balanceOf(w.t.dataSource, card.card_id)).toBe(0);
    expect(await mobileCredits(w.t.dataSource, card.card_id)).toEqual([]);
  });

  it('settles a push whose callback never came by the status query: a timeout fails it', async () => {
    const card = await newCard(w);
    const { paymentId, push } = await topUp(w, card.card_id, 30);
    w.sandbox.respond(push.checkoutRequestId, 'timeout', { copies: 0 });
    const failed = await settled(w, paymentId, 'failed');
    expect(failed.receipt).toBeNull();
    expect(await balanceOf(w.t.dataSource, card.card_id)).toBe(0);
    expect(w.sandbox.calls.get('/mpesa/stkpushquery/v1/query') ?? 0).toBeGreaterThan(0);
  });

  it('completes a paid push by the status query, and a late callback only adds the receipt', async () => {
    const card = await newCard(w);
    const { paymentId, push } = await topUp(w, card.card_id, 75);
    w.sandbox.respond(push.checkoutRequestId, 'success', { copies: 0 });
    const done = await settled(w, paymentId);
    expect(done.receipt).toBeNull();
    expect(await balanceOf(w.t.dataSource, card.card_id)).toBe(75);

    const late = await callback(w, 'stk-callback', w.sandbox.callbackOf(push));
    expect(late.status).toBe(200);
    expect(late.body).toEqual({ ResultCode: 0, ResultDesc: 'Accepted' });
    expect((await paymentOf(w, paymentId)).receipt).toBe(push.receipt);
    expect(await balanceOf(w.t.dataSource, card.card_id)).toBe(75);
    expect(await mobileCredits(w.t.dataSource, card.card_id)).toHaveLength(1);
  });

  it('credits once whatever the duplicates and the order of the callbacks', async () => {
    const card = await newCard(w);
    const a = await topUp(w, card.card_id, 11);
    const b = await topUp(w, card.card_id, 13);
    const c = await topUp(w, card.card_id, 17);
    w.sandbox.respond(a.push.checkoutRequestId, 'success', { copies: 3 });
    w.sandbox.respond(b.push.checkoutRequestId, 'success', { copies: 0 });
    w.sandbox.respond(c.push.checkoutRequestId, 'cancelled', { copies: 0 });
    // c's cancellation, then b's success twice concurrently, then a's again: each settles once.
    await callback(w, 'stk-callback', w.sandbox.callbackOf(c.push));
    await Promise.all([
      callback(w, 'stk-callback', w.sandbox.callbackOf(b.push)),
      callback(w, 'stk-callback', w.sandbox.callbackOf(b.push)),
    ]);
    await w.sandbox.idle();
    await callback(w, 'stk-callback', w.sandbox.callbackOf(a.push));
    await settled(w, a.paymentId);
    await settled(w, b.paymentId);
    await settled(w, c.paymentId, 'cancelled');
    expect(await balanceOf(w.t.dataSource, card.card_id)).toBe(24);
    // One credit per paid push. Its reference is the receipt when a callback settled it, or the CheckoutRequestID
    // when the status query did first (MPESA_QUERY_AFTER_SECONDS is 2 s here, and a busy machine can take longer
    // between a push and its callback); the payment holds the receipt either way.
    const credits = await mobileCredits(w.t.dataSource, card.card_id);
    expect(credits.map((x) => x.amount).sort()).toEqual([11, 13]);
    for (const { push, amount } of [
      { push: a.push, amount: 11 },
      { push: b.push, amount: 13 },
    ]) {
      expect([push.receipt, push.checkoutRequestId]).toContain(credits.find((x) => x.amount === amount)!.reference);
    }
    expect((await paymentOf(w, a.paymentId)).receipt).toBe(a.push.receipt);
    expect((await paymentOf(w, b.paymentId)).receipt).toBe(b.push.receipt);
  });

  it('records a callback for a push it never made, or with another amount, and credits nothing for it', async () => {
    const card = await newCard(w);
    const forged = stkCallbackBody({
      merchantRequestId: '1-2-3',
      checkoutRequestId: 'ws_CO_never_started_here',
      resultCode: 0,
      resultDesc: 'The service request is processed successfully.',
      metadata: { amount: 500, receipt: 'ZZZ0000001', transactionDate: '20260101120000', phoneNumber: '254708374149' },
    });
    expect((await callback(w, 'stk-callback', forged)).status).toBe(200);
    const events = await w.t.dataSource.query(`SELECT outcome, payment_id FROM payment_events WHERE reference = $1`, [
      'ZZZ0000001',
    ]);
    expect(events).toEqual([{ outcome: 'unknown-request', payment_id: null }]);

    const { paymentId, push } = await topUp(w, card.card_id, 20);
    w.sandbox.respond(push.checkoutRequestId, 'success', { copies: 0 });
    const body = w.sandbox.callbackOf(push);
    const items = body.Body.stkCallback.CallbackMetadata!.Item;
    items[0] = { Name: 'Amount', Value: 2000 };
    expect((await callback(w, 'stk-callback', body)).status).toBe(200);
    const mismatch = await w.t.dataSource.query(`SELECT outcome FROM payment_events WHERE payment_id = $1`, [
      paymentId,
    ]);
    expect(mismatch).toContainEqual({ outcome: 'amount-mismatch' });
    // The status query asks Daraja itself and settles the push for the amount it asked for.
    await settled(w, paymentId);
    expect(await balanceOf(w.t.dataSource, card.card_id)).toBe(20);
  });

  it('answers 404 to a callback with a wrong token and changes nothing', async () => {
    const card = await newCard(w);
    const { paymentId, push } = await topUp(w, card.card_id, 60);
    const before = (await w.t.dataSource.query(`SELECT count(*)::int AS n FROM payment_events`))[0].n;
    w.sandbox.respond(push.checkoutRequestId, 'success', { copies: 0 });
    const wrong = await callback(w, 'stk-callback', w.sandbox.callbackOf(push), `${w.token}x`);
    expect(wrong.status).toBe(404);
    const c2b = await callback(w, 'c2b/confirmation', { anything: true }, 'wrong-token-wrong-token');
    expect(c2b.status).toBe(400);
    expect((await w.t.dataSource.query(`SELECT count(*)::int AS n FROM payment_events`))[0].n).toBe(before);
    // The real callback still settles it.
    await callback(w, 'stk-callback', w.sandbox.callbackOf(push));
    await settled(w, paymentId);
  });

  it('refuses malformed callbacks with 400 naming the field', async () => {
    const res = await callback(w, 'stk-callback', {
      Body: { stkCallback: { MerchantRequestID: 'x', CheckoutRequestID: 'y', ResultCode: '0', ResultDesc: 'ok' } },
    });
    expect(res.status).toBe(400);
    expect(res.body.fields).toContainEqual(expect.objectContaining({ path: 'Body.stkCallback.ResultCode' }));
    const noReceipt = await callback(
      w,
      'stk-callback',
      stkCallbackBody({ merchantRequestId: 'x', checkoutRequestId: 'y', resultCode: 0, resultDesc: 'ok' }),
    );
    expect(noReceipt.status).toBe(400);
  });

  it('refuses a phone M-Pesa cannot reach, a fractional amount and a blocked card', async () => {
    const card = await newCard(w);
    const post = (body: unknown) =>
      w.t.http.post(`/cards/${card.card_id}/mobile-top-up`, body, { token: w.attendant.token });
    const phone = await post({ phoneNumber: '+255712345678', amount: 10 });
    expect(phone.status).toBe(400);
    expect(phone.body.fields).toContainEqual(expect.objectContaining({ path: 'phoneNumber' }));
    expect((await post({ phoneNumber: '0708374149', amount: 10.5 })).status).toBe(400);
    expect((await post({ phoneNumber: '0708374149', amount: 0 })).status).toBe(400);
    const blocked = await w.t.http.post(
      `/cards/${card.card_id}/block`,
      { reason: 'lost' },
      { token: w.attendant.token },
    );
    expect(blocked.status).toBe(200);
    const refused = await post({ phoneNumber: '0708374149', amount: 10 });
    expect(refused.status).toBe(422);
    expect(refused.body.code).toBe('CardNotActive');
  });

  it('lets another worker ask about a push whose status query stalled once its calls must have ended', async () => {
    const card = await newCard(w);
    const { paymentId, push } = await topUp(w, card.card_id, 35);
    // A second worker whose Daraja never answers the status query: as if it was killed mid-call.
    const asked = new Set<string>();
    const never = () => new Promise<never>(() => undefined);
    const daraja = w.t.running.app.get<MobileMoneyProvider>(MOBILE_MONEY_PROVIDER);
    const provider: MobileMoneyProvider = {
      name: 'mpesa',
      longestQueryMs: daraja.longestQueryMs,
      toMsisdn: (phone) => phone.replace(/^\+/, ''),
      requestPayment: never,
      registerPaybillUrls: async () => undefined,
      queryPayment: (id) => {
        asked.add(id);
        return never();
      },
    };
    const app = w.t.running.app;
    const stalled = new PaymentDispatcher(
      app.get(PaymentRepository),
      app.get(PaymentSettlementService),
      provider,
      w.t.config,
    );
    // The program's own worker asks every 2 s too: the stalled one is given the push until it took it.
    await waitFor('the stalled worker holding the query', async () => {
      await w.t.dataSource.query(`UPDATE payments SET next_attempt_at = now() WHERE id = $1`, [paymentId]);
      void stalled.tick();
      await new Promise((resolve) => setTimeout(resolve, 300));
      return asked.has(push.checkoutRequestId) || undefined;
    });
    const [held] = await w.t.dataSource.query<{ seconds: number }[]>(
      `SELECT extract(epoch FROM next_attempt_at - now())::float AS seconds FROM payments WHERE id = $1`,
      [paymentId],
    );
    // Another worker may ask from then on: the query and the token it may need, not a push's 120 s lease.
    expect(held!.seconds).toBeGreaterThan(0);
    expect(held!.seconds).toBeLessThanOrEqual(queryLeaseSeconds(daraja));
    // Daraja's lease covers the query and the token it may need, and ends before the fault suite's 90 s wait.
    expect(queryLeaseSeconds(daraja) * 1000).toBeGreaterThanOrEqual(2 * CALL_TIMEOUT_MS);
    expect(queryLeaseSeconds(daraja)).toBeLessThan(90);

    // The held query does not stand in the way of the payer's callback.
    w.sandbox.respond(push.checkoutRequestId, 'success');
    await settled(w, paymentId);
    expect(await balanceOf(w.t.dataSource, card.card_id)).toBe(35);
  });

  it('keeps every card balance equal to its ledger', async () => {
    await w.sandbox.idle();
    await waitFor('no push in flight', async () => {
      const rows = await w.t.dataSource.query(`SELECT 1 FROM payments WHERE push_state IN ('queued', 'sending')`);
      return rows.length === 0;
    });
    expect(await ledgerViolations(w.t.dataSource)).toEqual([]);
  });
});
