import { queryOptions, useQuery } from '@tanstack/react-query';
import { callApi } from '@/lib/api-client';
import { alarmRoutes } from '@wv/contracts';
import { healthKeys } from './health-keys';

export const getMachineHealth = (espId: string) => callApi(alarmRoutes.machineHealth, { params: { espId } });

export const getMachineHealthQueryOptions = (espId: string) =>
  queryOptions({ queryKey: healthKeys.health(espId), queryFn: () => getMachineHealth(espId) });

/**
 * GET /machines/{espId}/health. Alarm and connection events refresh it (hooks/use-live-machine-health.ts);
 * readings have no live event, so it is asked again every minute.
 */
export const useMachineHealth = (espId: string) =>
  useQuery({ ...getMachineHealthQueryOptions(espId), refetchInterval: 60_000 });
