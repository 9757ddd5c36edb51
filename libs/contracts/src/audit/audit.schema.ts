import { z } from 'zod';
import { isoDateSchema, isoDateTimeSchema, uuidSchema } from '../common/common.schema.js';

export const AUDIT_ENTITIES = [
  'user',
  'device',
  'tariffs',
  'wifi',
  'card',
  'float_request',
  'float',
  'alarm',
  'alarm_settings',
] as const;

export const auditQuerySchema = z
  .object({
    actorId: uuidSchema.optional(),
    entity: z.enum(AUDIT_ENTITIES).optional(),
    from: z.union([isoDateSchema, isoDateTimeSchema]).optional(),
    to: z.union([isoDateSchema, isoDateTimeSchema]).optional(),
    page: z.coerce.number().int().min(1).default(1),
    limit: z.coerce.number().int().min(1).max(500).default(50),
  })
  .strict();
export type AuditQuery = z.infer<typeof auditQuerySchema>;

export const auditRowSchema = z.object({
  id: z.string(),
  actorId: z.string().nullable(),
  action: z.string(),
  entity: z.enum(AUDIT_ENTITIES),
  entityId: z.string(),
  before: z.unknown().nullable(),
  after: z.unknown().nullable(),
  at: z.string(),
});
export type AuditRow = z.infer<typeof auditRowSchema>;
