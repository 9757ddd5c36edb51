import { useMutation, useQueryClient } from '@tanstack/react-query';
import { paymentRoutes } from '@wv/contracts';
import { callApi } from '@/lib/api-client';
import { queryKeys } from '@/lib/query-keys';
import { paymentKeys } from './payment-keys';

export interface MatchPaymentInput {
  paymentId: string;
  cardId: string;
}

export const matchPayment = ({ paymentId, cardId }: MatchPaymentInput) =>
  callApi(paymentRoutes.matchPayment, { params: { paymentId }, body: { cardId } });

/** POST /payments/{id}/match (admin): credits an unmatched payment to a card. */
export function useMatchPayment() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: matchPayment,
    onSuccess: () => {
      void queryClient.invalidateQueries({ queryKey: paymentKeys.all });
      void queryClient.invalidateQueries({ queryKey: queryKeys.cardsAll });
    },
  });
}
