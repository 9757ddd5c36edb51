import { queryOptions, useQuery } from '@tanstack/react-query';
import { salesViewRoutes } from '@wv/contracts';
import { callApi } from '@/lib/api-client';
import { queryKeys } from '@/lib/query-keys';

export const getFleetOverview = (date: string) => callApi(salesViewRoutes.fleetOverview, { query: { date } });

export const getFleetOverviewQueryOptions = (date: string) =>
  queryOptions({ queryKey: queryKeys.fleetOverview(date), queryFn: () => getFleetOverview(date), staleTime: 0 });

/** GET /user/machines/overview: sales by hour, litres by water type and machine status for the charts. */
export const useFleetOverview = (date: string) => useQuery(getFleetOverviewQueryOptions(date));
