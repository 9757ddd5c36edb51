import { queryOptions, useQuery } from '@tanstack/react-query';
import { ledgerRoutes } from '@wv/contracts';
import { callApi } from '@/lib/api-client';
import { queryKeys } from '@/lib/query-keys';

export const getManagerFloatRequests = () => callApi(ledgerRoutes.managerFloatRequests);

export const getManagerFloatRequestsQueryOptions = () =>
  queryOptions({ queryKey: queryKeys.managerFloatRequests, queryFn: getManagerFloatRequests });

/** GET /manager/float-requests: pending requests of the manager's attendants, oldest first. */
export const useManagerFloatRequests = (options: { enabled?: boolean } = {}) =>
  useQuery({ ...getManagerFloatRequestsQueryOptions(), ...options });
