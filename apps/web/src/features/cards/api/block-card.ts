import { useMutation, useQueryClient } from '@tanstack/react-query';
import { IDEMPOTENCY_KEY_HEADER, offlineSalesRoutes } from '@wv/contracts';
import { callApi } from '@/lib/api-client';
import { queryKeys } from '@/lib/query-keys';

export interface BlockCardInput {
  cardId: string;
  reason: string;
  idempotencyKey: string;
}

export const blockCard = ({ cardId, reason, idempotencyKey }: BlockCardInput) =>
  callApi(offlineSalesRoutes.blockCard, {
    params: { card_id: cardId },
    body: { reason },
    headers: { [IDEMPOTENCY_KEY_HEADER]: idempotencyKey },
  });

/**
 * POST /cards/{card_id}/block (docs/rest-api.md, "Selling offline"): the machines' lists follow within seconds, so
 * the cards, their histories and the machines' list versions are asked again.
 */
export function useBlockCard() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: blockCard,
    onSuccess: () => void queryClient.invalidateQueries({ queryKey: queryKeys.cardsAll }),
  });
}
