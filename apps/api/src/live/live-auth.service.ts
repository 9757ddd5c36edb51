import { Injectable } from '@nestjs/common';
import { ADMIN_ROOM, ErrorCode, machineRoom, userRoom } from '@wv/contracts';
import type { Actor } from '../common/actor.js';
import { AppError } from '../common/app-error.js';
import { CredentialFailureLimiter } from '../auth/credential-failure-limiter.js';
import { TokenService } from '../auth/token.service.js';
import { DeviceDirectory } from '../device/device-directory.js';
import { UserAccounts } from '../user/user-accounts.js';

export interface LiveSession {
  actor: Actor;
  rooms: string[];
  /** When the token expires (ms since the epoch): the socket is closed then. */
  expiresAt: number;
}

/**
 * The Socket.IO handshake: the same checks as the HTTP AccessGuard (a valid, unexpired token of an
 * active user issued after their last password change or removal), then the rooms of the caller's
 * scope, from the same tenant rule as every query (DeviceDirectory.listVisible → scopeDevices).
 */
@Injectable()
export class LiveAuthService {
  constructor(
    private readonly tokens: TokenService,
    private readonly users: UserAccounts,
    private readonly devices: DeviceDirectory,
    private readonly failures: CredentialFailureLimiter,
  ) {}

  /**
   * A forged token counts against the address as it does over HTTP (docs/security.md, boundary A):
   * the handshake is the same credential check reached by another door.
   */
  async authenticate(token: unknown, address?: string): Promise<LiveSession> {
    if (typeof token !== 'string' || token === '') throw new AppError(ErrorCode.Unauthorized);
    let payload: ReturnType<TokenService['verify']>;
    try {
      payload = this.tokens.verify(token);
    } catch (error) {
      // An expired token was the server's own and is not a guess.
      if (error instanceof AppError && error.code === ErrorCode.Unauthorized)
        await this.failures.recordBadToken(address);
      throw error;
    }
    const user = await this.users.findActiveForSession(payload.sub);
    if (!user || this.tokens.issuedBefore(payload, user.tokensValidAfter)) {
      throw new AppError(ErrorCode.Unauthorized);
    }
    const actor: Actor = { userId: user.id, role: user.role };
    return { actor, rooms: await this.roomsOf(actor), expiresAt: payload.exp * 1000 };
  }

  /** admin: everything; manager: owned machines and self; attendant: their machine and self. */
  private async roomsOf(actor: Actor): Promise<string[]> {
    if (actor.role === 'admin') return [ADMIN_ROOM, userRoom(actor.userId)];
    const machines = await this.devices.listVisible(actor);
    return [...machines.map((d) => machineRoom(d.espId)), userRoom(actor.userId)];
  }
}
