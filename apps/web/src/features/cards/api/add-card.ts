import { useMutation, useQueryClient } from '@tanstack/react-query';
import { IDEMPOTENCY_KEY_HEADER, ledgerRoutes, type AddCardRequest } from '@wv/contracts';
import { callApi } from '@/lib/api-client';
import { queryKeys } from '@/lib/query-keys';

export interface AddCardInput {
  body: AddCardRequest;
  idempotencyKey: string;
}

export const addCard = ({ body, idempotencyKey }: AddCardInput) =>
  callApi(ledgerRoutes.addCard, { body, headers: { [IDEMPOTENCY_KEY_HEADER]: idempotencyKey } });

/** POST /att/add/user/card: the card's balance is loaded from the attendant's float (docs/rest-api.md, "Details"). */
export function useAddCard() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: addCard,
    onSuccess: () => {
      void queryClient.invalidateQueries({ queryKey: queryKeys.floatBalance });
      void queryClient.invalidateQueries({ queryKey: queryKeys.cardsAll });
    },
  });
}
