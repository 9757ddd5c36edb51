import { alarmRoutes } from '@wv/contracts';
import { callApi } from '@/lib/api-client';

import { useAlarmMutation } from './alarm-cache';

export const assignAlarm = ({ id, userId }: { id: string; userId: string }) =>
  callApi(alarmRoutes.assignAlarm, { params: { id }, body: { userId } });

/** POST /alarms/{id}/assign: to the owner manager or the machine's attendant (422 for anyone else). */
export const useAssignAlarm = () => useAlarmMutation(assignAlarm);
