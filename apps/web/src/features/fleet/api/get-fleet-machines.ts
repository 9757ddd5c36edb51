import { queryOptions, useQuery } from '@tanstack/react-query';
import { fleetRoutes } from '@wv/contracts';
import { callApi } from '@/lib/api-client';
import { FLEET_REFRESH_MS, fleetKeys } from './fleet-keys';

export const getFleetMachines = () => callApi(fleetRoutes.fleetMachines);

export const getFleetMachinesQueryOptions = () =>
  queryOptions({ queryKey: fleetKeys.machines, queryFn: getFleetMachines, refetchInterval: FLEET_REFRESH_MS });

/** GET /fleet/overview: every machine in scope with today's figures, its trend and its active alarms. */
export const useFleetMachines = () => useQuery(getFleetMachinesQueryOptions());
