import { useQueryClient } from '@tanstack/react-query';
import type { FleetMachinesResponse } from '@wv/contracts';
import { useLiveConnect, useLiveEvent } from '@/lib/live';
import { fleetKeys } from '../api/fleet-keys';

/**
 * Keeps the fleet's machines current between the 30-second refreshes (docs/live-events.md, "Events"), for
 * the table and the map alike: `machine.status` turns a machine online or offline at once; an alarm
 * opening or changing asks for the machines again (their active alarms); so does a reconnection, as
 * events sent while the connection was down are lost.
 */
export function useLiveFleet(): void {
  const queryClient = useQueryClient();
  const refetch = () => void queryClient.invalidateQueries({ queryKey: fleetKeys.machines });

  useLiveEvent('machine.status', (event) => {
    queryClient.setQueryData<FleetMachinesResponse>(fleetKeys.machines, (fleet) => {
      if (!fleet?.machines.some((m) => m.espId === event.machineId)) return fleet;
      return {
        ...fleet,
        machines: fleet.machines.map((m) =>
          m.espId === event.machineId ? { ...m, online: event.online, lastSeen: event.lastSeen } : m,
        ),
      };
    });
  });
  useLiveEvent('alarm.opened', refetch);
  useLiveEvent('alarm.updated', refetch);
  useLiveConnect(refetch);
}
