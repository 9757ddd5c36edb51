import { useQuery } from '@tanstack/react-query';
import { paymentRoutes } from '@wv/contracts';
import { callApi } from '@/lib/api-client';
import { useLiveStatus } from '@/lib/live';
import { paymentKeys } from './payment-keys';

/**
 * How often a pending payment is asked about without live events: the customer answers on their phone
 * within seconds.
 */
export const PAYMENT_POLL_MS = 2_000;
/** While live events flow, `payment.updated` brings the answer; asking is only the fallback. */
export const PAYMENT_LIVE_POLL_MS = 15_000;

export const getPayment = (paymentId: string) => callApi(paymentRoutes.getPayment, { params: { paymentId } });

/**
 * GET /payments/{id}, asked again while the payment is pending (every PAYMENT_LIVE_POLL_MS while live
 * events flow, which patch it at once; every PAYMENT_POLL_MS otherwise), never after it settled.
 */
export function usePayment(paymentId: string | null) {
  const interval = useLiveStatus() === 'live' ? PAYMENT_LIVE_POLL_MS : PAYMENT_POLL_MS;
  return useQuery({
    queryKey: paymentKeys.one(paymentId ?? ''),
    queryFn: () => getPayment(paymentId!),
    enabled: !!paymentId,
    refetchInterval: (query) => (query.state.data?.status === 'pending' ? interval : false),
    // Polling goes on while the tab is in the background: the attendant may switch apps while the customer pays.
    refetchIntervalInBackground: true,
  });
}
