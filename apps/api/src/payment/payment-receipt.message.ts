import type { UserLanguage } from '@wv/contracts';
import { messageTexts } from '../notification/message-texts.js';
import type { ClaimedReceipt } from './payment-receipt.repository.js';

/** Shillings with thousands separators, cents only when there are some: 1,000 · 1,250.50. */
export function formatShillings(cents: number): string {
  const whole = cents % 100 === 0;
  return new Intl.NumberFormat('en-US', {
    minimumFractionDigits: whole ? 0 : 2,
    maximumFractionDigits: whole ? 0 : 2,
  }).format(cents / 100);
}

/**
 * The payer's receipt (docs/mobile-money.md, "Receipt by SMS"), in the card owner manager's language:
 * "M-Pesa receipt QX12ABC345: KES 1,000 added to card 04A1B2C3, new balance KES 5,000". A push completed
 * by the status query has no receipt number yet and says "M-Pesa payment" instead. The new balance is
 * said only when `showBalance`: anyone may pay a paybill to a card ID, and a shilling must not buy
 * someone else's balance.
 */
export function composeReceiptSms(
  r: Pick<ClaimedReceipt, 'receipt' | 'cardId' | 'amountCents' | 'balanceAfterCents' | 'showBalance'>,
  currency: string,
  language: UserLanguage = 'en',
): string {
  const t = messageTexts(language);
  const values = {
    receipt: r.receipt,
    currency,
    amount: formatShillings(r.amountCents),
    card: r.cardId,
    balance: formatShillings(r.balanceAfterCents),
  };
  const paid = r.receipt ? t('receipt.withReceipt', values) : t('receipt.withoutReceipt', values);
  return r.showBalance ? paid + t('receipt.balance', values) : paid;
}
