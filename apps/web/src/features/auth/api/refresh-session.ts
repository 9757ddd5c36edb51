import { useMutation } from '@tanstack/react-query';
import { apiRoutes } from '@wv/contracts';
import { callApi } from '@/lib/api-client';
import { saveSession } from '@/lib/session';

export const refreshSession = () => callApi(apiRoutes.refreshToken);

/** POST /auth/refresh: a new 20-minute token replaces the stored one (docs/rest-api.md, "Accounts and sessions"). */
export const useRefreshSession = () =>
  useMutation({ mutationFn: refreshSession, onSuccess: ({ token }) => saveSession(token) });
