import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { callApi } from '@/lib/api-client';
import { alarmRoutes } from '@wv/contracts';
import { alarmKeys, type AlarmsQuery } from './alarm-keys';

export const getAlarms = (query: AlarmsQuery) => callApi(alarmRoutes.listAlarms, { query });

export const getAlarmsQueryOptions = (query: AlarmsQuery) =>
  queryOptions({ queryKey: alarmKeys.list(query), queryFn: () => getAlarms(query) });

/** GET /alarms: a page of the alarms in scope, newest first; the previous page stays while the next loads. */
export const useAlarms = (query: AlarmsQuery) =>
  useQuery({ ...getAlarmsQueryOptions(query), placeholderData: keepPreviousData });
