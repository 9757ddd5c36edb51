import { timingSafeEqual } from 'node:crypto';
import { CanActivate, ExecutionContext, Inject, Injectable } from '@nestjs/common';
import { APP_CONFIG, type AppConfig } from '../config/app-config.js';
import { Reflector } from '@nestjs/core';
import { DEVICE_KEY_HEADER, ErrorCode, type Access, type RouteDef, type TokenPayload } from '@wv/contracts';
import { AppError } from '../common/app-error.js';
import { ApiRequest, ROUTE_DEF } from '../common/route.decorator.js';
import { DeviceKeyService } from '../device/device-key.service.js';
import { UserAccounts } from '../user/user-accounts.js';
import { CredentialFailureLimiter } from './credential-failure-limiter.js';
import { RequestRateLimiter } from '../rate-limit/request-rate-limiter.js';
import { TokenService } from './token.service.js';

/**
 * The one gate of every HTTP route: reads the route's `access` list and admits a caller only when
 * it matches. A route without @Route is refused (deny by default). Roles come from the database,
 * not only the token, so a removed user or a changed password ends existing sessions at once.
 */
@Injectable()
export class AccessGuard implements CanActivate {
  constructor(
    private readonly reflector: Reflector,
    private readonly tokens: TokenService,
    private readonly users: UserAccounts,
    private readonly deviceKeys: DeviceKeyService,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly rateLimiter: RequestRateLimiter,
    private readonly failures: CredentialFailureLimiter,
  ) {}

  async canActivate(ctx: ExecutionContext): Promise<boolean> {
    if (ctx.getType() !== 'http') return true;
    const def = this.reflector.get<RouteDef | undefined>(ROUTE_DEF, ctx.getHandler());
    if (!def) throw new AppError(ErrorCode.Forbidden, 'This endpoint declares no access rule');
    const req = ctx.switchToHttp().getRequest<ApiRequest>();
    const access: readonly Access[] = def.access;

    let bearer: string | undefined;
    try {
      bearer = parseBearer(req.headers.authorization);
    } catch (error) {
      await this.failures.recordBadToken(req.ip);
      throw error;
    }
    if (
      bearer !== undefined &&
      access.includes('metrics') &&
      this.config.metricsToken &&
      sameSecret(bearer, this.config.metricsToken)
    ) {
      req.caller = { kind: 'anonymous' };
      return true;
    }
    // The external broker asks for every connect and publish of the fleet from a few addresses: the token holder is
    // not limited per address as anonymous callers are (docs/external-mqtt.md, "HTTP hooks").
    const hookToken = this.config.mqtt.external?.hookToken;
    if (bearer !== undefined && access.includes('mqtt-hook') && hookToken && sameSecret(bearer, hookToken)) {
      req.caller = { kind: 'anonymous' };
      return true;
    }
    if (bearer !== undefined && access.some((a) => a !== 'public' && a !== 'device')) {
      const actor = await this.authenticateUser(bearer, req.ip);
      if (!access.includes(actor.role)) throw new AppError(ErrorCode.Forbidden);
      req.caller = { kind: 'user', actor };
      return true;
    }

    const deviceKey = req.headers[DEVICE_KEY_HEADER];
    if (access.includes('device') && typeof deviceKey === 'string') {
      const espId = String(req.params.espId ?? '');
      // A key verified recently costs no lookup, so it is not limited with the guessers of its address.
      if (!this.deviceKeys.verifyKnown(espId, deviceKey)) await this.checkDeviceKey(espId, deviceKey, req.ip);
      await this.rateLimiter.consume(`device:${espId}`);
      req.caller = { kind: 'device', device: { espId } };
      return true;
    }

    // LEGACY_OPEN_DEVICE_READS: old firmware reads its Wi-Fi and tariffs without a key.
    if (
      access.includes('public') ||
      (access.includes('device') && req.method === 'GET' && this.config.legacyOpenDeviceReads)
    ) {
      await this.rateLimiter.consume(`ip:${req.ip}`);
      req.caller = { kind: 'anonymous' };
      return true;
    }
    throw new AppError(ErrorCode.Unauthorized);
  }

  /** Each device-key lookup takes one of the address's attempts; a key that holds gives it back. */
  private async checkDeviceKey(espId: string, key: string, address: string | undefined): Promise<void> {
    const attempt = await this.failures.beginDeviceKeyCheck(address);
    let valid: boolean;
    try {
      valid = await this.deviceKeys.verify(espId, key);
    } catch (error) {
      await attempt.release(); // the database, not the key, failed
      throw error;
    }
    if (!valid) throw new AppError(ErrorCode.InvalidDeviceKey);
    await attempt.release();
  }

  private async authenticateUser(token: string, address: string | undefined) {
    let payload: TokenPayload;
    try {
      payload = this.tokens.verify(token);
    } catch (error) {
      // Forged or malformed; an expired token was the server's own and is not a guess.
      const forged = error instanceof AppError && error.code === ErrorCode.Unauthorized;
      if (forged) await this.failures.recordBadToken(address);
      throw error;
    }
    const user = await this.users.findActiveForSession(payload.sub);
    if (!user || this.tokens.issuedBefore(payload, user.tokensValidAfter)) {
      throw new AppError(ErrorCode.Unauthorized);
    }
    return { userId: user.id, role: user.role };
  }
}

function sameSecret(a: string, b: string): boolean {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
}

function parseBearer(header: string | undefined): string | undefined {
  if (!header) return undefined;
  const match = /^Bearer\s+(\S+)$/i.exec(header);
  if (!match) throw new AppError(ErrorCode.Unauthorized, 'Authorization must be "Bearer <token>"');
  return match[1];
}
