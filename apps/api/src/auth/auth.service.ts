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
import { DomainEvents } from '../events/domain-events.js';
import { AppError } from '../common/app-error.js';
import { UserAccounts } from '../user/user-accounts.js';
import { LoginRateLimiter } from './login-rate-limiter.js';
import { dummyPasswordHash, hashPassword, verifyPassword } from '../user/password-hasher.js';
import { TokenService } from './token.service.js';

@Injectable()
export class AuthService {
  private readonly logger = new Logger(AuthService.name);

  constructor(
    private readonly users: UserAccounts,
    private readonly tokens: TokenService,
    private readonly limiter: LoginRateLimiter,
    private readonly events: DomainEvents,
  ) {}

  /**
   * Changes the caller's password and ends every other session: tokens issued before this
   * millisecond are refused, live connections are closed, and the answer carries a token issued at it,
   * so the caller stays signed in. Wrong current passwords are limited like sign-ins.
   */
  async changePassword(actor: Actor, input: ChangePasswordRequest): Promise<{ message: string; token: string }> {
    const user = await this.users.findById(actor.userId);
    if (!user || user.deletedAt) throw new AppError(ErrorCode.Unauthorized);
    const attempt = await this.limiter.beginPasswordCheck(user.id);
    if (!(await verifyPassword(user.passwordHash, input.currentPassword)))
      throw new AppError(ErrorCode.WrongCurrentPassword);
    await attempt.succeeded();
    const passwordHash = await hashPassword(input.newPassword);
    const validFrom = Date.now();
    await this.users.setPassword(user.id, passwordHash, new Date(validFrom));
    // Open Socket.IO connections were authenticated once, at their handshake: end them too.
    this.events.emit('user.password-changed', { userId: user.id });
    this.logger.log(`User ${user.id} changed their password; other sessions ended`);
    return { message: 'Password changed successfully', token: this.tokens.issue(user.id, user.role, validFrom) };
  }

  /** Sign in by email or phone (`+255…`, `255…` or `0…`); one answer for every failure. */
  async login(input: LoginRequest, address: string): Promise<LoginResponse> {
    const identifier = normalizeIdentifier(input.identifier);
    const user = identifier.email
      ? await this.users.findForLogin({ email: identifier.email })
      : identifier.phone
        ? await this.users.findForLogin({ phone: identifier.phone })
        : null;
    const attempt = await this.limiter.beginLogin(user ? { userId: user.id } : { identifier: identifier.key }, address);
    const valid = await verifyPassword(user?.passwordHash ?? (await dummyPasswordHash()), input.password);
    if (!user || !valid) {
      this.logger.warn(`Failed sign-in from ${address}`);
      throw new AppError(ErrorCode.InvalidCredentials);
    }
    // Said only after the right password, so it tells a guesser nothing; the attempt still counts, so
    // the answer is no unlimited password oracle either (docs/security.md, "Deactivated accounts").
    if (user.deactivatedAt) {
      this.logger.warn(`Sign-in to deactivated account ${user.id} from ${address}`);
      throw new AppError(ErrorCode.AccountDeactivated);
    }
    await attempt.succeeded();
    return { token: this.tokens.issue(user.id, user.role) };
  }

  /**
   * POST /auth/refresh: the access guard has already checked that the token is valid, not revoked and
   * the user's account active; the new token is the user's, with the role from the database. The old
   * one keeps working until its `exp` (docs/security.md, "Session refresh").
   */
  async refresh(actor: Actor): Promise<LoginResponse> {
    await this.limiter.takeRefresh(actor.userId);
    return { token: this.tokens.issue(actor.userId, actor.role) };
  }
}

/**
 * One spelling per identifier: an email in lower case, a phone number in E.164, anything else in lower
 * case without blanks. The lockout counts an identifier that names nobody under this form.
 */
function normalizeIdentifier(raw: string): { key: string; email?: string; phone?: string } {
  const trimmed = raw.trim();
  if (looksLikeEmail(trimmed)) return { key: trimmed.toLowerCase(), email: trimmed };
  const phone = normalizePhone(trimmed);
  if (phone) return { key: phone, phone };
  return { key: trimmed.toLowerCase().replace(/\s+/g, '') };
}
