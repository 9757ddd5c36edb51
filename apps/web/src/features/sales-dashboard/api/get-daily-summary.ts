import { queryOptions, useQuery } from '@tanstack/react-query';
import { salesViewRoutes } from '@wv/contracts';
import { callApi } from '@/lib/api-client';
import { queryKeys } from '@/lib/query-keys';

export const getDailySummary = (date: string) => callApi(salesViewRoutes.dailySummary, { query: { date } });

/** Live events keep it current while shown; a newly mounted dashboard always asks again. */
export const getDailySummaryQueryOptions = (date: string) =>
  queryOptions({ queryKey: queryKeys.dailySummary(date), queryFn: () => getDailySummary(date), staleTime: 0 });

/** GET /user/machines/daily-summary?date=YYYY-MM-DD: coin and card totals per machine for the day. */
export const useDailySummary = (date: string) => useQuery(getDailySummaryQueryOptions(date));
