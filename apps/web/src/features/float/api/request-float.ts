import { useMutation, useQueryClient } from '@tanstack/react-query';
import { IDEMPOTENCY_KEY_HEADER, ledgerRoutes, type RequestFloatRequest } from '@wv/contracts';
import { callApi } from '@/lib/api-client';
import { getAttendantFloatRequestsQueryOptions } from './get-attendant-float-requests';

export interface RequestFloatInput {
  body: RequestFloatRequest;
  idempotencyKey: string;
}

export const requestFloat = ({ body, idempotencyKey }: RequestFloatInput) =>
  callApi(ledgerRoutes.requestFloat, { body, headers: { [IDEMPOTENCY_KEY_HEADER]: idempotencyKey } });

/** POST /attendant/request-float; the history reloads (docs/web-app.md, "Behaviour"). */
export function useRequestFloat() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: requestFloat,
    onSuccess: () => void queryClient.invalidateQueries({ queryKey: getAttendantFloatRequestsQueryOptions().queryKey }),
  });
}
