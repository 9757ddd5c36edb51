import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiRoutes, type UserDeviceParam } from '@wv/contracts';
import { callApi } from '@/lib/api-client';
import { queryKeys } from '@/lib/query-keys';

export const unassignUserDevice = (params: UserDeviceParam) => callApi(apiRoutes.unassignUserDevice, { params });

/** DELETE /admin/users/{userId}/devices/{esp32Id}: the machine leaves the user; its history stays. */
export function useUnassignUserDevice() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: unassignUserDevice,
    onSuccess: () => {
      void queryClient.invalidateQueries({ queryKey: queryKeys.users });
      void queryClient.invalidateQueries({ queryKey: queryKeys.esp32Ids });
      void queryClient.invalidateQueries({ queryKey: queryKeys.myDevices });
    },
  });
}
