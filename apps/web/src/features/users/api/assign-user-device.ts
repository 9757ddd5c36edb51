import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiRoutes, type AddUserDeviceRequest } from '@wv/contracts';
import { callApi } from '@/lib/api-client';
import { queryKeys } from '@/lib/query-keys';

export const assignUserDevice = (body: AddUserDeviceRequest) => callApi(apiRoutes.addUserDevice, { body });

/** POST /add/user/devices (admin): a manager gets an unowned machine, an attendant their one machine. */
export function useAssignUserDevice() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: assignUserDevice,
    onSuccess: () => {
      void queryClient.invalidateQueries({ queryKey: queryKeys.users });
      void queryClient.invalidateQueries({ queryKey: queryKeys.esp32Ids });
      void queryClient.invalidateQueries({ queryKey: queryKeys.myDevices });
    },
  });
}
