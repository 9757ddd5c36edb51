import { queryOptions, useQuery } from '@tanstack/react-query';
import { ledgerRoutes } from '@wv/contracts';
import { callApi } from '@/lib/api-client';
import { queryKeys } from '@/lib/query-keys';

export const getMachineCards = (esp32Id: string) => callApi(ledgerRoutes.machineCards, { params: { esp32Id } });

export const getMachineCardsQueryOptions = (esp32Id: string) =>
  queryOptions({ queryKey: queryKeys.machineCards(esp32Id), queryFn: () => getMachineCards(esp32Id) });

/** GET /cards/{esp32Id}: the cards registered at a machine. */
export const useMachineCards = (esp32Id: string | null) =>
  useQuery({ ...getMachineCardsQueryOptions(esp32Id ?? ''), enabled: !!esp32Id });
