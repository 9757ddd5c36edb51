import { queryOptions, useQuery } from '@tanstack/react-query';
import { callApi } from '@/lib/api-client';
import { alarmRoutes } from '@wv/contracts';
import { healthKeys } from './health-keys';

export const getAlarmSettings = (espId: string) => callApi(alarmRoutes.getAlarmSettings, { params: { espId } });

export const getAlarmSettingsQueryOptions = (espId: string) =>
  queryOptions({ queryKey: healthKeys.alarmSettings(espId), queryFn: () => getAlarmSettings(espId) });

/** GET /machines/{espId}/alarm-settings: the whole settings, defaults included. */
export const useAlarmSettings = (espId: string) => useQuery(getAlarmSettingsQueryOptions(espId));
