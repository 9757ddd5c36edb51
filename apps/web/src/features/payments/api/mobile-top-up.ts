import { useMutation } from '@tanstack/react-query';
import { IDEMPOTENCY_KEY_HEADER, paymentRoutes } from '@wv/contracts';
import { callApi } from '@/lib/api-client';

export interface MobileTopUpInput {
  cardId: string;
  phoneNumber: string;
  amount: number;
  idempotencyKey: string;
}

export const mobileTopUp = ({ cardId, phoneNumber, amount, idempotencyKey }: MobileTopUpInput) =>
  callApi(paymentRoutes.mobileTopUp, {
    params: { card_id: cardId },
    body: { phoneNumber, amount },
    headers: { [IDEMPOTENCY_KEY_HEADER]: idempotencyKey },
  });

/**
 * POST /cards/{card_id}/mobile-top-up (docs/mobile-money.md): asks the payer's phone for the money (STK push);
 * the answer is a pending payment whose status the form then follows.
 */
export const useMobileTopUp = () => useMutation({ mutationFn: mobileTopUp });
