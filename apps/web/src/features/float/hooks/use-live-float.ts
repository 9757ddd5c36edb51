import { useQueryClient } from '@tanstack/react-query';
import type { FloatRequestedEvent, FloatRequestRow, PendingFloatRequest } from '@wv/contracts';
import { useLiveConnect, useLiveEvent } from '@/lib/live';
import { queryKeys } from '@/lib/query-keys';

/**
 * The manager's side of the live float events (docs/live-events.md, "Events"): a new request joins the pending list
 * (the navigation's count follows it) and is announced through `onRequested`; an approved or rejected one leaves it,
 * whoever decided it.
 */
export function useLiveManagerFloat(onRequested: (event: FloatRequestedEvent) => void, enabled = true): void {
  const queryClient = useQueryClient();
  const key = queryKeys.managerFloatRequests;

  useLiveEvent(
    'float.requested',
    (event) => {
      queryClient.setQueryData<PendingFloatRequest[]>(key, (rows) =>
        rows && !rows.some((row) => row.requestId === event.requestId)
          ? [...rows, event].sort((a, b) => Date.parse(a.requestedAt) - Date.parse(b.requestedAt))
          : rows,
      );
      // Not loaded yet: the count is fetched with the new request in it.
      if (!queryClient.getQueryData(key)) void queryClient.invalidateQueries({ queryKey: key });
      onRequested(event);
    },
    enabled,
  );

  useLiveEvent(
    'float.updated',
    (event) => {
      if (event.status === 'pending') return;
      queryClient.setQueryData<PendingFloatRequest[]>(key, (rows) =>
        rows?.filter((row) => row.requestId !== event.requestId),
      );
    },
    enabled,
  );

  useLiveConnect(() => void queryClient.invalidateQueries({ queryKey: key }), enabled);
}

/** The attendant's side: a decided request shows its status and amount, and the float balance moves. */
export function useLiveAttendantFloat(enabled = true): void {
  const queryClient = useQueryClient();

  useLiveEvent(
    'float.updated',
    (event) => {
      const rows = queryClient.getQueryData<FloatRequestRow[]>(queryKeys.attendantFloatRequests);
      if (rows?.some((row) => row.requestId === event.requestId)) {
        queryClient.setQueryData<FloatRequestRow[]>(queryKeys.attendantFloatRequests, (list) =>
          list?.map((row) => (row.requestId === event.requestId ? { ...row, ...event } : row)),
        );
      } else {
        void queryClient.invalidateQueries({ queryKey: queryKeys.attendantFloatRequests });
      }
      void queryClient.invalidateQueries({ queryKey: queryKeys.floatBalance });
    },
    enabled,
  );

  useLiveConnect(() => {
    void queryClient.invalidateQueries({ queryKey: queryKeys.attendantFloatRequests });
    void queryClient.invalidateQueries({ queryKey: queryKeys.floatBalance });
  }, enabled);
}
