import { useQueryClient } from '@tanstack/react-query';
import type { Alarm } from '@wv/contracts';
import { useLiveConnect, useLiveEvent } from '@/lib/live';
import { applyAlarm } from '../api/alarm-cache';
import { alarmKeys } from '../api/alarm-keys';

/**
 * Keeps every alarm view current from the live events `alarm.opened` and `alarm.updated` (docs/live-events.md,
 * "Events"): the alarm changes in place at once, and the lists and the active count are asked again, since
 * an opened or cleared alarm joins or leaves them. `onOpened` announces a new alarm. After a reconnect,
 * whatever was missed is fetched again.
 */
export function useLiveAlarms(onOpened?: (alarm: Alarm) => void, enabled = true): void {
  const queryClient = useQueryClient();

  useLiveEvent(
    'alarm.opened',
    (alarm) => {
      applyAlarm(queryClient, alarm);
      onOpened?.(alarm);
    },
    enabled,
  );
  useLiveEvent('alarm.updated', (alarm) => applyAlarm(queryClient, alarm), enabled);
  useLiveConnect(() => void queryClient.invalidateQueries({ queryKey: alarmKeys.all }), enabled);
}
