import { useMutation, useQueryClient } from '@tanstack/react-query';
import { offlineSalesRoutes } from '@wv/contracts';
import { callApi } from '@/lib/api-client';
import { queryKeys } from '@/lib/query-keys';

export interface SetCardLimitInput {
  cardId: string;
  /** Litres per day, or null for no limit. */
  dailyLimitLitres: number | null;
}

export const setCardLimit = ({ cardId, dailyLimitLitres }: SetCardLimitInput) =>
  callApi(offlineSalesRoutes.cardLimits, { params: { card_id: cardId }, body: { dailyLimitLitres } });

/** PUT /cards/{card_id}/limits (owner manager, admin): the machines enforce it offline from their lists. */
export function useSetCardLimit() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: setCardLimit,
    onSuccess: () => void queryClient.invalidateQueries({ queryKey: queryKeys.cardsAll }),
  });
}
