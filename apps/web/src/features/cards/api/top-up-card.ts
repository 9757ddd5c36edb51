import { useMutation, useQueryClient } from '@tanstack/react-query';
import { IDEMPOTENCY_KEY_HEADER, ledgerRoutes } from '@wv/contracts';
import { callApi } from '@/lib/api-client';
import { queryKeys } from '@/lib/query-keys';

export interface TopUpCardInput {
  cardId: string;
  amount: number;
  idempotencyKey: string;
}

export const topUpCard = ({ cardId, amount, idempotencyKey }: TopUpCardInput) =>
  callApi(ledgerRoutes.topUpCard, {
    params: { card_id: cardId },
    body: { amount },
    headers: { [IDEMPOTENCY_KEY_HEADER]: idempotencyKey },
  });

/** POST /att/cards/{card_id}/top-up (attendant): spends the attendant's float, as a card load does. */
export function useTopUpCard() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: topUpCard,
    onSuccess: () => {
      void queryClient.invalidateQueries({ queryKey: queryKeys.floatBalance });
      void queryClient.invalidateQueries({ queryKey: queryKeys.cardsAll });
    },
  });
}
