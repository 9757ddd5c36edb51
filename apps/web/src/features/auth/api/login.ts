import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiRoutes, type LoginRequest } from '@wv/contracts';
import { callApi } from '@/lib/api-client';
import { saveSession, type Session } from '@/lib/session';

export const login = (body: LoginRequest) => callApi(apiRoutes.login, { body });

/** Signs in and stores the session (token, role from the token, expiry); the previous user's cache is dropped. */
export function useLogin({ onSuccess }: { onSuccess?: (session: Session) => void } = {}) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: login,
    onSuccess: ({ token }) => {
      queryClient.clear();
      onSuccess?.(saveSession(token));
    },
  });
}
