import { queryOptions, useQuery } from '@tanstack/react-query';
import { ledgerRoutes } from '@wv/contracts';
import { callApi } from '@/lib/api-client';
import { queryKeys } from '@/lib/query-keys';

export const getCardHistory = (cardId: string) => callApi(ledgerRoutes.cardHistory, { params: { card_id: cardId } });

export const getCardHistoryQueryOptions = (cardId: string) =>
  queryOptions({ queryKey: queryKeys.cardHistory(cardId), queryFn: () => getCardHistory(cardId) });

/** GET /transactions/{card_id}: the card's loads, top-ups and sales, newest first. */
export const useCardHistory = (cardId: string | null) =>
  useQuery({ ...getCardHistoryQueryOptions(cardId ?? ''), enabled: !!cardId });
