import { queryOptions, useQuery } from '@tanstack/react-query';
import { apiRoutes } from '@wv/contracts';
import { callApi } from '@/lib/api-client';
import { queryKeys } from '@/lib/query-keys';

export const getAssignedEsp32Ids = () => callApi(apiRoutes.assignedEsp32Ids);

export const getAssignedEsp32IdsQueryOptions = () =>
  queryOptions({ queryKey: queryKeys.assignedEsp32Ids, queryFn: getAssignedEsp32Ids });

/** GET /get/user/assigned/esp32-ids: ids some user already owns (admin). */
export const useAssignedEsp32Ids = ({ enabled = true }: { enabled?: boolean } = {}) =>
  useQuery({ ...getAssignedEsp32IdsQueryOptions(), enabled });
