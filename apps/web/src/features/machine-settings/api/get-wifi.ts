import { queryOptions, useQuery } from '@tanstack/react-query';
import { apiRoutes } from '@wv/contracts';
import { callApi } from '@/lib/api-client';
import { queryKeys } from '@/lib/query-keys';

export const getWifi = (espId: string) => callApi(apiRoutes.getWifi, { params: { espId } });

export const getWifiQueryOptions = (espId: string) =>
  queryOptions({ queryKey: queryKeys.wifi(espId), queryFn: () => getWifi(espId) });

/** GET /get_wifi_credentials/{espId}: `{ssid, password}` or `{message}` ("No Wi-Fi credentials set"). */
export const useWifi = (espId: string) => useQuery(getWifiQueryOptions(espId));
