import { queryOptions, useQuery } from '@tanstack/react-query';
import { salesViewRoutes } from '@wv/contracts';
import { callApi } from '@/lib/api-client';
import { queryKeys } from '@/lib/query-keys';

export const getMonthlySummary = (date: string) => callApi(salesViewRoutes.monthlySummary, { query: { date } });

export const getMonthlySummaryQueryOptions = (date: string) =>
  queryOptions({ queryKey: queryKeys.monthlySummary(date), queryFn: () => getMonthlySummary(date), staleTime: 0 });

/** GET /user/machines/monthly-summary?date=YYYY-MM-DD: totals per machine for the month holding the date. */
export const useMonthlySummary = (date: string) => useQuery(getMonthlySummaryQueryOptions(date));
