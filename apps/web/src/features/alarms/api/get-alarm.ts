import { queryOptions, useQuery } from '@tanstack/react-query';
import { alarmRoutes } from '@wv/contracts';
import { callApi } from '@/lib/api-client';

import { alarmKeys } from './alarm-keys';

export const getAlarm = (id: string) => callApi(alarmRoutes.getAlarm, { params: { id } });

export const getAlarmQueryOptions = (id: string) =>
  queryOptions({ queryKey: alarmKeys.detail(id), queryFn: () => getAlarm(id) });

/** GET /alarms/{id}: the alarm with its notes and the messages sent about it. */
export const useAlarm = (id: string, enabled = true) => useQuery({ ...getAlarmQueryOptions(id), enabled });
