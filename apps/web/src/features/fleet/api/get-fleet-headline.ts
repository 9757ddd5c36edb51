import { queryOptions, useQuery } from '@tanstack/react-query';
import { fleetRoutes } from '@wv/contracts';
import { callApi } from '@/lib/api-client';
import { FLEET_REFRESH_MS, fleetKeys } from './fleet-keys';

export const getFleetHeadline = () => callApi(fleetRoutes.fleetHeadline);

export const getFleetHeadlineQueryOptions = () =>
  queryOptions({ queryKey: fleetKeys.headline, queryFn: getFleetHeadline, refetchInterval: FLEET_REFRESH_MS });

/** GET /fleet/headline: today so far against yesterday and last week at the same time of day. */
export const useFleetHeadline = () => useQuery(getFleetHeadlineQueryOptions());
