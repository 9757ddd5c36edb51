import { z } from 'zod';

/** The error body of every failed HTTP call (CONTRACT section 2). */
export const errorBodySchema = z.object({
  statusCode: z.number().int(),
  code: z.string(),
  message: z.string(),
  /** Endpoints whose seed answer is "message or error" repeat the sentence here. */
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
  // The provisioning identity's MQTT username (CONTRACT section 4).
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

/** Money: a JSON number (or numeric string) with at most 2 decimals. */
export const moneySchema = z.coerce
  .number({ error: 'must be a number' })
  .finite('must be a finite number')
  .refine((n) => Math.abs(n) < 1e12, 'is too large')
  .refine(
    (n) => Number.isInteger(Math.round(n * 100)) && Math.abs(n * 100 - Math.round(n * 100)) < 1e-6,
    'has more than 2 decimals',
  );

export const positiveMoneySchema = moneySchema.refine((n) => n > 0, 'must be greater than 0');

/** A calendar date `YYYY-MM-DD` in APP_TIMEZONE. */
export const isoDateSchema = z
  .string()
  .regex(/^\d{4}-\d{2}-\d{2}$/, 'must be a date as YYYY-MM-DD')
  .refine(
    (s) => !Number.isNaN(Date.parse(`${s}T00:00:00Z`)) && new Date(`${s}T00:00:00Z`).toISOString().startsWith(s),
    'is not a real calendar date',
  );

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
