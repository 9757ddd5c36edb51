import { queryOptions, useQuery } from '@tanstack/react-query';
import { alarmRoutes } from '@wv/contracts';
import { callApi } from '@/lib/api-client';

import { alarmKeys } from './alarm-keys';

/** The number of active (open or acknowledged) alarms in scope: the list's total, one row asked for. */
export const getActiveAlarmCount = async () =>
  (await callApi(alarmRoutes.listAlarms, { query: { status: 'active', page: 1, limit: 1 } })).total;

export const getActiveAlarmCountQueryOptions = () =>
  queryOptions({ queryKey: alarmKeys.activeCount, queryFn: getActiveAlarmCount });

/** The navigation's count; live events refresh it (hooks/use-live-alarms.ts). */
export const useActiveAlarmCount = () => useQuery(getActiveAlarmCountQueryOptions());
