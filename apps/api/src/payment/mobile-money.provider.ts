/**
 * A mobile-money provider as payments use it (docs/mobile-money.md, "Providers"): M-Pesa through Daraja
 * today; another (Airtel Money, …) implements the same calls and joins under its own name.
 */
export interface MobileMoneyProvider {
  readonly name: 'mpesa';
  /**
   * The longest a status query can take, the token it may need first included: how long a worker holds a
   * claimed query before another may ask again (docs/mobile-money.md, "Exactly once").
   */
  readonly longestQueryMs: number;
  /** The phone in the provider's own form (Daraja: 2547XXXXXXXX), or null when it cannot reach it. */
  toMsisdn(phoneNumber: string): string | null;
  /** Asks the payer's phone to pay (an STK push). Throws ProviderError when not accepted. */
  requestPayment(request: PaymentRequest): Promise<PaymentRequested>;
  /** What became of a request: still processing, or its final result. Throws ProviderError on failure. */
  queryPayment(requestId: string): Promise<PaymentQueryResult>;
  /** Tells the provider where to send paybill payments (validation, then confirmation). */
  registerPaybillUrls(urls: { validationUrl: string; confirmationUrl: string }): Promise<void>;
}

export interface PaymentRequest {
  msisdn: string;
  /** Whole units of the currency. */
  amount: number;
  /** Shown to the payer and on the statement (Daraja: at most 12 characters). */
  accountReference: string;
  /** The URL the provider calls with the result. */
  callbackUrl: string;
}

export interface PaymentRequested {
  /** The provider's id of the request (Daraja's CheckoutRequestID). */
  requestId: string;
  merchantRequestId: string;
}

export type PaymentQueryResult = { state: 'processing' } | { state: 'settled'; resultCode: number; resultDesc: string };

/**
 * A call the provider did not accept. `delivery` says whether the request may have reached it:
 * `refused` (an answer said no: safe to retry when `retryable`), `unreached` (never left this machine:
 * safe to retry), `unknown` (sent, no answer: retrying could ask the payer twice).
 */
export class ProviderError extends Error {
  constructor(
    message: string,
    readonly delivery: 'refused' | 'unreached' | 'unknown',
    readonly retryable: boolean,
  ) {
    super(message);
  }
}

export const MOBILE_MONEY_PROVIDER = Symbol('MOBILE_MONEY_PROVIDER');

/** Result codes of M-Pesa Express (Daraja's documentation) that the settlement names. */
export const RESULT_SUCCESS = 0;
export const RESULT_CANCELLED = 1032;
