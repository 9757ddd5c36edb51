import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { c2bBody, darajaTimestamp } from '../../../demo/src/daraja/index.js';
import {
  balanceOf,
  callback,
  createMpesaWorld,
  ledgerViolations,
  MPESA,
  mobileCredits,
  newCard,
  waitFor,
  type MpesaWorld,
} from './mpesa-harness.js';

const MSISDN = '254708374149';

describe('M-Pesa paybill payments (C2B) with the card ID as account number', () => {
  let w: MpesaWorld;

  beforeAll(async () => {
    w = await createMpesaWorld();
    await waitFor('the C2B URL registration', () => w.sandbox.registeredUrls());
  }, 120_000);
  afterAll(async () => {
    await w?.close();
  });

  /** The payment a receipt became, as an admin sees it. */
  const paymentByReceipt = (receipt: string, status: string) =>
    waitFor(`payment ${receipt} ${status}`, async () => {
      const rows: { id: string }[] = await w.t.dataSource.query(`SELECT id FROM payments WHERE receipt = $1`, [
        receipt,
      ]);
      if (!rows[0]) return undefined;
      const res = await w.t.http.get(`/payments/${rows[0].id}`, { token: w.admin });
      return res.body.status === status ? (res.body as { paymentId: string; cardId: string | null }) : undefined;
    });

  it('registered its validation and confirmation URLs under the secret path', () => {
    const base = `${w.t.config.mpesa!.publicUrl}/api/payments/mpesa/${w.token}/c2b`;
    expect(w.sandbox.registeredUrls()).toEqual({
      validation: `${base}/validation`,
      confirmation: `${base}/confirmation`,
      responseType: 'Completed',
    });
  });

  it('credits the card named by the account number, once even when the confirmation comes twice', async () => {
    const card = await newCard(w);
    const paid = await w.sandbox.payBill({ msisdn: MSISDN, amount: 300, account: card.card_id, plan: { copies: 2 } });
    expect(paid.accepted).toBe(true);
    expect(paid.validation).toEqual({ ResultCode: '0', ResultDesc: 'Accepted' });
    const payment = await paymentByReceipt(paid.transId, 'completed');
    expect(payment).toMatchObject({ cardId: card.card_id, amount: 300, method: 'paybill', receipt: paid.transId });
    await w.sandbox.idle();
    expect(await balanceOf(w.t.dataSource, card.card_id)).toBe(300);
    expect(await mobileCredits(w.t.dataSource, card.card_id)).toEqual([{ amount: 300, reference: paid.transId }]);
  });

  it('refuses at validation a payment to an unknown or blocked card (C2B00012)', async () => {
    const unknown = await w.sandbox.payBill({ msisdn: MSISDN, amount: 50, account: 'NO-SUCH-CARD' });
    expect(unknown.accepted).toBe(false);
    expect(unknown.validation).toMatchObject({ ResultCode: 'C2B00012' });
    const card = await newCard(w);
    await w.t.http.post(`/cards/${card.card_id}/block`, { reason: 'lost' }, { token: w.attendant.token });
    const blocked = await w.sandbox.payBill({ msisdn: MSISDN, amount: 50, account: card.card_id });
    expect(blocked.accepted).toBe(false);
    expect(
      await w.t.dataSource.query(`SELECT 1 FROM payments WHERE receipt = ANY($1)`, [
        [unknown.transId, blocked.transId],
      ]),
    ).toEqual([]);
  });

  it('keeps a paybill payment to an unknown card unmatched, for admins only, until an admin matches it', async () => {
    w.sandbox.validationEnabled = false;
    try {
      const paid = await w.sandbox.payBill({ msisdn: MSISDN, amount: 120, account: 'CARD-TYPO' });
      const unmatched = await paymentByReceipt(paid.transId, 'unmatched');
      expect(unmatched.cardId).toBeNull();
      for (const token of [w.manager.token, w.attendant.token]) {
        expect((await w.t.http.get(`/payments/${unmatched.paymentId}`, { token })).status).toBe(404);
        const list = await w.t.http.get('/payments?status=unmatched', { token });
        expect(list.body.total).toBe(0);
      }
      const adminList = await w.t.http.get('/payments?status=unmatched', { token: w.admin });
      expect(adminList.body.data.map((p: { paymentId: string }) => p.paymentId)).toContain(unmatched.paymentId);

      const card = await newCard(w);
      const unknownCard = await w.t.http.post(
        `/payments/${unmatched.paymentId}/match`,
        { cardId: 'STILL-WRONG' },
        { token: w.admin },
      );
      expect(unknownCard.status).toBe(404);
      const [first, second] = await Promise.all([
        w.t.http.post(`/payments/${unmatched.paymentId}/match`, { cardId: card.card_id }, { token: w.admin }),
        w.t.http.post(`/payments/${unmatched.paymentId}/match`, { cardId: card.card_id }, { token: w.admin }),
      ]);
      expect([first.status, second.status].sort()).toEqual([200, 409]);
      const matched = first.status === 200 ? first.body : second.body;
      expect(matched).toMatchObject({ status: 'completed', cardId: card.card_id, receipt: paid.transId });
      expect(await balanceOf(w.t.dataSource, card.card_id)).toBe(120);
      // Now the card's owner sees it too.
      expect((await w.t.http.get(`/payments/${unmatched.paymentId}`, { token: w.manager.token })).status).toBe(200);
    } finally {
      w.sandbox.validationEnabled = true;
    }
  });

  it('records and never credits a confirmation for another shortcode', async () => {
    const card = await newCard(w);
    const body = c2bBody({
      transId: 'QWE1234567',
      transTime: darajaTimestamp(),
      amount: 90,
      shortcode: '600999',
      billRefNumber: card.card_id,
      msisdn: MSISDN,
      firstName: 'Jane',
    });
    expect(MPESA.shortcode).not.toBe('600999');
    const res = await callback(w, 'c2b/confirmation', body);
    expect(res.status).toBe(200);
    const events = await w.t.dataSource.query(`SELECT outcome FROM payment_events WHERE reference = 'QWE1234567'`);
    expect(events).toEqual([{ outcome: 'wrong-shortcode' }]);
    expect(await balanceOf(w.t.dataSource, card.card_id)).toBe(0);
  });

  it('keeps every card balance equal to its ledger', async () => {
    await w.sandbox.idle();
    expect(await ledgerViolations(w.t.dataSource)).toEqual([]);
  });
});
