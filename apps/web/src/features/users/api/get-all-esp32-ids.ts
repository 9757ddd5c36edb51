import { queryOptions, useQuery } from '@tanstack/react-query';
import { apiRoutes } from '@wv/contracts';
import { callApi } from '@/lib/api-client';
import { queryKeys } from '@/lib/query-keys';

export const getAllEsp32Ids = () => callApi(apiRoutes.adminEsp32Ids);

export const getAllEsp32IdsQueryOptions = () =>
  queryOptions({ queryKey: queryKeys.allEsp32Ids, queryFn: getAllEsp32Ids });

/** GET /admin/get/esp32-ids: every device id (admin). */
export const useAllEsp32Ids = ({ enabled = true }: { enabled?: boolean } = {}) =>
  useQuery({ ...getAllEsp32IdsQueryOptions(), enabled });
