import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { statementCsv } from '../../../demo/src/daraja/index.js';
import { returningRows } from '../../src/common/returning-rows.js';
import { registerCard } from '../factories/money.factory.js';
import { SmsSink } from '../../../demo/src/outside/sms-sink.js';
import {
  callback,
  createMpesaWorld,
  newCard,
  paymentOf,
  settled,
  topUp,
  waitFor,
  type MpesaWorld,
} from './mpesa-harness.js';

const SMS = { username: 'wv-test', apiKey: 'test-api-key-123' };

/** A payer's own number per test, so that each test reads only its own messages. */
let nextPhone = 10;
const newPhone = () => `+2547083741${String(nextPhone++).padStart(2, '0')}`;

describe('the payer’s M-Pesa receipt by SMS (against the Daraja sandbox and the SMS sink)', () => {
  let w: MpesaWorld;
  const sink = new SmsSink(SMS);

  beforeAll(async () => {
    await sink.start();
    w = await createMpesaWorld({
      SMS_URL: sink.url,
      SMS_USERNAME: SMS.username,
      SMS_API_KEY: SMS.apiKey,
      NOTIFICATION_RETRY_DELAY_MS: '100',
      NOTIFICATION_LEASE_SECONDS: '2',
      CURRENCY: 'KES',
    });
    await waitFor('the C2B URL registration', () => w.sandbox.registeredUrls());
  }, 120_000);
  afterAll(async () => {
    await w?.close();
    await sink.stop();
  });

  const smsTo = (phone: string) => sink.messages().filter((m) => m.to === phone);
  const receiptRows = (paymentId: string): Promise<{ status: string; attempts: number; last_error: string | null }[]> =>
    w.t.dataSource.query(`SELECT status, attempts, last_error FROM payment_receipts WHERE payment_id = $1`, [
      paymentId,
    ]);
  /** Long enough for the receipt dispatcher (every second) to have sent anything it had. */
  const settle = () => new Promise((r) => setTimeout(r, 2_500));

  it('sends one receipt when a push completes, even when the callback comes again', async () => {
    const phone = newPhone();
    const card = await newCard(w);
    const { paymentId, push } = await topUp(w, card.card_id, 1000, { phoneNumber: phone });
    w.sandbox.respond(push.checkoutRequestId, 'success', { copies: 3 });
    await settled(w, paymentId);
    const [sms] = await waitFor('the receipt SMS', () => (smsTo(phone).length > 0 ? smsTo(phone) : undefined));
    expect(sms).toMatchObject({
      username: SMS.username,
      to: phone,
      message: `M-Pesa receipt ${push.receipt}: KES 1,000 added to card ${card.card_id}, new balance KES 1,000`,
    });
    await callback(w, 'stk-callback', w.sandbox.callbackOf(push));
    await settle();
    expect(smsTo(phone)).toHaveLength(1);
    expect(await receiptRows(paymentId)).toEqual([{ status: 'sent', attempts: 1, last_error: null }]);
  });

  it('says the new balance after each top-up of a card', async () => {
    const phone = newPhone();
    const card = await newCard(w);
    for (const amount of [250, 1500]) {
      const { paymentId, push } = await topUp(w, card.card_id, amount, { phoneNumber: phone });
      w.sandbox.respond(push.checkoutRequestId, 'success');
      await settled(w, paymentId);
    }
    const messages = await waitFor('two receipts', () => (smsTo(phone).length >= 2 ? smsTo(phone) : undefined));
    expect(messages.map((m) => m.message.replace(/^M-Pesa receipt \w+: /, ''))).toEqual([
      `KES 250 added to card ${card.card_id}, new balance KES 250`,
      `KES 1,500 added to card ${card.card_id}, new balance KES 1,750`,
    ]);
  });

  it('sends nothing for a push that was cancelled or failed', async () => {
    const phone = newPhone();
    const card = await newCard(w);
    const cancelled = await topUp(w, card.card_id, 40, { phoneNumber: phone });
    w.sandbox.respond(cancelled.push.checkoutRequestId, 'cancelled');
    await settled(w, cancelled.paymentId, 'cancelled');
    const failed = await topUp(w, card.card_id, 30, { phoneNumber: phone });
    w.sandbox.respond(failed.push.checkoutRequestId, 'timeout', { copies: 0 });
    await settled(w, failed.paymentId, 'failed');
    await settle();
    expect(smsTo(phone)).toEqual([]);
    expect(await receiptRows(cancelled.paymentId)).toEqual([]);
    expect(await receiptRows(failed.paymentId)).toEqual([]);
  });

  it('sends one receipt for a paybill payment, none again when the statement lists it', async () => {
    const phone = newPhone();
    // The card's own holder pays: the receipt may say the balance.
    const card = await registerCard(w.t.http, w.attendant.token, { phoneNumber: phone });
    const paid = await w.sandbox.payBill({
      msisdn: phone.slice(1),
      amount: 300,
      account: card.card_id,
      plan: { copies: 2 },
    });
    expect(paid.accepted).toBe(true);
    const [sms] = await waitFor('the receipt SMS', () => (smsTo(phone).length > 0 ? smsTo(phone) : undefined));
    expect(sms!.message).toBe(
      `M-Pesa receipt ${paid.transId}: KES 300 added to card ${card.card_id}, new balance KES 300`,
    );

    const form = new FormData();
    form.append('file', new Blob([statementCsv(w.sandbox.statement())]), 'statement.csv');
    const imported = await fetch(`${w.t.baseUrl}/api/payments/statement`, {
      method: 'POST',
      headers: { authorization: `Bearer ${w.admin}` },
      body: form,
    });
    expect(imported.status).toBe(200);
    await settle();
    expect(smsTo(phone)).toHaveLength(1);
  });

  it('keeps the balance out of the receipt of a stranger who pays a paybill to a card ID', async () => {
    const stranger = newPhone();
    const card = await newCard(w);
    const paid = await w.sandbox.payBill({ msisdn: stranger.slice(1), amount: 1, account: card.card_id });
    expect(paid.accepted).toBe(true);
    const [sms] = await waitFor('the receipt SMS', () => (smsTo(stranger).length > 0 ? smsTo(stranger) : undefined));
    expect(sms!.message).toBe(`M-Pesa receipt ${paid.transId}: KES 1 added to card ${card.card_id}`);
    expect(sms!.message).not.toMatch(/balance/);
  });

  it('sends one receipt for a push the statement completes (its callback lost), none on a re-import', async () => {
    const phone = newPhone();
    const card = await newCard(w);
    const { paymentId, push } = await topUp(w, card.card_id, 60, { phoneNumber: phone });
    // Paid, but neither the callback nor (yet) the status query tells: the statement completes it.
    w.sandbox.respond(push.checkoutRequestId, 'success', { copies: 0 });
    await w.t.dataSource.query(`UPDATE payments SET next_attempt_at = now() + interval '1 hour' WHERE id = $1`, [
      paymentId,
    ]);
    for (let i = 0; i < 2; i++) {
      const form = new FormData();
      form.append('file', new Blob([statementCsv(w.sandbox.statement())]), 'statement.csv');
      const res = await fetch(`${w.t.baseUrl}/api/payments/statement`, {
        method: 'POST',
        headers: { authorization: `Bearer ${w.admin}` },
        body: form,
      });
      expect(res.status).toBe(200);
    }
    expect((await paymentOf(w, paymentId)).status).toBe('completed');
    await waitFor('the receipt SMS', () => smsTo(phone).length > 0);
    await settle();
    expect(smsTo(phone).map((m) => m.message)).toEqual([
      `M-Pesa receipt ${push.receipt}: KES 60 added to card ${card.card_id}, new balance KES 60`,
    ]);
  });

  it('sends one receipt when an admin matches an unmatched payment to a card', async () => {
    const phone = newPhone();
    w.sandbox.validationEnabled = false;
    try {
      const paid = await w.sandbox.payBill({ msisdn: phone.slice(1), amount: 120, account: 'CARD-TYPO' });
      const id = await waitFor('the unmatched payment', async () => {
        const rows: { id: string }[] = await w.t.dataSource.query(
          `SELECT id FROM payments WHERE receipt = $1 AND status = 'unmatched'`,
          [paid.transId],
        );
        return rows[0]?.id;
      });
      await settle();
      expect(smsTo(phone)).toEqual([]);
      const card = await newCard(w);
      const matched = await w.t.http.post(`/payments/${id}/match`, { cardId: card.card_id }, { token: w.admin });
      expect(matched.status).toBe(200);
      const [sms] = await waitFor('the receipt SMS', () => (smsTo(phone).length > 0 ? smsTo(phone) : undefined));
      // The payer is not the card's holder: no balance in the receipt.
      expect(sms!.message).toBe(`M-Pesa receipt ${paid.transId}: KES 120 added to card ${card.card_id}`);
    } finally {
      w.sandbox.validationEnabled = true;
    }
  });

  it('writes the receipt in the language of the card’s owner manager', async () => {
    const phone = newPhone();
    expect((await w.t.http.put('/user/language', { language: 'sw' }, { token: w.other.manager.token })).status).toBe(
      200,
    );
    const card = await newCard(w, w.other.attendant.token);
    const { paymentId, push } = await topUp(w, card.card_id, 5000, {
      phoneNumber: phone,
      token: w.other.attendant.token,
    });
    w.sandbox.respond(push.checkoutRequestId, 'success');
    await settled(w, paymentId);
    const [sms] = await waitFor('the receipt SMS', () => (smsTo(phone).length > 0 ? smsTo(phone) : undefined));
    expect(sms!.message).toBe(
      `Risiti ya M-Pesa ${push.receipt}: KES 5,000 zimeongezwa kwenye kadi ${card.card_id}, salio jipya KES 5,000`,
    );
  });

  it('sends a receipt the SMS API could not take later, with backoff, still once', async () => {
    const phone = newPhone();
    const card = await newCard(w);
    await sink.stop();
    try {
      const { paymentId, push } = await topUp(w, card.card_id, 70, { phoneNumber: phone });
      w.sandbox.respond(push.checkoutRequestId, 'success');
      await settled(w, paymentId);
      const [row] = await waitFor('a failed attempt', async () => {
        const rows = await receiptRows(paymentId);
        return rows[0] && rows[0].attempts >= 1 && rows[0].status === 'pending' ? rows : undefined;
      });
      expect(row!.last_error).toMatch(/SMS API unreachable/);
    } finally {
      await sink.start();
    }
    await waitFor('the receipt SMS', () => smsTo(phone).length > 0);
    await settle();
    expect(smsTo(phone)).toHaveLength(1);
  });

  it('sends a receipt whose sender stopped after claiming it and before handing it to the SMS API, once', async () => {
    const phone = newPhone();
    const card = await newCard(w);
    let paymentId = '';
    await sink.stop();
    try {
      const paid = await topUp(w, card.card_id, 90, { phoneNumber: phone });
      paymentId = paid.paymentId;
      w.sandbox.respond(paid.push.checkoutRequestId, 'success');
      await settled(w, paymentId);
      // As a worker that claimed it and died before handing it over leaves the row: claimed, its lease run out,
      // never handed over. Set between two attempts (while it waits, pending), so that no sender holds it.
      await waitFor('the receipt left as a dead sender leaves it', async () => {
        const result: unknown = await w.t.dataSource.query(
          `UPDATE payment_receipts SET status = 'sending', lease_until = now() - interval '1 second', handed_at = NULL
           WHERE payment_id = $1 AND status = 'pending' AND attempts >= 1 RETURNING payment_id`,
          [paymentId],
        );
        return returningRows(result).length > 0;
      });
    } finally {
      await sink.start();
    }
    await waitFor('the receipt SMS', () => smsTo(phone).length > 0);
    await waitFor('the receipt recorded', async () => (await receiptRows(paymentId))[0]?.status === 'sent');
    await settle();
    expect(smsTo(phone)).toHaveLength(1);
  });

  it('gives up, never sends again, a receipt whose sender stopped in the middle of sending it', async () => {
    const phone = newPhone();
    const card = await newCard(w);
    const { paymentId, push } = await topUp(w, card.card_id, 80, { phoneNumber: phone });
    w.sandbox.respond(push.checkoutRequestId, 'success');
    await settled(w, paymentId);
    await waitFor('the receipt SMS', () => smsTo(phone).length > 0);
    await waitFor('the receipt recorded', async () => (await receiptRows(paymentId))[0]?.status === 'sent');
    // As a worker that sent it and died before recording it leaves the row: claimed, its lease run out.
    await w.t.dataSource.query(
      `UPDATE payment_receipts SET status = 'sending', lease_until = now() - interval '1 second' WHERE payment_id = $1`,
      [paymentId],
    );
    const [row] = await waitFor('the receipt given up', async () => {
      const rows = await receiptRows(paymentId);
      return rows[0]?.status === 'failed' ? rows : undefined;
    });
    expect(row!.last_error).toMatch(/outcome unknown/);
    await settle();
    expect(smsTo(phone)).toHaveLength(1);
  });
});
