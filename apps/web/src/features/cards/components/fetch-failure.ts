import type { TFunction } from 'i18next';
import { ApiError, serverText } from '@/lib/api-client';

const KEYS = {
  'machine details': ['cardScreens.fetch.machineDetails', 'cardScreens.fetch.machineDetailsNoAnswer'],
  transactions: ['cardScreens.fetch.transactions', 'cardScreens.fetch.transactionsNoAnswer'],
  'card summary': ['cardScreens.fetch.cardSummary', 'cardScreens.fetch.cardSummaryNoAnswer'],
} as const;

/**
 * A refused call shows 'Failed to fetch …: {error}', a call that got no answer (or an
 * unreadable one) the sentence 'An error occurred while fetching ….', in the chosen language.
 */
export function fetchFailure(
  error: unknown,
  what: 'machine details' | 'transactions' | 'card summary',
  t: TFunction,
): string {
  const [refused, noAnswer] = KEYS[what];
  return error instanceof ApiError ? t(refused, { error: serverText(error) }) : t(noAnswer);
}
