import { queryOptions, useQuery } from '@tanstack/react-query';
import { apiRoutes } from '@wv/contracts';
import { callApi } from '@/lib/api-client';
import { queryKeys } from '@/lib/query-keys';

export const getManagerDeviceIds = () => callApi(apiRoutes.managerDeviceIds);

export const getManagerDeviceIdsQueryOptions = () =>
  queryOptions({ queryKey: queryKeys.managerDeviceIds, queryFn: getManagerDeviceIds });

/** GET /attendant/user/assigned/ids: the manager's device ids, to give an attendant one. */
export const useManagerDeviceIds = () => useQuery(getManagerDeviceIdsQueryOptions());
