import { useMutation } from '@tanstack/react-query';
import { apiRoutes, type ChangePasswordRequest } from '@wv/contracts';
import { callApi } from '@/lib/api-client';
import { saveSession } from '@/lib/session';

export const changePassword = (body: ChangePasswordRequest) => callApi(apiRoutes.changePassword, { body });

/**
 * POST /user/password: every other session of the user ends, this one included; the answer carries a
 * token issued at the change, which replaces the stored one so that this page stays signed in.
 */
export function useChangePassword() {
  return useMutation({
    mutationFn: changePassword,
    onSuccess: ({ token }) => {
      saveSession(token);
    },
  });
}
