import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiRoutes, type UpdateWifiRequest } from '@wv/contracts';
import { callApi } from '@/lib/api-client';
import { queryKeys } from '@/lib/query-keys';

export const updateWifi = (body: UpdateWifiRequest) => callApi(apiRoutes.updateWifi, { body });

/** PUT /update_wifi_credentials (both empty clears them); the machine gets a new config version. */
export function useUpdateWifi() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: updateWifi,
    onSuccess: (_answer, { espId }) => {
      void queryClient.invalidateQueries({ queryKey: queryKeys.wifi(espId) });
      void queryClient.invalidateQueries({ queryKey: queryKeys.configState(espId) });
    },
  });
}
