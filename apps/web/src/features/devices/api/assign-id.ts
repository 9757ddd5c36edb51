import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiRoutes, type AssignIdRequest } from '@wv/contracts';
import { callApi } from '@/lib/api-client';
import { queryKeys } from '@/lib/query-keys';

export const assignId = (body: AssignIdRequest) => callApi(apiRoutes.assignId, { body });

/** POST /assign_id: the MAC leaves the waiting list and a new device id becomes choosable. */
export function useAssignId() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: assignId,
    onSuccess: () => {
      void queryClient.invalidateQueries({ queryKey: queryKeys.macAddresses });
      void queryClient.invalidateQueries({ queryKey: queryKeys.esp32Ids });
      void queryClient.invalidateQueries({ queryKey: queryKeys.myDevices });
    },
  });
}
