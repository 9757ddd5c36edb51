import { Inject, Injectable } from '@nestjs/common';
import { ErrorCode } from '@wv/contracts';
import type { Redis } from 'ioredis';
import { AppError } from '../common/app-error.js';
import { APP_CONFIG, type AppConfig } from '../config/app-config.js';
import { REDIS } from '../redis/redis.provider.js';

/**
 * A fixed one-minute window per caller, counted in Redis so that every API process shares it:
 * anonymous callers by address, machines by ESP ID (many machines may share a carrier's address).
 */
@Injectable()
export class RequestRateLimiter {
  constructor(
    @Inject(REDIS) private readonly redis: Redis,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  /** Counts one request of `caller`; 429 past `limit` in this minute (default HTTP_RATE_LIMIT). */
  async consume(caller: string, limit = this.config.httpRateLimit): Promise<void> {
    const window = Math.floor(Date.now() / 60_000);
    const key = `rate:${caller}:${window}`;
    const [[, count]] = (await this.redis.multi().incr(key).expire(key, 61).exec()) as [[null, number], unknown];
    if (count > limit) {
      throw new AppError(ErrorCode.RateLimited, 'Too many requests; slow down and try again in a minute');
    }
  }
}
