import type { Redis } from 'ioredis';
import type { AppConfig } from '../config/app-config.js';
import { createRedis, keyPrefix } from './redis-connection.js';

export const REDIS = Symbol('REDIS');

/**
 * One shared client; every key carries `${REDIS_PREFIX}:` (over a Redis Cluster `{${REDIS_PREFIX}}:`,
 * docs/redis-cluster.md) so deployments and test runs never collide.
 */
export function createAppRedis(config: AppConfig, purpose = 'app'): Redis {
  return createRedis(config, {
    keyPrefix: keyPrefix(config),
    connectionName: `wv-${purpose}`,
    lazyConnect: true,
    maxRetriesPerRequest: 3,
    enableOfflineQueue: true,
  });
}
