import { ErrorCode } from '@wv/contracts';
import type { TFunction } from 'i18next';
import { ApiError, NetworkError } from '@/lib/api-client';

/** The field of a card action whose value the server refused (400). */
export type CardField = 'reason' | 'newCardId' | 'dailyLimit' | 'amount';

const INVALID_FIELD = {
  reason: 'cards.block.reasonMissing',
  newCardId: 'cards.replace.missing',
  dailyLimit: 'cards.limit.invalid',
  amount: 'cards.topUp.invalid',
} as const;

/**
 * A refused card action in plain words, for the line under its field (docs/web-app.md, "My Cards"): never the
 * API's field names or codes. A 400 names what is wrong with the field in the user's terms.
 */
export function cardActionError(error: unknown, field: CardField, t: TFunction): string {
  if (error instanceof NetworkError || !(error instanceof ApiError)) return t('cards.errors.network');
  if (error.status >= 500) return t('cards.errors.network');
  switch (error.body?.code) {
    case ErrorCode.CardAlreadyRegistered:
      return t('cards.errors.newCardTaken');
    case ErrorCode.CardAlreadyBlocked:
      return t('cards.errors.alreadyBlocked');
    case ErrorCode.CardNotBlocked:
      return t('cards.errors.notBlocked');
    case ErrorCode.CardReplaced:
      return t('cards.errors.replaced');
    case ErrorCode.CardNotFound:
      return t('cards.errors.notFound');
    case ErrorCode.InsufficientFloat:
      return t('cards.errors.insufficientFloat');
    case ErrorCode.BalanceLimitExceeded:
      return t('cards.errors.balanceLimit');
  }
  if (error.status === 400) return t(INVALID_FIELD[field]);
  if (error.status === 403) return t('cards.errors.forbidden');
  if (error.status === 404) return t('cards.errors.notFound');
  if (error.status === 429) return t('cards.errors.tooMany');
  return t('cards.errors.other');
}
