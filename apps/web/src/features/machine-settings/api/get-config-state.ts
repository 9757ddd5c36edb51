import { queryOptions, useQuery } from '@tanstack/react-query';
import { apiRoutes } from '@wv/contracts';
import { callApi } from '@/lib/api-client';
import { queryKeys } from '@/lib/query-keys';

export const getConfigState = (espId: string) => callApi(apiRoutes.configState, { params: { espId } });

export const getConfigStateQueryOptions = (espId: string) =>
  queryOptions({ queryKey: queryKeys.configState(espId), queryFn: () => getConfigState(espId), staleTime: 0 });

/** GET /machines/{espId}/config-state: the newest config version and the one the machine applied. */
export const useConfigState = (espId: string) => useQuery(getConfigStateQueryOptions(espId));
