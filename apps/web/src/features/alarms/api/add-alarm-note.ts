import { alarmRoutes } from '@wv/contracts';
import { callApi } from '@/lib/api-client';

import { useAlarmMutation } from './alarm-cache';

export const addAlarmNote = ({ id, text }: { id: string; text: string }) =>
  callApi(alarmRoutes.addAlarmNote, { params: { id }, body: { text } });

/** POST /alarms/{id}/notes: 1 to 1000 characters; the detail is fetched again with the note in it. */
export const useAddAlarmNote = () => useAlarmMutation(addAlarmNote);
