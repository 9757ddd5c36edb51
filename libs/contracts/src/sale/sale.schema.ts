import { z } from 'zod';

export const SALE_KINDS = ['coin', 'card'] as const;
export const WATER_TYPES = ['pure', 'fresh', 'cold'] as const;
/** A sale's `time` may be at most 5 minutes ahead and 365 days behind the receive time. */
export const SALE_MAX_FUTURE_MS = 5 * 60_000;
export const SALE_MAX_PAST_MS = 365 * 24 * 3600_000;

/**
 * Why a stored card sale is marked: `unknown_card` (no such card), `overdrawn` (it took the card below
 * zero), `foreign_card` (the card belongs to another manager's machines, or to another unowned
 * machine; the sale was not charged to it), `blocked_card` (the card was blocked before the sale's
 * time), `over_limit` (it took the card past its daily limit of litres). A sale is never refused after
 * the water was dispensed; it carries at most one flag (docs/device-protocol.md, "Sales").
 */
export const SALE_FLAGS = ['unknown_card', 'overdrawn', 'foreign_card', 'blocked_card', 'over_limit'] as const;
export const saleFlagSchema = z.enum(SALE_FLAGS);
export type SaleFlag = z.infer<typeof saleFlagSchema>;

/**
 * Price and volume as a machine sends them: JSON numbers only (never strings or booleans). Unlike the
 * API's moneySchema, a value within floating-point noise of whole cents or millilitres is accepted as
 * those (firmware computes prices in floating point), because a sale cannot be refused after the
 * water was dispensed; the ingest stores it rounded to the column's decimals.
 */
const litresSchema = (field: string) =>
  z
    .number({ error: `${field} must be a number` })
    .finite()
    .min(0, `${field} must be ≥ 0`)
    .max(100_000, `${field} is too large`)
    .refine((n) => Math.abs(n * 1000 - Math.round(n * 1000)) < 1e-6, `${field} has more than 3 decimals`);
const volumeSchema = litresSchema('volume');
const priceSchema = z
  .number({ error: 'price must be a number' })
  .finite()
  .min(0, 'price must be ≥ 0')
  .max(1e9, 'price is too large')
  .refine((n) => Math.abs(n * 100 - Math.round(n * 100)) < 1e-6, 'price has more than 2 decimals');

/**
 * Ids PostgreSQL stores as sent: U+0000 fails the whole batch's insert, and a lone surrogate is
 * stored as U+FFFD, which would make two different ids one (and the second sale a duplicate).
 */
const isStorableId = (s: string) =>
  !s.includes('\u0000') && !/[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/.test(s);

/** One sale as a machine sends it (docs/device-protocol.md, "Sales"). */
export const saleSchema = z
  .object({
    eventId: z
      .string()
      .min(1, 'eventId is required')
      .max(64, 'eventId is at most 64 characters')
      .refine(isStorableId, 'eventId must be valid Unicode text without the NUL character'),
    kind: z.enum(SALE_KINDS),
    price: priceSchema,
    volume: volumeSchema,
    waterType: z.enum(WATER_TYPES),
    cardId: z
      .string()
      .trim()
      .min(1)
      .max(64)
      .refine(isStorableId, 'cardId must be valid Unicode text without the NUL character')
      .optional(),
    time: z.iso.datetime({ offset: true, error: 'time must be ISO 8601 with an offset or Z' }).optional(),
    /** The machine's sale counter: 1 for its first sale, one more for each next one (docs/device-protocol.md, "Sequence numbers"). */
    seq: z
      .number({ error: 'seq must be a number' })
      .int('seq must be a whole number')
      .min(1, 'seq must be 1 or more')
      .max(Number.MAX_SAFE_INTEGER, 'seq is too large')
      .optional(),
    /** The sale was made while the machine had no connection to the server. */
    offline: z.boolean({ error: 'offline must be true or false' }).optional(),
    /** Litres the flow meter measured; under 90 % of `volume` on a card sale refunds the difference. */
    dispensed: litresSchema('dispensed').optional(),
  })
  .strict()
  .refine((s) => s.kind !== 'card' || s.cardId !== undefined, {
    message: 'cardId is required for card sales',
    path: ['cardId'],
  });
export type Sale = z.infer<typeof saleSchema>;

/** Checks the time window against the receive time; returns a reason or null. */
export function saleTimeProblem(sale: Sale, receivedAt: Date): string | null {
  if (!sale.time) return null;
  const t = Date.parse(sale.time);
  if (t - receivedAt.getTime() > SALE_MAX_FUTURE_MS) return 'time is more than 5 minutes in the future';
  if (receivedAt.getTime() - t > SALE_MAX_PAST_MS) return 'time is more than 365 days in the past';
  return null;
}

export const salesPayloadSchema = z.union([saleSchema, z.array(z.unknown()).min(1).max(1000)]);

export const statusPayloadSchema = z
  .object({
    online: z.boolean(),
    firmware: z.string().max(64).optional(),
    rssi: z.number().optional(),
    /** Sales in the machine's flash not yet acknowledged by `sales/ack`. */
    queued: z.number().int().min(0).max(2_147_483_647).optional(),
  })
  .strip();
export type StatusPayload = z.infer<typeof statusPayloadSchema>;

export const helloPayloadSchema = z.object({ macAddress: z.string(), firmware: z.string().max(64).optional() }).strip();
export type HelloPayload = z.infer<typeof helloPayloadSchema>;

export const assignmentPayloadSchema = z.object({ espId: z.string(), deviceKey: z.string() });
export type AssignmentPayload = z.infer<typeof assignmentPayloadSchema>;

export const configPayloadSchema = z.object({
  version: z.number().int(),
  wifi: z.object({ ssid: z.string(), password: z.string() }),
  tariffs: z.object({ cold: z.number(), fresh: z.number(), coldCalb: z.number(), freshCalb: z.number() }),
});
export type ConfigPayload = z.infer<typeof configPayloadSchema>;

export const configAckPayloadSchema = z.object({ version: z.number().int() }).strip();
export type ConfigAckPayload = z.infer<typeof configAckPayloadSchema>;

export const salesAckPayloadSchema = z.object({ eventIds: z.array(z.string()) });
export type SalesAckPayload = z.infer<typeof salesAckPayloadSchema>;

/** POST /machines/{espId}/sales answer: good items of a mixed array are kept, bad ones dead-lettered. */
export const ingestResponseSchema = z.object({
  accepted: z.number().int(),
  rejected: z.array(z.object({ index: z.number().int(), reason: z.string() })),
});
export type IngestResponse = z.infer<typeof ingestResponseSchema>;

export const deadLetterRowSchema = z.object({
  id: z.string(),
  espId: z.string().nullable(),
  topic: z.string(),
  reason: z.string(),
  payload: z.string(),
  receivedAt: z.string(),
});
export type DeadLetterRow = z.infer<typeof deadLetterRowSchema>;
