import { Inject, Injectable } from '@nestjs/common';
import { JwtService } from '@nestjs/jwt';
import { ErrorCode, TOKEN_TTL_SECONDS, tokenPayloadSchema, type Role, type TokenPayload } from '@wv/contracts';
import { APP_CONFIG, type AppConfig } from '../config/app-config.js';
import { AppError } from '../common/app-error.js';

/** HS256 JWTs carrying `sub`, `role`, `iat`, `exp` with `exp - iat` = 1200 (docs/rest-api.md, "Details"). */
@Injectable()
export class TokenService {
  private readonly jwt: JwtService;

  constructor(@Inject(APP_CONFIG) config: AppConfig) {
    this.jwt = new JwtService({ secret: config.jwt.secret, signOptions: { algorithm: 'HS256' } });
  }

  /** `issuedAtMs` lets a password change issue the one token that survives it. */
  issue(userId: string, role: Role, issuedAtMs = Date.now()): string {
    const payload = { sub: userId, role, iat: Math.floor(issuedAtMs / 1000), iatMs: issuedAtMs };
    return this.jwt.sign(payload, { expiresIn: TOKEN_TTL_SECONDS });
  }

  /** A token issued before the user's last password change or removal is dead. */
  issuedBefore(payload: TokenPayload, validAfter: Date): boolean {
    return (payload.iatMs ?? payload.iat * 1000) < validAfter.getTime();
  }

  verify(token: string): TokenPayload {
    let decoded: unknown;
    try {
      decoded = this.jwt.verify(token, { algorithms: ['HS256'] });
    } catch (error) {
      const expired = (error as { name?: string }).name === 'TokenExpiredError';
      throw new AppError(expired ? ErrorCode.TokenExpired : ErrorCode.Unauthorized);
    }
    const payload = tokenPayloadSchema.safeParse(decoded);
    if (!payload.success) throw new AppError(ErrorCode.Unauthorized);
    return payload.data;
  }
}
