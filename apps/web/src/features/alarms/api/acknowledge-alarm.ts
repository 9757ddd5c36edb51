import { alarmRoutes } from '@wv/contracts';
import { callApi } from '@/lib/api-client';

import { useAlarmMutation } from './alarm-cache';

export const acknowledgeAlarm = (id: string) => callApi(alarmRoutes.acknowledgeAlarm, { params: { id } });

/** POST /alarms/{id}/acknowledge: someone is on it (409 when it is no longer open). */
export const useAcknowledgeAlarm = () => useAlarmMutation(acknowledgeAlarm);
