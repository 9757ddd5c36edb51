import { useQueryClient } from '@tanstack/react-query';
import { useLiveConnect, useLiveEvent } from '@/lib/live';
import { getMacAddressesQueryOptions } from '../api/get-mac-addresses';

/**
 * Keeps the admin's list of announced MAC addresses current (docs/live-events.md, "Events"): `device.announced`
 * reloads it, and so does a reconnect, since announcements made while the connection was down are not sent again.
 * Calls `onAnnounced` with each new MAC.
 */
export function useLiveMacAddresses(onAnnounced?: (macAddress: string) => void): void {
  const queryClient = useQueryClient();
  const { queryKey } = getMacAddressesQueryOptions();
  useLiveEvent('device.announced', (event) => {
    void queryClient.invalidateQueries({ queryKey });
    onAnnounced?.(event.macAddress);
  });
  useLiveConnect(() => void queryClient.invalidateQueries({ queryKey }));
}
