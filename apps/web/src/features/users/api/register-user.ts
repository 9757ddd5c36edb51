import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiRoutes, type RegisterUserRequest } from '@wv/contracts';
import { callApi } from '@/lib/api-client';
import { queryKeys } from '@/lib/query-keys';

export const registerUser = (body: RegisterUserRequest) => callApi(apiRoutes.registerUser, { body });

/** POST /admin/register-user; the device becomes owned, so the device lists and the user list refresh. */
export function useRegisterUser() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: registerUser,
    onSuccess: () => {
      void queryClient.invalidateQueries({ queryKey: queryKeys.esp32Ids });
      void queryClient.invalidateQueries({ queryKey: queryKeys.users });
      void queryClient.invalidateQueries({ queryKey: queryKeys.myDevices });
    },
  });
}
