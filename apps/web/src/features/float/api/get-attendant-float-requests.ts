import { queryOptions, useQuery } from '@tanstack/react-query';
import { ledgerRoutes } from '@wv/contracts';
import { callApi } from '@/lib/api-client';
import { queryKeys } from '@/lib/query-keys';

export const getAttendantFloatRequests = () => callApi(ledgerRoutes.attendantFloatRequests);

export const getAttendantFloatRequestsQueryOptions = () =>
  queryOptions({ queryKey: queryKeys.attendantFloatRequests, queryFn: getAttendantFloatRequests, staleTime: 0 });

/** GET /attendant/float-requests: the attendant's own requests. */
export const useAttendantFloatRequests = () => useQuery(getAttendantFloatRequestsQueryOptions());
