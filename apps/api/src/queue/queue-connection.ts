import { Redis } from 'ioredis';
import type { AppConfig } from '../config/app-config.js';

export const SALES_QUEUE = 'sales-ingest';

/** BullMQ needs its own connections without ioredis' keyPrefix; it prefixes keys itself. */
export function createQueueConnection(config: AppConfig, purpose: string): Redis {
  return new Redis(config.redisUrl, {
    connectionName: `wv-${purpose}`,
    maxRetriesPerRequest: null,
    enableReadyCheck: true,
  });
}

/** Every BullMQ key lives under `${REDIS_PREFIX}:bull:`. */
export const bullPrefix = (config: AppConfig) => `${config.redisPrefix}:bull`;
