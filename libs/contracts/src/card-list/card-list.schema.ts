import { z } from 'zod';

/**
 * The cards a machine holds so that it can sell while offline (docs/device-protocol.md, "Card lists"):
 * every card that works at the machine, with what the machine needs to decide a sale on its own.
 */
export const cardListEntrySchema = z.object({
  cardId: z.string(),
  status: z.enum(['active', 'blocked']),
  /** In the currency's units, at most 2 decimals; may be negative after an overdraft. */
  balance: z.number(),
  /** Litres per local day, or null for no limit. */
  dailyLimitLitres: z.number().nullable(),
});
export type CardListEntry = z.infer<typeof cardListEntrySchema>;

/** `wv/v1/machines/{espId}/cards`, retained: the whole list at `version`. */
export const cardListPayloadSchema = z.object({
  version: z.number().int().min(1),
  cards: z.array(cardListEntrySchema),
});
export type CardListPayload = z.infer<typeof cardListPayloadSchema>;

/** `wv/v1/machines/{espId}/cards/delta`: turns the list at `baseVersion` into the list at `version`. */
export const cardListDeltaPayloadSchema = z.object({
  version: z.number().int().min(2),
  baseVersion: z.number().int().min(1),
  upserts: z.array(cardListEntrySchema),
  removals: z.array(z.string()),
});
export type CardListDeltaPayload = z.infer<typeof cardListDeltaPayloadSchema>;

/**
 * `wv/v1/machines/{espId}/cards/ack`: the version of the list the machine holds now (0: none). Capped
 * well below the version column's limit: a version beyond the newest makes the server continue from it.
 */
export const cardListAckPayloadSchema = z.object({ version: z.number().int().min(0).max(1_000_000_000) }).strip();
export type CardListAckPayload = z.infer<typeof cardListAckPayloadSchema>;

/** What GET /machines/{espId}/sync reports of a machine's card list. */
export interface CardListVersionState {
  /** The newest version of the machine's list (0 before its first list). */
  cardListVersion: number;
  /** The newest version the machine said it holds. */
  cardListAckedVersion: number;
}
