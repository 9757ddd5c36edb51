import { z } from 'zod';
import { moneySchema, positiveMoneySchema, uuidSchema } from '../common/common.schema.js';
import { normalizePhone } from '../common/phone.js';
import { saleFlagSchema } from '../sale/sale.schema.js';

export const IDEMPOTENCY_KEY_HEADER = 'idempotency-key';

const cardIdSchema = z.string().trim().min(1, 'Card ID is required').max(64, 'Card ID is at most 64 characters');

/** POST /att/add/user/card (attendant): registers a card at the attendant's device, loading its balance from float. */
export const addCardRequestSchema = z
  .object({
    card_id: cardIdSchema,
    card_holder_first_name: z.string().trim().min(1, 'First name is required').max(100),
    card_holder_last_name: z.string().trim().min(1, 'Last name is required').max(100),
    phoneNumber: z
      .union([z.literal(''), z.null(), z.string().trim().max(32)])
      .optional()
      .transform((v, ctx) => {
        if (!v) return null;
        const e164 = normalizePhone(v);
        if (!e164) {
          ctx.addIssue({ code: 'custom', message: 'Mobile number is not valid' });
          return z.NEVER;
        }
        return e164;
      }),
    card_balance: moneySchema.refine((n) => n >= 0, 'Balance must be 0 or more'),
    card_type: z.string().trim().min(1, 'Card type is required').max(32, 'Card type is at most 32 characters'),
  })
  .strict();
export type AddCardRequest = z.input<typeof addCardRequestSchema>;
export type AddCardCommand = z.output<typeof addCardRequestSchema>;
export const addCardResponseSchema = z.object({ id: z.string() });

export const cardIdParamSchema = z.object({ card_id: cardIdSchema }).strict();

export const CARD_STATUSES = ['active', 'blocked'] as const;
export type CardStatus = (typeof CARD_STATUSES)[number];
export const topUpRequestSchema = z.object({ amount: positiveMoneySchema }).strict();
export type TopUpRequest = z.input<typeof topUpRequestSchema>;
export type TopUpCommand = z.output<typeof topUpRequestSchema>;
export const topUpResponseSchema = z.object({ card_balance: z.number() });

export const cardRowSchema = z.object({
  id: z.string(),
  card_id: z.string(),
  card_holder_first_name: z.string(),
  card_holder_last_name: z.string(),
  phoneNumber: z.string().nullable(),
  card_balance: z.number(),
  card_type: z.string(),
  date_registered: z.string(),
  /** `blocked`: machines refuse it from their lists; sales made with it anyway are kept and flagged. */
  status: z.enum(CARD_STATUSES),
  /** Litres the card may take per local day (APP_TIMEZONE), or null for no limit. */
  dailyLimitLitres: z.number().nullable(),
});
export type CardRow = z.infer<typeof cardRowSchema>;

/**
 * A card's movements: `refund` gives back the undelivered share of a short-dispensed sale;
 * `transfer-out` / `transfer-in` move the balance of a replaced card to its replacement.
 */
export const CARD_HISTORY_KINDS = [
  'load',
  'top-up',
  'sale',
  'refund',
  'transfer-out',
  'transfer-in',
  'mobile-top-up',
] as const;
export const cardTransactionRowSchema = z.object({
  id: z.string(),
  transaction_id: z.string(),
  /** Signed: positive for load, top-up, mobile-top-up, refund and transfer-in; negative for sale and transfer-out. */
  amount: z.number(),
  created_at: z.string(),
  card_type: z.string(),
  kind: z.enum(CARD_HISTORY_KINDS),
  flag: saleFlagSchema.nullable(),
});
export type CardHistoryRow = z.infer<typeof cardTransactionRowSchema>;

export const cardSummarySchema = z.record(z.string(), z.number().int());
export type CardSummary = z.infer<typeof cardSummarySchema>;

export const FLOAT_STATUSES = ['pending', 'approved', 'rejected'] as const;
export const floatRequestRowSchema = z.object({
  requestId: z.string(),
  attendantId: z.string(),
  requestedAmount: z.number(),
  approvedAmount: z.number().nullable(),
  status: z.enum(FLOAT_STATUSES),
  requestedAt: z.string(),
  approvedAt: z.string().nullable(),
});
export type FloatRequestRow = z.infer<typeof floatRequestRowSchema>;

export const floatBalanceSchema = z.object({ balance: z.number() });
export const requestFloatRequestSchema = z.object({ amount: positiveMoneySchema }).strict();
export type RequestFloatRequest = z.input<typeof requestFloatRequestSchema>;
export type RequestFloatCommand = z.output<typeof requestFloatRequestSchema>;

export const pendingFloatRequestSchema = z.object({
  requestId: z.string(),
  attendantId: z.string(),
  attendantName: z.string(),
  requestedAmount: z.number(),
  requestedAt: z.string(),
});
export type PendingFloatRequest = z.infer<typeof pendingFloatRequestSchema>;

export const assignFloatRequestSchema = z
  .object({ attendantId: uuidSchema, amount: positiveMoneySchema, requestId: uuidSchema.optional() })
  .strict();
export type AssignFloatRequest = z.input<typeof assignFloatRequestSchema>;
export type AssignFloatCommand = z.output<typeof assignFloatRequestSchema>;
export const requestIdParamSchema = z.object({ requestId: uuidSchema }).strict();
