import { useMutation, useQueryClient, type QueryClient } from '@tanstack/react-query';
import type { Alarm, AlarmDetail } from '@wv/contracts';
import { alarmKeys } from './alarm-keys';

type AlarmPage = { data: Alarm[]; total: number };

/**
 * Puts a newer state of an alarm (an action's answer or a live event) wherever it is shown at once: its row
 * in every loaded list and its detail, keeping the detail's notes and messages. Which lists it belongs to
 * (a cleared alarm leaves the active list) and the count of active alarms are then asked of the server.
 */
export function applyAlarm(queryClient: QueryClient, alarm: Alarm): void {
  queryClient.setQueriesData<AlarmPage>({ queryKey: alarmKeys.lists }, (page) =>
    page?.data.some((row) => row.id === alarm.id)
      ? { ...page, data: page.data.map((row) => (row.id === alarm.id ? { ...row, ...alarm } : row)) }
      : page,
  );
  queryClient.setQueryData<AlarmDetail>(alarmKeys.detail(alarm.id), (detail) =>
    detail ? { ...detail, ...alarm } : detail,
  );
  void queryClient.invalidateQueries({ queryKey: alarmKeys.lists });
  void queryClient.invalidateQueries({ queryKey: alarmKeys.activeCount });
  void queryClient.invalidateQueries({ queryKey: alarmKeys.detail(alarm.id) });
}

/** A mutation whose answer is the alarm: shown everywhere at once (applyAlarm). */
export function useAlarmMutation<V>(mutationFn: (variables: V) => Promise<Alarm>) {
  const queryClient = useQueryClient();
  return useMutation({ mutationFn, onSuccess: (alarm) => applyAlarm(queryClient, alarm) });
}
