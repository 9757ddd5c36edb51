import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiRoutes, type AddUserDeviceRequest } from '@wv/contracts';
import { callApi } from '@/lib/api-client';
import { queryKeys } from '@/lib/query-keys';

export const addUserDevice = (body: AddUserDeviceRequest) => callApi(apiRoutes.addUserDevice, { body });

/** POST /add/user/devices: the device becomes the user's. */
export function useAddUserDevice() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: addUserDevice,
    onSuccess: () => {
      void queryClient.invalidateQueries({ queryKey: queryKeys.myDevices });
      void queryClient.invalidateQueries({ queryKey: queryKeys.esp32Ids });
      void queryClient.invalidateQueries({ queryKey: queryKeys.users });
    },
  });
}
