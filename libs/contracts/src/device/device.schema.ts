import { z } from 'zod';
import { espIdSchema, macAddressSchema } from '../common/common.schema.js';

/** POST /devices/announce: a machine without an id says it exists. */
export const announceRequestSchema = z
  .object({ macAddress: macAddressSchema, firmware: z.string().trim().max(64).optional() })
  .strict();
export type AnnounceRequest = z.infer<typeof announceRequestSchema>;

export const macAddressRowSchema = z.object({ macAddress: z.string() });
export type MacAddressRow = z.infer<typeof macAddressRowSchema>;

/** POST /assign_id (admin). */
export const assignIdRequestSchema = z.object({ macAddress: macAddressSchema, espId: espIdSchema }).strict();
export type AssignIdRequest = z.input<typeof assignIdRequestSchema>;

export const assignIdResponseSchema = z.object({ message: z.string(), deviceKey: z.string() });
export type AssignIdResponse = z.infer<typeof assignIdResponseSchema>;

export const rotateKeyResponseSchema = z.object({ deviceKey: z.string() });
export type RotateKeyResponse = z.infer<typeof rotateKeyResponseSchema>;

export const DEVICE_KEY_HEADER = 'x-device-key';
