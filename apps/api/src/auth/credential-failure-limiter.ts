import { Inject, Injectable } from '@nestjs/common';
import { ErrorCode } from '@wv/contracts';
import type { Redis } from 'ioredis';
import { AppError } from '../common/app-error.js';
import { REDIS } from '../redis/redis.provider.js';

/** Wrong credentials answered per address and window; past them the address gets 429. */
export const CREDENTIAL_FAILURE_LIMIT = 20;
export const CREDENTIAL_FAILURE_WINDOW_SECONDS = 600;

/**
 * Takes one attempt unless the address has used them all (then answers 0). The window starts at the
 * first attempt and later ones do not extend it.
 */
const RESERVE = `
if tonumber(redis.call('GET', KEYS[1]) or '0') >= tonumber(ARGV[1]) then return 0 end
redis.call('INCR', KEYS[1])
redis.call('EXPIRE', KEYS[1], ARGV[2], 'NX')
return 1`;

/** Gives an attempt back: it was no failure. */
const RELEASE = `
if tonumber(redis.call('GET', KEYS[1]) or '0') > 0 then redis.call('DECR', KEYS[1]) end
return 1`;

const TOO_MANY = 'Too many wrong credentials from this address; try again in 10 minutes';

/** One reserved device-key check: counted as a failure unless `release` gives it back. */
export interface CredentialAttempt {
  release(): Promise<void>;
}

/**
 * Guessing of device keys and bearer tokens, limited per client address and counted in Redis so that
 * every API process shares the count. Only failures count: machines and users whose credentials hold
 * are never limited here, however many share an address.
 *
 * A device key costs a database lookup, so its attempt is taken before the lookup (guesses sent all at
 * once cannot pass the count before it rises). A bearer token is checked by its signature alone, so
 * only the failures are counted. Expired tokens and tokens of removed users are not counted: they were
 * issued by the server and come from clients that will sign in again, not from a guesser.
 */
@Injectable()
export class CredentialFailureLimiter {
  constructor(@Inject(REDIS) private readonly redis: Redis) {}

  async beginDeviceKeyCheck(address: string | undefined): Promise<CredentialAttempt> {
    const key = `auth-fail:device-key:${address ?? 'unknown'}`;
    const taken = await this.redis.eval(RESERVE, 1, key, CREDENTIAL_FAILURE_LIMIT, CREDENTIAL_FAILURE_WINDOW_SECONDS);
    if (Number(taken) !== 1) throw new AppError(ErrorCode.RateLimited, TOO_MANY);
    return {
      release: async () => {
        await this.redis.eval(RELEASE, 1, key);
      },
    };
  }

  /** Counts a bad or forged bearer token; 429 once the address is past the limit. */
  async recordBadToken(address: string | undefined): Promise<void> {
    const key = `auth-fail:bearer:${address ?? 'unknown'}`;
    const [[, count]] = (await this.redis
      .multi()
      .incr(key)
      .expire(key, CREDENTIAL_FAILURE_WINDOW_SECONDS, 'NX')
      .exec()) as [[null, number], unknown];
    if (count > CREDENTIAL_FAILURE_LIMIT) throw new AppError(ErrorCode.RateLimited, TOO_MANY);
  }
}
