import { useMutation, useQueryClient } from '@tanstack/react-query';
import { IDEMPOTENCY_KEY_HEADER, offlineSalesRoutes } from '@wv/contracts';
import { callApi } from '@/lib/api-client';
import { queryKeys } from '@/lib/query-keys';

export interface ReplaceCardInput {
  cardId: string;
  newCardId: string;
  idempotencyKey: string;
}

export const replaceCard = ({ cardId, newCardId, idempotencyKey }: ReplaceCardInput) =>
  callApi(offlineSalesRoutes.replaceCard, {
    params: { card_id: cardId },
    body: { newCardId },
    headers: { [IDEMPOTENCY_KEY_HEADER]: idempotencyKey },
  });

/**
 * POST /cards/{card_id}/replace: the new card takes the holder and the whole balance, the old one is blocked for
 * good. It moves money, so it carries an Idempotency-Key (docs/web-app.md, "Behaviour": money forms).
 */
export function useReplaceCard() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: replaceCard,
    onSuccess: () => void queryClient.invalidateQueries({ queryKey: queryKeys.cardsAll }),
  });
}
