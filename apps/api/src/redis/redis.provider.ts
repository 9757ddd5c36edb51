import { Redis } from 'ioredis';
import type { AppConfig } from '../config/app-config.js';

export const REDIS = Symbol('REDIS');

/** One shared client; every key carries `${REDIS_PREFIX}:` so deployments and test runs never collide. */
export function createRedis(config: AppConfig, purpose = 'app'): Redis {
  return new Redis(config.redisUrl, {
    keyPrefix: `${config.redisPrefix}:`,
    connectionName: `wv-${purpose}`,
    lazyConnect: true,
    maxRetriesPerRequest: 3,
    enableOfflineQueue: true,
  });
}
