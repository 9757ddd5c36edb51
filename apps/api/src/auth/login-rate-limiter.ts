import { Injectable } from '@nestjs/common';
import { ErrorCode, LOGIN_MAX_FAILURES, LOGIN_WINDOW_SECONDS, TOKEN_TTL_SECONDS } from '@wv/contracts';
import { AppError } from '../common/app-error.js';
import { FailureBudget } from '../rate-limit/failure-budget.js';

/** Refreshes one user may make per token lifetime (20 minutes), all their tabs together. */
export const REFRESH_MAX_PER_WINDOW = 10;

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
  constructor(private readonly budget: FailureBudget) {}

  async beginLogin(subject: LoginSubject, address: string): Promise<PasswordAttempt> {
    const subjectKey =
      'userId' in subject ? `login-fail:user:${subject.userId}` : `login-fail:id:${subject.identifier}`;
    const addressKey = `login-fail:ip:${address}`;
    await this.take([subjectKey, addressKey], 'Too many failed sign-in attempts; try again in 15 minutes');
    // A success: the subject's count starts again; the address gets its attempt back.
    return { succeeded: () => this.budget.reset([subjectKey]).then(() => this.budget.giveBack([addressKey])) };
  }

  /** POST /user/password: a stolen token must not become an unlimited oracle for the current password. */
  async beginPasswordCheck(userId: string): Promise<PasswordAttempt> {
    const key = `password-fail:user:${userId}`;
    await this.take([key], 'Too many wrong current passwords; try again in 15 minutes');
    return { succeeded: () => this.budget.reset([key]) };
  }

  /**
   * POST /auth/refresh: a page asks once per session, a little before its token expires; a few more
   * (several tabs) are fine, a loop is not (docs/security.md, "Session refresh").
   */
  async takeRefresh(userId: string): Promise<void> {
    if (!(await this.budget.take([`refresh:user:${userId}`], REFRESH_MAX_PER_WINDOW, TOKEN_TTL_SECONDS)))
      throw new AppError(ErrorCode.RateLimited, 'Too many session refreshes; sign in again');
  }

  private async take(keys: string[], message: string): Promise<void> {
    if (!(await this.budget.take(keys, LOGIN_MAX_FAILURES, LOGIN_WINDOW_SECONDS)))
      throw new AppError(ErrorCode.RateLimited, message);
  }
}
