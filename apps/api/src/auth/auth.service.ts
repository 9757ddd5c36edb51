import { Injectable, Logger } from '@nestjs/common';
import {
  ErrorCode,
  looksLikeEmail,
  normalizePhone,
  type ChangePasswordRequest,
  type LoginRequest,
  type LoginResponse,
} from '@wv/contracts';
import type { Actor } from '../common/actor.js';
import { AppError } from '../common/app-error.js';
import { UserRepository } from '../user/user.repository.js';
import { LoginRateLimiter } from './login-rate-limiter.js';
import { dummyPasswordHash, hashPassword, verifyPassword } from './password-hasher.js';
import { TokenService } from './token.service.js';

@Injectable()
export class AuthService {
  private readonly logger = new Logger(AuthService.name);

  constructor(
    private readonly users: UserRepository,
    private readonly tokens: TokenService,
    private readonly limiter: LoginRateLimiter,
  ) {}

  /**
   * Changes the caller's password and ends every other session: tokens issued before this
   * millisecond are refused, and the answer carries a token issued at it, so the caller stays signed in.
   */
  async changePassword(actor: Actor, input: ChangePasswordRequest): Promise<{ message: string; token: string }> {
    const user = await this.users.findById(actor.userId);
    if (!user || user.deletedAt) throw new AppError(ErrorCode.Unauthorized);
    if (!(await verifyPassword(user.passwordHash, input.currentPassword)))
      throw new AppError(ErrorCode.WrongCurrentPassword);
    const passwordHash = await hashPassword(input.newPassword);
    const validFrom = Date.now();
    await this.users.setPassword(user.id, passwordHash, new Date(validFrom));
    this.logger.log(`User ${user.id} changed their password; other sessions ended`);
    return { message: 'Password changed successfully', token: this.tokens.issue(user.id, user.role, validFrom) };
  }

  /** Sign in by email or phone (`+255…`, `255…` or `0…`); one answer for every failure. */
  async login(input: LoginRequest, address: string): Promise<LoginResponse> {
    const identifier = input.identifier.trim();
    await this.limiter.assertAllowed(identifier, address);
    const phone = looksLikeEmail(identifier) ? null : normalizePhone(identifier);
    const user = looksLikeEmail(identifier)
      ? await this.users.findForLogin({ email: identifier })
      : phone
        ? await this.users.findForLogin({ phone })
        : null;
    const valid = await verifyPassword(user?.passwordHash ?? (await dummyPasswordHash()), input.password);
    if (!user || !valid) {
      await this.limiter.recordFailure(identifier, address);
      this.logger.warn(`Failed sign-in from ${address}`);
      throw new AppError(ErrorCode.InvalidCredentials);
    }
    await this.limiter.clearIdentifier(identifier);
    return { token: this.tokens.issue(user.id, user.role) };
  }
}
