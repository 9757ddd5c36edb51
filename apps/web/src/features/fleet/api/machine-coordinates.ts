import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { fleetRoutes, type MachineCoordinatesBody } from '@wv/contracts';
import { callApi } from '@/lib/api-client';
import { fleetKeys } from './fleet-keys';

export const getMachineCoordinates = (espId: string) =>
  callApi(fleetRoutes.getMachineCoordinates, { params: { espId } });

export const getMachineCoordinatesQueryOptions = (espId: string) =>
  queryOptions({ queryKey: fleetKeys.coordinates(espId), queryFn: () => getMachineCoordinates(espId) });

/** GET /machines/{espId}/coordinates: where the machine stands. */
export const useMachineCoordinates = (espId: string) => useQuery(getMachineCoordinatesQueryOptions(espId));

export const setMachineCoordinates = ({ espId, ...body }: MachineCoordinatesBody & { espId: string }) =>
  callApi(fleetRoutes.putMachineCoordinates, { params: { espId }, body });

/** PUT /machines/{espId}/coordinates (both null clears them); the fleet's table and map read them again. */
export function useSetMachineCoordinates() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: setMachineCoordinates,
    onSuccess: (answer) => {
      queryClient.setQueryData(fleetKeys.coordinates(answer.espId), answer);
      void queryClient.invalidateQueries({ queryKey: fleetKeys.machines });
    },
  });
}
