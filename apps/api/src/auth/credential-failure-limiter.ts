import { Injectable } from '@nestjs/common';
import { ErrorCode } from '@wv/contracts';
import { AppError } from '../common/app-error.js';
import { FailureBudget } from '../rate-limit/failure-budget.js';

/** Wrong credentials answered per address and window; past them the address gets 429. */
export const CREDENTIAL_FAILURE_LIMIT = 20;
export const CREDENTIAL_FAILURE_WINDOW_SECONDS = 600;

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
  constructor(private readonly budget: FailureBudget) {}

  async beginDeviceKeyCheck(address: string | undefined): Promise<CredentialAttempt> {
    const key = `auth-fail:device-key:${address ?? 'unknown'}`;
    await this.take(key);
    return { release: () => this.budget.giveBack([key]) };
  }

  /** Counts a bad or forged bearer token; 429 once the address is past the limit. */
  async recordBadToken(address: string | undefined): Promise<void> {
    await this.take(`auth-fail:bearer:${address ?? 'unknown'}`);
  }

  private async take(key: string): Promise<void> {
    if (!(await this.budget.take([key], CREDENTIAL_FAILURE_LIMIT, CREDENTIAL_FAILURE_WINDOW_SECONDS)))
      throw new AppError(ErrorCode.RateLimited, TOO_MANY);
  }
}
