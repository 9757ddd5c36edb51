import { z } from 'zod';

/** POST /cards/{card_id}/block. */
export const blockCardRequestSchema = z
  .object({
    reason: z
      .string({ error: 'reason is required' })
      .trim()
      .min(1, 'reason is required')
      .max(200, 'reason is at most 200 characters'),
  })
  .strict();
export type BlockCardRequest = z.infer<typeof blockCardRequestSchema>;

/** POST /cards/{card_id}/replace: the new card takes the holder and the balance; the old one is blocked. */
export const replaceCardRequestSchema = z
  .object({
    newCardId: z
      .string({ error: 'newCardId is required' })
      .trim()
      .min(1, 'newCardId is required')
      .max(64, 'newCardId is at most 64 characters'),
  })
  .strict();
export type ReplaceCardRequest = z.infer<typeof replaceCardRequestSchema>;

/** PUT /cards/{card_id}/limits: litres per local day, or null for no limit. */
export const cardLimitsRequestSchema = z
  .object({
    dailyLimitLitres: z
      .number({ error: 'dailyLimitLitres must be a number or null' })
      .finite()
      .gt(0, 'dailyLimitLitres must be more than 0')
      .max(100_000, 'dailyLimitLitres is at most 100000')
      .refine((n) => Math.abs(n * 1000 - Math.round(n * 1000)) < 1e-6, 'dailyLimitLitres has more than 3 decimals')
      .nullable(),
  })
  .strict();
export type CardLimitsRequest = z.infer<typeof cardLimitsRequestSchema>;
