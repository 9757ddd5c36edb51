import { Inject, Injectable } from '@nestjs/common';
import { ErrorCode, LOGIN_MAX_FAILURES, LOGIN_WINDOW_SECONDS } from '@wv/contracts';
import type { Redis } from 'ioredis';
import { AppError } from '../common/app-error.js';
import { REDIS } from '../redis/redis.provider.js';

/**
 * CONTRACT section 2 and 3a: at most 10 failures in 15 minutes per identifier and per address,
 * counted in Redis so every API process shares them; while locked even the right password gets 429.
 */
@Injectable()
export class LoginRateLimiter {
  constructor(@Inject(REDIS) private readonly redis: Redis) {}

  private keys(identifier: string, address: string): string[] {
    return [`login-fail:id:${identifier.toLowerCase()}`, `login-fail:ip:${address}`];
  }

  async assertAllowed(identifier: string, address: string): Promise<void> {
    const counts = await this.redis.mget(...this.keys(identifier, address));
    if (counts.some((c) => Number(c ?? 0) >= LOGIN_MAX_FAILURES)) {
      throw new AppError(ErrorCode.RateLimited, 'Too many failed sign-in attempts; try again in 15 minutes');
    }
  }

  async recordFailure(identifier: string, address: string): Promise<void> {
    const pipeline = this.redis.multi();
    for (const key of this.keys(identifier, address)) {
      pipeline.incr(key);
      // The window starts at the first failure and is not extended by later ones.
      pipeline.expire(key, LOGIN_WINDOW_SECONDS, 'NX');
    }
    await pipeline.exec();
  }

  async clearIdentifier(identifier: string): Promise<void> {
    await this.redis.del(this.keys(identifier, '')[0]!);
  }
}
