import { afterAll, afterEach, beforeAll, describe, expect, it, jest } from '@jest/globals';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { renderHook, waitFor } from '@testing-library/react';
import type { ReactNode } from 'react';
import type { FloatRequestedEvent, FloatRequestRow, PendingFloatRequest } from '@wv/contracts';
import { queryKeys } from '@/lib/query-keys';
import { startLiveServer, type LiveServer } from '../../../../test/live-server';
import { useLiveAttendantFloat, useLiveManagerFloat } from './use-live-float';

let live: LiveServer;

const ASHA: PendingFloatRequest = {
  requestId: 'request-asha',
  attendantId: 'attendant-asha',
  attendantName: 'Asha Mushi',
  requestedAmount: 50000,
  requestedAt: '2026-04-01T08:00:00.000Z',
};
const JUMA: FloatRequestedEvent = {
  requestId: 'request-juma',
  attendantId: 'attendant-juma',
  attendantName: 'Juma Said',
  requestedAmount: 20000,
  requestedAt: '2026-04-01T07:00:00.000Z',
};

beforeAll(async () => {
  live = await startLiveServer();
});
afterAll(() => live.close());
afterEach(() => localStorage.clear());

/** Signs in, renders `hook` under a query client holding `cached`, and waits for the live connection. */
async function renderLive(hook: () => void, cached: [readonly unknown[], unknown][]) {
  localStorage.setItem('token', 'live-token');
  localStorage.setItem('role', 'manager');
  localStorage.setItem('tokenExpiry', String(Date.now() + 20 * 60_000));
  const queryClient = new QueryClient({ defaultOptions: { queries: { retry: false, staleTime: Infinity } } });
  for (const [key, data] of cached) queryClient.setQueryData(key, data);
  const wrapper = ({ children }: { children: ReactNode }) => (
    <QueryClientProvider client={queryClient}>{children}</QueryClientProvider>
  );
  const view = renderHook(hook, { wrapper });
  await live.connected();
  return { queryClient, ...view };
}

describe('the manager’s pending float requests', () => {
  it('follow the live events over a connection made with the signed-in token', async () => {
    const { unmount } = await renderLive(() => useLiveManagerFloat(() => {}), []);
    expect(live.tokens).toContain('live-token');
    unmount();
  });

  it('gain a new request in the order asked, and announce it', async () => {
    const announced: FloatRequestedEvent[] = [];
    const { queryClient, unmount } = await renderLive(
      () => useLiveManagerFloat((event) => announced.push(event)),
      [[queryKeys.managerFloatRequests, [ASHA]]],
    );

    live.emit('float.requested', JUMA);

    await waitFor(() => expect(announced).toEqual([JUMA]));
    expect(queryClient.getQueryData(queryKeys.managerFloatRequests)).toEqual([JUMA, ASHA]);
    unmount();
  });

  it('lose a request that was approved or rejected, whoever decided it', async () => {
    const { queryClient, unmount } = await renderLive(
      () => useLiveManagerFloat(() => {}),
      [[queryKeys.managerFloatRequests, [ASHA, { ...JUMA }]]],
    );

    live.emit('float.updated', {
      requestId: ASHA.requestId,
      status: 'approved',
      approvedAmount: 45000,
      approvedAt: '2026-04-01T09:00:00.000Z',
    });

    await waitFor(() => expect(queryClient.getQueryData(queryKeys.managerFloatRequests)).toEqual([JUMA]));
    unmount();
  });

  it('ignore an event that does not match the contract', async () => {
    const warn = jest.spyOn(console, 'warn').mockImplementation(() => {});
    const announced: unknown[] = [];
    const { queryClient, unmount } = await renderLive(
      () => useLiveManagerFloat((event) => announced.push(event)),
      [[queryKeys.managerFloatRequests, [ASHA]]],
    );

    live.emit('float.requested', { requestId: 'r-x', requestedAmount: 'a lot' });
    live.emit('float.requested', JUMA);

    await waitFor(() => expect(announced).toEqual([JUMA]));
    expect(warn).toHaveBeenCalledWith('Ignored a malformed "float.requested" event', expect.anything());
    expect(queryClient.getQueryData<PendingFloatRequest[]>(queryKeys.managerFloatRequests)).toHaveLength(2);
    warn.mockRestore();
    unmount();
  });
});

describe('the attendant’s float, kept live', () => {
  it('shows the decision on the request and asks for the float balance again', async () => {
    const row: FloatRequestRow = {
      requestId: 'request-asha',
      attendantId: 'attendant-asha',
      requestedAmount: 50000,
      approvedAmount: null,
      status: 'pending',
      requestedAt: '2026-04-01T08:00:00.000Z',
      approvedAt: null,
    };
    const { queryClient, unmount } = await renderLive(
      () => useLiveAttendantFloat(),
      [
        [queryKeys.attendantFloatRequests, [row]],
        [queryKeys.floatBalance, { balance: 0 }],
      ],
    );

    live.emit('float.updated', {
      requestId: 'request-asha',
      status: 'approved',
      approvedAmount: 45000,
      approvedAt: '2026-04-01T09:00:00.000Z',
    });

    await waitFor(() =>
      expect(queryClient.getQueryData(queryKeys.attendantFloatRequests)).toEqual([
        { ...row, status: 'approved', approvedAmount: 45000, approvedAt: '2026-04-01T09:00:00.000Z' },
      ]),
    );
    expect(queryClient.getQueryState(queryKeys.floatBalance)?.isInvalidated).toBe(true);
    unmount();
  });
});
