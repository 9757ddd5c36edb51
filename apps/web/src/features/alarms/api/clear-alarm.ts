import { alarmRoutes } from '@wv/contracts';
import { callApi } from '@/lib/api-client';

import { useAlarmMutation } from './alarm-cache';

export const clearAlarm = (id: string) => callApi(alarmRoutes.clearAlarm, { params: { id } });

/** POST /alarms/{id}/clear: closed by hand (409 when already cleared). */
export const useClearAlarm = () => useAlarmMutation(clearAlarm);
