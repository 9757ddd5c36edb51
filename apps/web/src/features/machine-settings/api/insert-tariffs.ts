import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiRoutes, type InsertTariffsRequest } from '@wv/contracts';
import { callApi } from '@/lib/api-client';
import { queryKeys } from '@/lib/query-keys';

export const insertTariffs = (body: InsertTariffsRequest) => callApi(apiRoutes.insertTariffs, { body });

/** POST /insert_tariffs (older values are kept as history); the machine gets a new config version. */
export function useInsertTariffs() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: insertTariffs,
    onSuccess: (_answer, { espId }) => {
      void queryClient.invalidateQueries({ queryKey: queryKeys.machineSettings(espId) });
      void queryClient.invalidateQueries({ queryKey: queryKeys.configState(espId) });
    },
  });
}
