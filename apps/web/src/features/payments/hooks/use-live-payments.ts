import { useQueryClient } from '@tanstack/react-query';
import type { Payment } from '@wv/contracts';
import { useLiveConnect, useLiveEvent } from '@/lib/live';
import { queryKeys } from '@/lib/query-keys';
import { paymentKeys } from '../api/payment-keys';

/**
 * Follows `payment.updated` (docs/live-events.md): a payment followed on screen takes the new status
 * and receipt at once; a settled payment refreshes the card's balance, row and history (all under
 * `cards`) when it is `cardId`'s, and every payment list. After a reconnection, what may have been
 * missed is asked again.
 */
export function useLivePayments(cardId?: string): void {
  const queryClient = useQueryClient();
  useLiveEvent('payment.updated', (event) => {
    queryClient.setQueryData<Payment>(paymentKeys.one(event.paymentId), (current) =>
      current ? { ...current, ...event } : current,
    );
    void queryClient.invalidateQueries({ queryKey: paymentKeys.lists });
    if (cardId !== undefined && event.cardId === cardId && event.status !== 'pending') {
      void queryClient.invalidateQueries({ queryKey: queryKeys.cardsAll });
    }
  });
  useLiveConnect(() => void queryClient.invalidateQueries({ queryKey: paymentKeys.all }));
}
