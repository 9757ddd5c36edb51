import { queryOptions, useQuery } from '@tanstack/react-query';
import { salesViewRoutes } from '@wv/contracts';
import { callApi } from '@/lib/api-client';
import { queryKeys } from '@/lib/query-keys';

export const RECENT_LIMIT = 50;

export const getRecentSales = () => callApi(salesViewRoutes.recentSales, { query: { limit: RECENT_LIMIT } });

export const getRecentSalesQueryOptions = () =>
  queryOptions({ queryKey: queryKeys.recentSales, queryFn: getRecentSales, staleTime: 0 });

/** GET /user/machines/recent-sales: the newest sales of the machines in scope, newest first. */
export const useRecentSales = () => useQuery(getRecentSalesQueryOptions());
