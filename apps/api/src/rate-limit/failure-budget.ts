import { Inject, Injectable } from '@nestjs/common';
import type { Redis } from 'ioredis';
import { REDIS } from '../redis/redis.provider.js';

/**
 * Takes one attempt from every counter, or none when one of them is used up (then answers 0). The
 * window starts at a counter's first attempt and later ones do not extend it.
 */
const TAKE = `
local over = false
for _, key in ipairs(KEYS) do
  if redis.call('INCR', key) > tonumber(ARGV[1]) then over = true end
  redis.call('EXPIRE', key, ARGV[2], 'NX')
end
if not over then return 1 end
for _, key in ipairs(KEYS) do redis.call('DECR', key) end
return 0`;

/** Gives one attempt back to each counter that holds one. */
const GIVE_BACK = `
for _, key in ipairs(KEYS) do
  if tonumber(redis.call('GET', key) or '0') > 0 then redis.call('DECR', key) end
end
return 1`;

/**
 * Budgets of failures (wrong passwords, device keys, forged tokens), counted in Redis so that every
 * API process shares them (docs/security.md, "Limits in force"). An attempt is taken before the check
 * it pays for, so guesses sent all at once cannot pass the count before it rises; one that turns out
 * not to be a failure is given back.
 */
@Injectable()
export class FailureBudget {
  constructor(@Inject(REDIS) private readonly redis: Redis) {}

  /** Takes one attempt from each key (at most `limit` per window); false, taking none, once one is spent. */
  async take(keys: string[], limit: number, windowSeconds: number): Promise<boolean> {
    return Number(await this.redis.eval(TAKE, keys.length, ...keys, limit, windowSeconds)) === 1;
  }

  /** The attempt was no failure. */
  async giveBack(keys: string[]): Promise<void> {
    if (keys.length > 0) await this.redis.eval(GIVE_BACK, keys.length, ...keys);
  }

  /** Starts the keys' counts again (a right password ends the account's run of failures). */
  async reset(keys: string[]): Promise<void> {
    if (keys.length > 0) await this.redis.del(...keys);
  }
}
