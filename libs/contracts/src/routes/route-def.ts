import { z } from 'zod';
import type { Role } from '../common/common.schema.js';

/**
 * Who may call a route: `public` is anyone; `device` is a machine with its X-Device-Key; `metrics`
 * is the bearer METRICS_TOKEN, for Prometheus scrapers; `mqtt-hook` is the bearer MQTT_HOOK_TOKEN, for an
 * external MQTT broker asking who a client is.
 */
export type Access = Role | 'public' | 'device' | 'metrics' | 'mqtt-hook';

export interface RouteDef {
  method: 'GET' | 'POST' | 'PUT' | 'DELETE';
  /** Express-style path under /api, `:name` for parameters. */
  path: string;
  access: readonly Access[];
  summary: string;
  tag: string;
  /** Success status. */
  status: number;
  params?: z.ZodType;
  query?: z.ZodType;
  body?: z.ZodType;
  response?: z.ZodType;
}

export const route = <const T extends RouteDef>(def: T): T => def;

/** `{data, total}` of a paged list. */
export const page = <T extends z.ZodType>(row: T) => z.object({ data: z.array(row), total: z.number().int() });
