import { queryOptions, useQuery } from '@tanstack/react-query';
import { ledgerRoutes } from '@wv/contracts';
import { callApi } from '@/lib/api-client';
import { queryKeys } from '@/lib/query-keys';

export const getFloatBalance = () => callApi(ledgerRoutes.attendantFloatBalance);

export const getFloatBalanceQueryOptions = () =>
  queryOptions({ queryKey: queryKeys.floatBalance, queryFn: getFloatBalance, staleTime: 0 });

/** GET /attendant/float-balance: approved float minus card loads and top-ups. */
export const useFloatBalance = () => useQuery(getFloatBalanceQueryOptions());
