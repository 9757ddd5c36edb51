import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import ExcelJS from 'exceljs';
import { statementCsv, type StatementLine } from '../../../demo/src/daraja/index.js';
import {
  balanceOf,
  createMpesaWorld,
  ledgerViolations,
  mobileCredits,
  newCard,
  settled,
  topUp,
  waitFor,
  type MpesaWorld,
} from './mpesa-harness.js';

const MSISDN = '254708374149';

describe('M-Pesa statement reconciliation', () => {
  let w: MpesaWorld;

  beforeAll(async () => {
    w = await createMpesaWorld();
    await waitFor('the C2B URL registration', () => w.sandbox.registeredUrls());
  }, 120_000);
  afterAll(async () => {
    await w?.close();
  });

  async function upload(file: Buffer | string, filename: string, token = w.admin) {
    const form = new FormData();
    form.append('file', new Blob([typeof file === 'string' ? file : new Uint8Array(file)]), filename);
    const res = await fetch(`${w.t.baseUrl}/api/payments/statement`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}` },
      body: form,
    });
    return { status: res.status, body: (await res.json()) as any };
  }

  it('credits the receipts it never saw, leaves the others, and says what it did', async () => {
    const cards = [await newCard(w), await newCard(w), await newCard(w)];
    // 1. A push settled by its callback: the receipt is known.
    const a = await topUp(w, cards[0]!.card_id, 10);
    w.sandbox.respond(a.push.checkoutRequestId, 'success');
    await settled(w, a.paymentId);
    // 2. A push settled by the status query: the receipt is unknown until the statement names it.
    const b = await topUp(w, cards[1]!.card_id, 20);
    w.sandbox.respond(b.push.checkoutRequestId, 'success', { copies: 0 });
    await settled(w, b.paymentId);
    // 3. A paybill payment whose confirmation was lost, to a card.
    const c = await w.sandbox.payBill({ msisdn: MSISDN, amount: 30, account: cards[2]!.card_id, plan: { copies: 0 } });
    // 4. And one to an account that is no card (validation off for this shortcode).
    w.sandbox.validationEnabled = false;
    const d = await w.sandbox.payBill({ msisdn: MSISDN, amount: 40, account: 'NOT-A-CARD', plan: { copies: 0 } });
    w.sandbox.validationEnabled = true;
    await w.sandbox.idle();

    const csv = statementCsv(w.sandbox.statement());
    const first = await upload(`Account Holder,Water Co\r\nShort Code,174379\r\n\r\n${csv}`, 'statement.csv');
    expect(first.status).toBe(200);
    expect(first.body).toEqual({ seen: 4, credited: 1, unmatched: 1 });
    expect((await w.t.http.get(`/payments/${b.paymentId}`, { token: w.admin })).body.receipt).toBe(b.push.receipt);
    expect(await balanceOf(w.t.dataSource, cards[0]!.card_id)).toBe(10);
    expect(await balanceOf(w.t.dataSource, cards[1]!.card_id)).toBe(20);
    expect(await balanceOf(w.t.dataSource, cards[2]!.card_id)).toBe(30);
    expect(await mobileCredits(w.t.dataSource, cards[2]!.card_id)).toEqual([{ amount: 30, reference: c.transId }]);
    const unmatched = await w.t.dataSource.query(`SELECT status, card_id FROM payments WHERE receipt = $1`, [
      d.transId,
    ]);
    expect(unmatched).toEqual([{ status: 'unmatched', card_id: null }]);

    const again = await upload(csv, 'statement.csv');
    expect(again.body).toEqual({ seen: 4, credited: 0, unmatched: 0 });
    expect(await balanceOf(w.t.dataSource, cards[1]!.card_id)).toBe(20);
  });

  it('reads the statement as xlsx too', async () => {
    const card = await newCard(w);
    const paid = await w.sandbox.payBill({ msisdn: MSISDN, amount: 55, account: card.card_id, plan: { copies: 0 } });
    const line = w.sandbox.statement().find((l: StatementLine) => l.receipt === paid.transId)!;
    const workbook = new ExcelJS.Workbook();
    const sheet = workbook.addWorksheet('Statement');
    sheet.addRow(['Organisation Name', 'Water Co']);
    sheet.addRow([]);
    sheet.addRow([
      'Receipt No.',
      'Completion Time',
      'Details',
      'Transaction Status',
      'Paid In',
      'Withdrawn',
      'Other Party Info',
      'A/C No.',
    ]);
    // A date cell holds the East Africa wall-clock time.
    const wall = new Date(line.completedAt.getTime() + 3 * 3600_000);
    sheet.addRow([
      line.receipt,
      wall,
      line.details,
      'Completed',
      line.paidIn,
      null,
      line.otherParty,
      line.accountNumber,
    ]);
    sheet.addRow(['ABC1234567', wall, 'Business Charge', 'Completed', null, 1.5, '', '']);
    const file = Buffer.from(await workbook.xlsx.writeBuffer());
    const res = await upload(file, 'statement.xlsx');
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ seen: 1, credited: 1, unmatched: 0 });
    expect(await balanceOf(w.t.dataSource, card.card_id)).toBe(55);
  });

  it('refuses a file that is no statement, or a bad line, with 400 naming the file, and credits nothing', async () => {
    const missing = await upload('hello,world\r\n1,2\r\n', 'notes.csv');
    expect(missing.status).toBe(400);
    expect(missing.body.fields).toContainEqual(expect.objectContaining({ path: 'file' }));
    const card = await newCard(w);
    const bad = await upload(
      [
        'Receipt No.,Completion Time,Details,Paid In,A/C No.',
        `QQQ1111111,2026-11-25 10:00:00,Pay Bill,10.00,${card.card_id}`,
        `bad receipt,2026-11-25 10:00:00,Pay Bill,10.00,${card.card_id}`,
      ].join('\r\n'),
      'statement.csv',
    );
    expect(bad.status).toBe(400);
    expect(bad.body.message).toMatch(/Line 3/);
    expect(await balanceOf(w.t.dataSource, card.card_id)).toBe(0);
    const none = await fetch(`${w.t.baseUrl}/api/payments/statement`, {
      method: 'POST',
      headers: { authorization: `Bearer ${w.admin}` },
    });
    expect(none.status).toBe(400);
  });

  it('keeps every card balance equal to its ledger', async () => {
    expect(await ledgerViolations(w.t.dataSource)).toEqual([]);
  });
});
