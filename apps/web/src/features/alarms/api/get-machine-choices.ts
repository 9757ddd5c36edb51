import { useQuery } from '@tanstack/react-query';
import { apiRoutes } from '@wv/contracts';
import { callApi } from '@/lib/api-client';
import { queryKeys } from '@/lib/query-keys';

/** GET /user/esp32-ids: the machines in the caller's scope, for the machine filter (shared with "my devices"). */
export const useMachineChoices = () =>
  useQuery({ queryKey: queryKeys.myDevices, queryFn: () => callApi(apiRoutes.userEsp32Ids) });
