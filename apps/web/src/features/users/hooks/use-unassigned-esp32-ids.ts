import { useMemo } from 'react';
import { useAllEsp32Ids } from '../api/get-all-esp32-ids';
import { useAssignedEsp32Ids } from '../api/get-assigned-esp32-ids';

/**
 * The device choice excludes devices already assigned to some user. Undefined until
 * both lists arrive; a failed list leaves it empty without a message (only logged).
 */
export function useUnassignedEsp32Ids({ enabled = true }: { enabled?: boolean } = {}): string[] | undefined {
  const all = useAllEsp32Ids({ enabled });
  const assigned = useAssignedEsp32Ids({ enabled });
  return useMemo(() => {
    if (!enabled) return undefined;
    if (all.isError || assigned.isError) return [];
    if (!all.data || !assigned.data) return undefined;
    const taken = new Set(assigned.data);
    return all.data.filter((id) => !taken.has(id)).sort((a, b) => a.localeCompare(b));
  }, [enabled, all.data, all.isError, assigned.data, assigned.isError]);
}
