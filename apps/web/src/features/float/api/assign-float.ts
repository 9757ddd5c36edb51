import { useMutation, useQueryClient } from '@tanstack/react-query';
import { IDEMPOTENCY_KEY_HEADER, ledgerRoutes, type AssignFloatRequest, type PendingFloatRequest } from '@wv/contracts';
import { callApi } from '@/lib/api-client';
import { getManagerFloatRequestsQueryOptions } from './get-manager-float-requests';

export interface AssignFloatInput {
  body: AssignFloatRequest;
  idempotencyKey: string;
}

export const assignFloat = ({ body, idempotencyKey }: AssignFloatInput) =>
  callApi(ledgerRoutes.assignFloat, { body, headers: { [IDEMPOTENCY_KEY_HEADER]: idempotencyKey } });

/** POST /manager/assign-float: the request leaves the pending list (docs/web-app.md, "Behaviour"). */
export function useAssignFloat() {
  const queryClient = useQueryClient();
  const { queryKey } = getManagerFloatRequestsQueryOptions();
  return useMutation({
    mutationFn: assignFloat,
    onSuccess: (_answer, { body }) => {
      queryClient.setQueryData<PendingFloatRequest[]>(queryKey, (rows) =>
        rows?.filter((row) => row.requestId !== body.requestId),
      );
      void queryClient.invalidateQueries({ queryKey });
    },
  });
}
