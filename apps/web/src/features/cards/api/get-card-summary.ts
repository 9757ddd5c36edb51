import { queryOptions, useQuery } from '@tanstack/react-query';
import { ledgerRoutes } from '@wv/contracts';
import { callApi } from '@/lib/api-client';
import { queryKeys } from '@/lib/query-keys';

export const getCardSummary = () => callApi(ledgerRoutes.cardSummary);

export const getCardSummaryQueryOptions = () =>
  queryOptions({ queryKey: queryKeys.cardSummary, queryFn: getCardSummary });

/** GET /cards/summary: registered cards per machine in scope, zeros included. */
export const useCardSummary = () => useQuery(getCardSummaryQueryOptions());
