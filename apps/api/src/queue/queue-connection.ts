import type { Redis } from 'ioredis';
import type { AppConfig } from '../config/app-config.js';
import { createRedis } from '../redis/redis-connection.js';

export const SALES_QUEUE = 'sales-ingest';

/** BullMQ needs its own connections without ioredis' keyPrefix; it prefixes keys itself. */
export function createQueueConnection(config: AppConfig, purpose: string): Redis {
  return createRedis(config, {
    connectionName: `wv-${purpose}`,
    maxRetriesPerRequest: null,
    enableReadyCheck: true,
  });
}

/**
 * The BullMQ prefix of a queue: its keys live under `${REDIS_PREFIX}:bull:`. Over a Redis Cluster each queue gets a
 * hash tag of its own, `{${REDIS_PREFIX}:bull:${queue}}`, so that BullMQ's Lua scripts keep to one slot while the
 * queues spread over the nodes, as BullMQ's documentation recommends (docs.bullmq.io, "Redis Cluster";
 * docs/redis-cluster.md).
 */
export const bullPrefix = (config: AppConfig, queue: string) =>
  config.redisClusterNodes ? `{${config.redisPrefix}:bull:${queue}}` : `${config.redisPrefix}:bull`;
