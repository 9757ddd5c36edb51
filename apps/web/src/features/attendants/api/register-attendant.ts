import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiRoutes, type RegisterAttendantRequest } from '@wv/contracts';
import { callApi } from '@/lib/api-client';
import { queryKeys } from '@/lib/query-keys';

export const registerAttendant = (body: RegisterAttendantRequest) => callApi(apiRoutes.registerAttendant, { body });

/** POST /attendant/user/register-user: the attendant and the device's new location show everywhere. */
export function useRegisterAttendant() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: registerAttendant,
    onSuccess: (_answer, request) => {
      void queryClient.invalidateQueries({ queryKey: queryKeys.attendants });
      void queryClient.invalidateQueries({ queryKey: queryKeys.attendantInfo(request.esp32Id) });
      void queryClient.invalidateQueries({ queryKey: queryKeys.myDevices });
    },
  });
}
