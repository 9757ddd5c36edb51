import { useMutation, useQueryClient } from '@tanstack/react-query';
import { IDEMPOTENCY_KEY_HEADER, offlineSalesRoutes } from '@wv/contracts';
import { callApi } from '@/lib/api-client';
import { queryKeys } from '@/lib/query-keys';

export interface UnblockCardInput {
  cardId: string;
  idempotencyKey: string;
}

export const unblockCard = ({ cardId, idempotencyKey }: UnblockCardInput) =>
  callApi(offlineSalesRoutes.unblockCard, {
    params: { card_id: cardId },
    headers: { [IDEMPOTENCY_KEY_HEADER]: idempotencyKey },
  });

/** POST /cards/{card_id}/unblock: a found card works again (a replaced one never does). */
export function useUnblockCard() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: unblockCard,
    onSuccess: () => void queryClient.invalidateQueries({ queryKey: queryKeys.cardsAll }),
  });
}
