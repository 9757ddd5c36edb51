import { useQueryClient } from '@tanstack/react-query';
import type { MachineHealth } from '@wv/contracts';
import { useLiveConnect, useLiveEvent } from '@/lib/live';
import { healthKeys } from '../api/health-keys';

/**
 * Keeps a machine's health current (docs/live-events.md, "Events"): `machine.status` turns it online or
 * offline at once; an alarm opening or changing on it asks for the health again (its active alarms).
 */
export function useLiveMachineHealth(espId: string): void {
  const queryClient = useQueryClient();
  const key = healthKeys.health(espId);

  useLiveEvent('machine.status', (event) => {
    if (event.machineId !== espId) return;
    queryClient.setQueryData<MachineHealth>(key, (health) =>
      health ? { ...health, online: event.online, lastSeen: event.lastSeen } : health,
    );
  });
  const onAlarm = (event: { machineId: string }) => {
    if (event.machineId === espId) void queryClient.invalidateQueries({ queryKey: key });
  };
  useLiveEvent('alarm.opened', onAlarm);
  useLiveEvent('alarm.updated', onAlarm);
  useLiveConnect(() => void queryClient.invalidateQueries({ queryKey: key }));
}
