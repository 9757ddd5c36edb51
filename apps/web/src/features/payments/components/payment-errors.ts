import { ErrorCode, MOBILE_MONEY_MAX } from '@wv/contracts';
import type { TFunction } from 'i18next';
import { ApiError, NetworkError } from '@/lib/api-client';

/** The field of a payment form a refusal belongs to (docs/web-app.md, "Payments and M-Pesa top-ups"). */
export type PaymentField = 'phoneNumber' | 'amount' | 'cardId' | 'file' | 'form';

export interface PaymentFailure {
  field: PaymentField;
  message: string;
}

/** The largest top-up, as the messages print it. */
export const MAX_TEXT = new Intl.NumberFormat('en').format(MOBILE_MONEY_MAX);

/** The field a 400 names (`fields[].path`), when the form has it. */
function badField(error: ApiError, fields: readonly PaymentField[]): PaymentField | null {
  const named = error.body?.fields?.map((f) => f.path.split('.')[0]) ?? [];
  return fields.find((field) => named.includes(field)) ?? null;
}

/** A refused top-up in plain words, placed next to the field it concerns; never the API's codes. */
export function topUpFailure(error: unknown, t: TFunction): PaymentFailure {
  if (error instanceof ApiError && error.status < 500) {
    switch (error.body?.code) {
      case ErrorCode.MobileMoneyOff:
        return { field: 'form', message: t('payments.topUp.off') };
      case ErrorCode.CardNotActive:
        return { field: 'form', message: t('payments.topUp.notActive') };
    }
    if (error.status === 400) {
      const field = badField(error, ['phoneNumber', 'amount']);
      if (field === 'amount') return { field, message: t('payments.topUp.amountInvalid', { max: MAX_TEXT }) };
      return { field: 'phoneNumber', message: t('payments.topUp.phoneInvalid') };
    }
  }
  return { field: 'form', message: commonFailure(error, t) };
}

/** A refused match in plain words. */
export function matchFailure(error: unknown, t: TFunction): string {
  if (error instanceof ApiError && error.status < 500) {
    if (error.body?.code === ErrorCode.PaymentNotUnmatched) return t('payments.match.notUnmatched');
    if (error.status === 404 || error.body?.code === ErrorCode.CardNotFound) return t('payments.match.cardNotFound');
    if (error.status === 400) return t('payments.match.missing');
  }
  return commonFailure(error, t);
}

/** Whether the payments list was refused because the card of its filter is not one the caller may see. */
export function isUnknownCardFilter(error: unknown): boolean {
  return error instanceof ApiError && error.body?.code === ErrorCode.CardNotFound;
}

/** What every payment call may answer: no connection, no right, too many attempts. */
export function commonFailure(error: unknown, t: TFunction): string {
  if (error instanceof NetworkError || !(error instanceof ApiError) || error.status >= 500) {
    return t('payments.errors.network');
  }
  if (error.status === 403) return t('payments.errors.forbidden');
  if (error.status === 429) return t('payments.errors.tooMany');
  return t('payments.errors.other');
}
