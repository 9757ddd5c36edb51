import { useQuery } from '@tanstack/react-query';
import { paymentRoutes } from '@wv/contracts';
import { callApi } from '@/lib/api-client';
import { paymentKeys } from './payment-keys';

/** How often a pending payment is asked about: the customer answers on their phone within seconds. */
export const PAYMENT_POLL_MS = 2_000;

export const getPayment = (paymentId: string) => callApi(paymentRoutes.getPayment, { params: { paymentId } });

/** GET /payments/{id}, asked again every PAYMENT_POLL_MS while the payment is pending, never after it settled. */
export const usePayment = (paymentId: string | null) =>
  useQuery({
    queryKey: paymentKeys.one(paymentId ?? ''),
    queryFn: () => getPayment(paymentId!),
    enabled: !!paymentId,
    refetchInterval: (query) => (query.state.data?.status === 'pending' ? PAYMENT_POLL_MS : false),
    // Polling goes on while the tab is in the background: the attendant may switch apps while the customer pays.
    refetchIntervalInBackground: true,
  });
