import { z } from 'zod';

/**
 * Mobile-money payments (docs/mobile-money.md): card top-ups paid by STK push or to the paybill.
 * Amounts are whole shillings: M-Pesa moves no cents.
 */
export const PAYMENT_STATUSES = ['pending', 'completed', 'failed', 'cancelled', 'unmatched'] as const;
export type PaymentStatus = (typeof PAYMENT_STATUSES)[number];
export const PAYMENT_METHODS = ['stk', 'paybill'] as const;

/** The largest amount one M-Pesa customer payment may carry (Daraja refuses more). */
export const MOBILE_MONEY_MAX = 250_000;

const wholeShillings = z
  .number({ error: 'must be a number' })
  .int('must be a whole number of shillings')
  .min(1, 'must be at least 1')
  .max(MOBILE_MONEY_MAX, `must be at most ${MOBILE_MONEY_MAX}`);

export const mobileTopUpRequestSchema = z
  .object({
    /** The payer's phone: +2547…, 2547… or 07… (the provider says which numbers it can reach). */
    phoneNumber: z.string().trim().min(9, 'is too short').max(20, 'is too long'),
    amount: wholeShillings,
  })
  .strict();
export type MobileTopUpRequest = z.infer<typeof mobileTopUpRequestSchema>;

export const mobileTopUpResponseSchema = z.object({ paymentId: z.string().uuid(), status: z.literal('pending') });
export type MobileTopUpResponse = z.infer<typeof mobileTopUpResponseSchema>;

export const paymentSchema = z.object({
  paymentId: z.string().uuid(),
  method: z.enum(PAYMENT_METHODS),
  cardId: z.string().nullable(),
  amount: z.number(),
  phoneNumber: z.string().nullable(),
  status: z.enum(PAYMENT_STATUSES),
  receipt: z.string().nullable(),
  createdAt: z.string(),
  completedAt: z.string().nullable(),
});
export type Payment = z.infer<typeof paymentSchema>;

/**
 * `payment.updated` (docs/live-events.md): a payment on a card changed state or learnt its receipt; sent to
 * the sockets whose scope holds the card.
 */
export const paymentUpdatedEventSchema = paymentSchema.pick({
  paymentId: true,
  cardId: true,
  status: true,
  amount: true,
  receipt: true,
  completedAt: true,
});
export type PaymentUpdatedEvent = z.infer<typeof paymentUpdatedEventSchema>;

export const paymentIdParamSchema = z.object({ paymentId: z.string().uuid('must be a payment id') }).strict();

export const paymentListQuerySchema = z
  .object({
    status: z.enum(PAYMENT_STATUSES).optional(),
    cardId: z.string().trim().min(1).max(64).optional(),
    page: z.coerce.number().int().min(1).max(1_000_000).default(1),
    limit: z.coerce.number().int().min(1).max(500).default(50),
  })
  .strict();
export type PaymentListQuery = z.infer<typeof paymentListQuerySchema>;

export const paymentMatchRequestSchema = z
  .object({ cardId: z.string().trim().min(1, 'Card ID is required').max(64, 'Card ID is at most 64 characters') })
  .strict();
export type PaymentMatchRequest = z.infer<typeof paymentMatchRequestSchema>;

export const statementImportResponseSchema = z.object({
  seen: z.number().int(),
  credited: z.number().int(),
  unmatched: z.number().int(),
});
export type StatementImportResponse = z.infer<typeof statementImportResponseSchema>;

/** The secret segment of the callback URLs (MPESA_CALLBACK_TOKEN); checked by the server, 404 when wrong. */
export const callbackTokenParamSchema = z.object({ token: z.string().max(200) }).strict();

const metadataItem = z
  .object({ Name: z.string().max(64), Value: z.union([z.string().max(64), z.number()]).optional() })
  .strict();

/** The body Daraja POSTs to an STK push's CallBackURL (M-Pesa Express, "Callback"). */
export const stkCallbackSchema = z
  .object({
    Body: z
      .object({
        stkCallback: z
          .object({
            MerchantRequestID: z.string().min(1).max(64),
            CheckoutRequestID: z.string().min(1).max(64),
            ResultCode: z.number().int(),
            ResultDesc: z.string().max(500),
            CallbackMetadata: z
              .object({ Item: z.array(metadataItem).max(10) })
              .strict()
              .optional(),
          })
          .strict(),
      })
      .strict(),
  })
  .strict();
export type StkCallback = z.infer<typeof stkCallbackSchema>;

/** The body Daraja POSTs to the C2B ValidationURL and ConfirmationURL ("Customer To Business"). */
export const c2bPaymentSchema = z
  .object({
    TransactionType: z.string().max(40),
    TransID: z.string().regex(/^[A-Z0-9]{10}$/, 'must be an M-Pesa receipt number'),
    TransTime: z.string().regex(/^\d{14}$/, 'must be YYYYMMDDHHmmss'),
    TransAmount: z.string().regex(/^\d{1,9}(\.\d{1,2})?$/, 'must be an amount'),
    BusinessShortCode: z.string().regex(/^\d{5,7}$/),
    BillRefNumber: z.string().max(64),
    InvoiceNumber: z.string().max(64).optional(),
    OrgAccountBalance: z.string().max(32).optional(),
    ThirdPartyTransID: z.string().max(64).optional(),
    MSISDN: z.string().max(64),
    FirstName: z.string().max(64).optional(),
    MiddleName: z.string().max(64).optional(),
    LastName: z.string().max(64).optional(),
  })
  .strict();
export type C2bPayment = z.infer<typeof c2bPaymentSchema>;
