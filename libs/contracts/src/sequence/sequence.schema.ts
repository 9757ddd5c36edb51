import { z } from 'zod';

/**
 * GET /machines/{espId}/sync: what the server holds of a machine's sales and card list, so that a
 * machine coming back from a partition (or its manager) can see what is still missing
 * (docs/device-protocol.md, "Sequence numbers").
 */
export const machineSyncSchema = z.object({
  /** The highest `seq` received from the machine (0 before any). */
  lastSeq: z.number().int(),
  /** Inclusive ranges of `seq` below `lastSeq` never received, oldest first. */
  missing: z.array(z.tuple([z.number().int(), z.number().int()])),
  /** Sales in the machine's flash not yet acknowledged, as its last status said (null: never said). */
  queued: z.number().int().nullable(),
  /** The time of the machine's newest stored sale, or null. */
  lastSaleAt: z.string().nullable(),
  cardListVersion: z.number().int(),
  cardListAckedVersion: z.number().int(),
});
export type MachineSync = z.infer<typeof machineSyncSchema>;
