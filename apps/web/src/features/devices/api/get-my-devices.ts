import { queryOptions, useQuery } from '@tanstack/react-query';
import { apiRoutes } from '@wv/contracts';
import { callApi } from '@/lib/api-client';
import { queryKeys } from '@/lib/query-keys';

export const getMyDevices = () => callApi(apiRoutes.userEsp32Ids);

export const getMyDevicesQueryOptions = () => queryOptions({ queryKey: queryKeys.myDevices, queryFn: getMyDevices });

/** GET /user/esp32-ids: owned (manager), assigned (attendant) or all (admin) devices. */
export const useMyDevices = () => useQuery(getMyDevicesQueryOptions());
