import { useQueryClient } from '@tanstack/react-query';
import type { ConfigState } from '@wv/contracts';
import { useLiveConnect, useLiveEvent } from '@/lib/live';
import { queryKeys } from '@/lib/query-keys';

/** `config.applied` (the machine acknowledged a version) turns a pending state into applied, live. */
export function useLiveConfigState(espId: string): void {
  const queryClient = useQueryClient();
  useLiveEvent('config.applied', (event) => {
    if (event.machineId !== espId) return;
    queryClient.setQueryData<ConfigState>(queryKeys.configState(espId), (state) =>
      state && event.version > state.appliedVersion
        ? { ...state, appliedVersion: event.version, appliedAt: new Date().toISOString() }
        : state,
    );
  });
  useLiveConnect(() => void queryClient.invalidateQueries({ queryKey: queryKeys.configState(espId) }));
}
