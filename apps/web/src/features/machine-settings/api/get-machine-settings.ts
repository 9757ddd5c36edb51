import { queryOptions, useQuery } from '@tanstack/react-query';
import { apiRoutes } from '@wv/contracts';
import { callApi } from '@/lib/api-client';
import { queryKeys } from '@/lib/query-keys';

export const getMachineSettings = (espId: string) => callApi(apiRoutes.machineSettings, { params: { espId } });

export const getMachineSettingsQueryOptions = (espId: string) =>
  queryOptions({ queryKey: queryKeys.machineSettings(espId), queryFn: () => getMachineSettings(espId) });

/** GET /machine_settings/{espId}: the newest tariffs and calibrations, or `{message}` "No settings found". */
export const useMachineSettings = (espId: string) => useQuery(getMachineSettingsQueryOptions(espId));
