import { z } from 'zod';

const componentStatus = z.enum(['up', 'down', 'disabled']);
export const healthResponseSchema = z.object({
  status: z.enum(['ok', 'degraded']),
  db: componentStatus,
  redis: componentStatus,
  mqtt: componentStatus,
});
export type HealthResponse = z.infer<typeof healthResponseSchema>;
