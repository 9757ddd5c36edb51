import { useState } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import type { MachineStatusEvent, RecentSale } from '@wv/contracts';
import { useLiveConnect, useLiveEvent } from '@/lib/live';
import { newUuid } from '@/lib/user-id';
import { queryKeys } from '@/lib/query-keys';
import { RECENT_LIMIT } from '../api/get-recent-sales';

export type StatusChange = MachineStatusEvent & { id: string };

/**
 * `sale` events are put at the top of the cached recent sales (once: a sale the list already holds,
 * by its stored id, is not added again); `machine.status` changes are kept while the feed is open
 * (the server has no history of them).
 */
export function useLiveActivity(): StatusChange[] {
  const queryClient = useQueryClient();
  const [changes, setChanges] = useState<StatusChange[]>([]);

  useLiveEvent('sale', (sale) => {
    const row: RecentSale = {
      id: sale.id ?? `live-${newUuid()}`,
      machineId: sale.machineId,
      kind: sale.kind,
      price: sale.price,
      volume: sale.volume,
      waterType: sale.waterType,
      cardId: sale.cardId ?? null,
      time: sale.time,
    };
    queryClient.setQueryData<RecentSale[]>(queryKeys.recentSales, (rows) =>
      rows && !rows.some((r) => r.id === row.id) ? [row, ...rows].slice(0, RECENT_LIMIT) : rows,
    );
  });

  useLiveEvent('machine.status', (event) =>
    setChanges((list) => [{ ...event, id: newUuid() }, ...list].slice(0, RECENT_LIMIT)),
  );

  useLiveConnect(() => void queryClient.invalidateQueries({ queryKey: queryKeys.recentSales }));
  return changes;
}
