import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiRoutes } from '@wv/contracts';
import { callApi } from '@/lib/api-client';
import { queryKeys } from '@/lib/query-keys';

/** POST /admin/users/{userId}/deactivate or …/reactivate. */
export const setUserActive = ({ userId, active }: { userId: string; active: boolean }) =>
  callApi(active ? apiRoutes.reactivateUser : apiRoutes.deactivateUser, { params: { userId } });

/** Deactivating ends the user's sessions at once; the list shows the new state. */
export function useSetUserActive() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: setUserActive,
    onSuccess: () => void queryClient.invalidateQueries({ queryKey: queryKeys.users }),
  });
}
