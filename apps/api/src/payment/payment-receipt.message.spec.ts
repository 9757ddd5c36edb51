import { describe, expect, it } from '@jest/globals';
import { composeReceiptSms, formatShillings } from './payment-receipt.message.js';

const receipt = {
  receipt: 'QX12ABC345',
  cardId: '04A1B2C3',
  amountCents: 100_000,
  balanceAfterCents: 500_000,
  showBalance: true,
};

describe('the payer’s M-Pesa receipt by SMS', () => {
  it('says the receipt, the amount, the card and the new balance in plain words', () => {
    expect(composeReceiptSms(receipt, 'TZS')).toBe(
      'M-Pesa receipt QX12ABC345: TZS 1,000 added to card 04A1B2C3, new balance TZS 5,000',
    );
  });

  it('is in Kiswahili when the card owner chose it', () => {
    expect(composeReceiptSms(receipt, 'TZS', 'sw')).toBe(
      'Risiti ya M-Pesa QX12ABC345: TZS 1,000 zimeongezwa kwenye kadi 04A1B2C3, salio jipya TZS 5,000',
    );
  });

  it('says "payment" when the receipt number is not known yet (a push the status query completed)', () => {
    expect(composeReceiptSms({ ...receipt, receipt: null }, 'KES')).toBe(
      'M-Pesa payment: KES 1,000 added to card 04A1B2C3, new balance KES 5,000',
    );
    expect(composeReceiptSms({ ...receipt, receipt: null }, 'KES', 'sw')).toMatch(/^Malipo ya M-Pesa: KES 1,000/);
  });

  it('keeps the balance to itself for a payer who is not the card’s (anyone may pay a paybill to a card ID)', () => {
    expect(composeReceiptSms({ ...receipt, showBalance: false }, 'TZS')).toBe(
      'M-Pesa receipt QX12ABC345: TZS 1,000 added to card 04A1B2C3',
    );
    expect(composeReceiptSms({ ...receipt, showBalance: false }, 'TZS', 'sw')).toBe(
      'Risiti ya M-Pesa QX12ABC345: TZS 1,000 zimeongezwa kwenye kadi 04A1B2C3',
    );
  });

  it('groups thousands and shows cents only when there are some', () => {
    expect(formatShillings(0)).toBe('0');
    expect(formatShillings(25_000_000)).toBe('250,000');
    expect(formatShillings(125_050)).toBe('1,250.50');
    expect(formatShillings(5)).toBe('0.05');
  });
});
