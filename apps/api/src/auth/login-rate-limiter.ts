import { Inject, Injectable } from '@nestjs/common';
import { ErrorCode, LOGIN_MAX_FAILURES, LOGIN_WINDOW_SECONDS } from '@wv/contracts';
import type { Redis } from 'ioredis';
import { AppError } from '../common/app-error.js';
import { REDIS } from '../redis/redis.provider.js';

/**
 * Takes one attempt from every counter, or none when one of them is used up (then answers 0). The
 * window starts at a counter's first attempt and later ones do not extend it.
 */
const RESERVE = `
local over = false
for _, key in ipairs(KEYS) do
  if redis.call('INCR', key) > tonumber(ARGV[1]) then over = true end
  redis.call('EXPIRE', key, ARGV[2], 'NX')
end
if not over then return 1 end
for _, key in ipairs(KEYS) do redis.call('DECR', key) end
return 0`;

/** A success: the subject's count starts again; the address gets its attempt back (it was no failure). */
const SUCCEEDED = `
redis.call('DEL', KEYS[1])
if KEYS[2] and redis.call('EXISTS', KEYS[2]) == 1 then redis.call('DECR', KEYS[2]) end
return 1`;

/** Who a sign-in is about: the account the identifier names, or else the identifier itself, normalised. */
export type LoginSubject = { userId: string } | { identifier: string };

/** One reserved attempt: counted as a failure unless `succeeded` gives it back. */
export interface PasswordAttempt {
  succeeded(): Promise<void>;
}

/**
 * Password guessing limits, counted in Redis so every API process shares them (docs/rest-api.md,
 * "Conventions" and "Details"): at most 10 failures in 15 minutes per account, per address, and per current-password check;
 * while locked even the right password gets 429.
 *
 * Sign-ins count per account, not per identifier as typed: `+255…`, `0…`, `255…` with spaces or dashes
 * and every case of an email name the same account. An identifier that names nobody counts under its
 * normalised form, so unknown and known identifiers lock alike and the answer does not tell whether an
 * account exists (OWASP Authentication Cheat Sheet). Each attempt is taken before the password is
 * checked, so guesses sent all at once cannot pass the count before it is raised.
 */
@Injectable()
export class LoginRateLimiter {
  constructor(@Inject(REDIS) private readonly redis: Redis) {}

  async beginLogin(subject: LoginSubject, address: string): Promise<PasswordAttempt> {
    const subjectKey =
      'userId' in subject ? `login-fail:user:${subject.userId}` : `login-fail:id:${subject.identifier}`;
    return this.reserve(
      [subjectKey, `login-fail:ip:${address}`],
      'Too many failed sign-in attempts; try again in 15 minutes',
    );
  }

  /** POST /user/password: a stolen token must not become an unlimited oracle for the current password. */
  async beginPasswordCheck(userId: string): Promise<PasswordAttempt> {
    return this.reserve([`password-fail:user:${userId}`], 'Too many wrong current passwords; try again in 15 minutes');
  }

  private async reserve(keys: string[], message: string): Promise<PasswordAttempt> {
    const taken = await this.redis.eval(RESERVE, keys.length, ...keys, LOGIN_MAX_FAILURES, LOGIN_WINDOW_SECONDS);
    if (Number(taken) !== 1) throw new AppError(ErrorCode.RateLimited, message);
    return {
      succeeded: async () => {
        await this.redis.eval(SUCCEEDED, keys.length, ...keys);
      },
    };
  }
}
