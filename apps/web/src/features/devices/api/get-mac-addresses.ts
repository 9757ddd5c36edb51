import { queryOptions, useQuery } from '@tanstack/react-query';
import { apiRoutes } from '@wv/contracts';
import { callApi } from '@/lib/api-client';
import { queryKeys } from '@/lib/query-keys';

export const getMacAddresses = () => callApi(apiRoutes.macAddresses);

export const getMacAddressesQueryOptions = () =>
  queryOptions({ queryKey: queryKeys.macAddresses, queryFn: getMacAddresses });

/** GET /get_mac_addresses: announced machines still waiting for an ESP ID (admin). */
export const useMacAddresses = () => useQuery(getMacAddressesQueryOptions());
