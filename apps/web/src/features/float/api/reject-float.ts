import { useMutation, useQueryClient } from '@tanstack/react-query';
import { ledgerRoutes, type PendingFloatRequest } from '@wv/contracts';
import { callApi } from '@/lib/api-client';
import { getManagerFloatRequestsQueryOptions } from './get-manager-float-requests';

export const rejectFloat = (requestId: string) => callApi(ledgerRoutes.rejectFloat, { params: { requestId } });

/** POST /manager/float-requests/{requestId}/reject: the request leaves the pending list. */
export function useRejectFloat() {
  const queryClient = useQueryClient();
  const { queryKey } = getManagerFloatRequestsQueryOptions();
  return useMutation({
    mutationFn: rejectFloat,
    onSuccess: (_answer, requestId) => {
      queryClient.setQueryData<PendingFloatRequest[]>(queryKey, (rows) =>
        rows?.filter((row) => row.requestId !== requestId),
      );
      void queryClient.invalidateQueries({ queryKey });
    },
  });
}
