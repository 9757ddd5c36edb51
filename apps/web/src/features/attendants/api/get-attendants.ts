import { queryOptions, useQuery } from '@tanstack/react-query';
import { apiRoutes } from '@wv/contracts';
import { callApi } from '@/lib/api-client';
import { queryKeys } from '@/lib/query-keys';

export const getAttendants = () => callApi(apiRoutes.listAttendants);

export const getAttendantsQueryOptions = () => queryOptions({ queryKey: queryKeys.attendants, queryFn: getAttendants });

/** GET /manager/attendants: the attendants the manager created. */
export const useAttendants = () => useQuery(getAttendantsQueryOptions());
