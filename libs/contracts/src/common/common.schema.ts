import { z } from 'zod';

/** The error body of every failed HTTP call (docs/rest-api.md, "Conventions"). */
export const errorBodySchema = z.object({
  statusCode: z.number().int(),
  code: z.string(),
  message: z.string(),
  /** Endpoints whose web-app answer is "message or error" repeat the sentence here. */
  error: z.string().optional(),
  /** For 400s: one entry per bad field. */
  fields: z.array(z.object({ path: z.string(), message: z.string() })).optional(),
});
export type ErrorBody = z.infer<typeof errorBodySchema>;

export const messageResponseSchema = z.object({ message: z.string() });
export type MessageResponse = z.infer<typeof messageResponseSchema>;

export const ROLES = ['admin', 'manager', 'attendant'] as const;
export const roleSchema = z.enum(ROLES);
export type Role = z.infer<typeof roleSchema>;

/** ESP IDs are chosen by admins; keep them topic-safe (no `/`, `+`, `#`) and short. */
export const espIdSchema = z
  .string()
  .trim()
  .min(1, 'ESP ID is required')
  .max(64, 'ESP ID is at most 64 characters')
  .regex(/^[A-Za-z0-9_.-]+$/, 'ESP ID may contain only letters, digits, ".", "_" and "-"')
  // The provisioning identity's MQTT username (docs/device-protocol.md, "Identity and provisioning").
  .refine((id) => id.toLowerCase() !== 'provision', 'ESP ID "provision" is reserved');

const MAC_PATTERN = /^([0-9A-Fa-f]{2}[:-]?){5}[0-9A-Fa-f]{2}$/;

/** Normalises `a1-b2-c3-d4-e5-f6`, `A1B2C3D4E5F6` and `a1:b2:…` to `A1:B2:C3:D4:E5:F6`. */
export function normalizeMac(input: string): string {
  const hex = input.replace(/[:-]/g, '').toUpperCase();
  return hex.match(/.{2}/g)!.join(':');
}

/** The 12 upper-case hex digits used in provisioning topics and client ids. */
export function macToTopicId(mac: string): string {
  return mac.replace(/[:-]/g, '').toUpperCase();
}

export const macAddressSchema = z
  .string()
  .trim()
  .regex(MAC_PATTERN, 'MAC address must look like AA:BB:CC:DD:EE:FF')
  .transform(normalizeMac);

export const uuidSchema = z.uuid('must be a UUID');

/** The largest amount a `numeric(14,2)` column holds: every money amount and balance is one. */
export const MONEY_MAX = 999_999_999_999.99;

/**
 * True when `n` is written with at most `places` decimals. JSON numbers arrive as doubles, whose
 * shortest round-trip text (ECMA-262 Number::toString) is the decimal the client sent; reading the
 * digits there is exact where `n * 100` arithmetic is not (at 1e12 a double is off by more than 1e-6).
 */
export function hasAtMostDecimals(n: number, places: number): boolean {
  const text = String(Math.abs(n));
  if (!/^\d+(\.\d+)?$/.test(text)) return false; // exponent notation: below 1e-6 or above 1e21
  const dot = text.indexOf('.');
  return dot < 0 || text.length - dot - 1 <= places;
}

/**
 * Money: a JSON number with at most 2 decimals, no larger than a balance column holds. Never coerced:
 * `z.coerce.number` read `true` as 1, `[2]` as 2, "0x3" as 3 and "0b100" as 4.
 */
export const moneySchema = z
  .number({ error: 'must be a number' })
  .refine((n) => Number.isFinite(n), 'must be a finite number')
  .refine((n) => hasAtMostDecimals(n, 2), 'has more than 2 decimals')
  .refine((n) => Math.abs(n) <= MONEY_MAX, 'is larger than 999999999999.99');

export const positiveMoneySchema = moneySchema.refine((n) => n > 0, 'must be greater than 0');

/**
 * The calendar years a date filter may name. PostgreSQL has no year 0 (`0000-01-01` is out of range,
 * where JavaScript's Date reads it as 1 BC), and no sale of this platform predates 2000; four digits
 * keep `YYYY-MM-DD` strings ordered and the local-day arithmetic (the day after 9999-12-31) in range.
 */
export const DATE_MIN = '2000-01-01';
export const DATE_MAX = '9999-12-31';
const DATE_RANGE_MESSAGE = `must be between ${DATE_MIN} and ${DATE_MAX}`;

/** A calendar date `YYYY-MM-DD` in APP_TIMEZONE. */
export const isoDateSchema = z
  .string()
  .regex(/^\d{4}-\d{2}-\d{2}$/, 'must be a date as YYYY-MM-DD')
  .refine(
    (s) => !Number.isNaN(Date.parse(`${s}T00:00:00Z`)) && new Date(`${s}T00:00:00Z`).toISOString().startsWith(s),
    'is not a real calendar date',
  )
  .refine((s) => s >= DATE_MIN && s <= DATE_MAX, DATE_RANGE_MESSAGE);

/** An instant, ISO 8601 with an offset or `Z`, whose written date lies in the same years as isoDateSchema. */
export const isoDateTimeSchema = z.iso
  .datetime({ offset: true })
  .refine((s) => s.slice(0, 10) >= DATE_MIN && s.slice(0, 10) <= DATE_MAX, DATE_RANGE_MESSAGE);

export const paginationQuerySchema = z
  .object({
    page: z.coerce.number().int().min(1).default(1),
    limit: z.coerce.number().int().min(1).max(1000).default(50),
  })
  .strict();
export type PaginationQuery = z.infer<typeof paginationQuerySchema>;

export const espIdParamSchema = z.object({ espId: espIdSchema }).strict();
export const esp32IdParamSchema = z.object({ esp32Id: espIdSchema }).strict();
export const userIdParamSchema = z.object({ userId: uuidSchema }).strict();
