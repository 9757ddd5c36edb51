import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { paymentRoutes, type PaymentStatus } from '@wv/contracts';
import { callApi } from '@/lib/api-client';
import { paymentKeys } from './payment-keys';

export interface PaymentFilters {
  status?: PaymentStatus;
  cardId?: string;
}

export interface PaymentQuery extends PaymentFilters {
  page: number;
  limit: number;
}

export const getPayments = (query: PaymentQuery) => callApi(paymentRoutes.listPayments, { query });

/** GET /payments: the payments in the caller's scope, newest first; the page shown stays while the next loads. */
export const usePayments = (query: PaymentQuery) =>
  useQuery({
    queryKey: paymentKeys.list(query),
    queryFn: () => getPayments(query),
    placeholderData: keepPreviousData,
  });
