import { useQueryClient } from '@tanstack/react-query';
import { useLiveConnect, useLiveEvent } from '@/lib/live';
import { queryKeys } from '@/lib/query-keys';

/**
 * Keeps a machine's cards current while they are shown: a card sale there (the `sale` event,
 * docs/live-events.md) changes the card's balance and history, and the machine's list gets a new version.
 * After a reconnect, whatever was missed is asked again.
 */
export function useLiveCards(espId: string | null): void {
  const queryClient = useQueryClient();
  useLiveEvent(
    'sale',
    (sale) => {
      if (sale.kind !== 'card' || sale.machineId !== espId) return;
      void queryClient.invalidateQueries({ queryKey: queryKeys.machineCards(espId) });
      void queryClient.invalidateQueries({ queryKey: queryKeys.cardListSync(espId) });
      if (sale.cardId) void queryClient.invalidateQueries({ queryKey: queryKeys.cardHistory(sale.cardId) });
    },
    !!espId,
  );
  useLiveConnect(() => void queryClient.invalidateQueries({ queryKey: queryKeys.cardsAll }), !!espId);
}
