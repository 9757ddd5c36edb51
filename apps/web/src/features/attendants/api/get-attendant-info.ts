import { queryOptions, useQuery } from '@tanstack/react-query';
import { apiRoutes } from '@wv/contracts';
import { callApi } from '@/lib/api-client';
import { queryKeys } from '@/lib/query-keys';

export const getAttendantInfo = (esp32Id: string) => callApi(apiRoutes.attendantInfo, { params: { esp32Id } });

export const getAttendantInfoQueryOptions = (esp32Id: string) =>
  queryOptions({ queryKey: queryKeys.attendantInfo(esp32Id), queryFn: () => getAttendantInfo(esp32Id) });

/** GET /attendant/{esp32Id}/info: a non-OK answer means no attendant is assigned (docs/web-app.md, "Behaviour"). */
export const useAttendantInfo = (esp32Id: string) => useQuery(getAttendantInfoQueryOptions(esp32Id));
