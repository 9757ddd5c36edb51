import { queryOptions, useQuery } from '@tanstack/react-query';
import { offlineSalesRoutes, type MachineSync } from '@wv/contracts';
import { callApi } from '@/lib/api-client';
import { queryKeys } from '@/lib/query-keys';

/** How often the page asks while the machine has not acknowledged the newest list, and otherwise. */
export const SYNC_POLL_WAITING_MS = 2_000;
export const SYNC_POLL_SETTLED_MS = 5_000;

export const getCardListSync = (espId: string) => callApi(offlineSalesRoutes.machineSync, { params: { espId } });

const waiting = (sync: MachineSync | undefined) => !!sync && sync.cardListAckedVersion < sync.cardListVersion;

export const getCardListSyncQueryOptions = (espId: string) =>
  queryOptions({
    queryKey: queryKeys.cardListSync(espId),
    queryFn: () => getCardListSync(espId),
    staleTime: 0,
    // No live event says when a machine acknowledges its list (docs/live-events.md): ask again, more often while
    // a version is on its way. A change made here also asks at once (every card mutation invalidates `cards`).
    refetchInterval: (query) => (waiting(query.state.data) ? SYNC_POLL_WAITING_MS : SYNC_POLL_SETTLED_MS),
  });

/** GET /machines/{espId}/sync: the newest card list version of the machine and the one it acknowledged. */
export const useCardListSync = (espId: string) => useQuery(getCardListSyncQueryOptions(espId));
