import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiRoutes } from '@wv/contracts';
import { callApi } from '@/lib/api-client';
import { queryKeys } from '@/lib/query-keys';

export const removeAttendant = (userId: string) => callApi(apiRoutes.removeAttendant, { params: { userId } });

/** DELETE /manager/attendants/{userId}: the attendant can no longer sign in; history is kept. */
export function useRemoveAttendant() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: removeAttendant,
    onSuccess: () => {
      void queryClient.invalidateQueries({ queryKey: queryKeys.attendants });
      void queryClient.invalidateQueries({ queryKey: queryKeys.attendantInfoAll });
    },
  });
}
