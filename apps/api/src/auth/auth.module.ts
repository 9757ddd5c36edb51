import { Module } from '@nestjs/common';
import { APP_GUARD } from '@nestjs/core';
import { DeviceModule } from '../device/device.module.js';
import { EventsModule } from '../events/events.module.js';
import { RateLimitModule } from '../rate-limit/rate-limit.module.js';
import { UserModule } from '../user/user.module.js';
import { AccessGuard } from './access.guard.js';
import { AuthController } from './auth.controller.js';
import { AuthService } from './auth.service.js';
import { CredentialFailureLimiter } from './credential-failure-limiter.js';
import { LoginRateLimiter } from './login-rate-limiter.js';
import { TokenService } from './token.service.js';

/** Sign-in, tokens and the access guard every route passes (users by token, machines by device key). */
@Module({
  imports: [DeviceModule, EventsModule, RateLimitModule, UserModule],
  providers: [
    TokenService,
    CredentialFailureLimiter,
    LoginRateLimiter,
    AuthService,
    { provide: APP_GUARD, useClass: AccessGuard },
  ],
  exports: [TokenService, CredentialFailureLimiter, AuthService],
})
export class AuthModule {}

/** The sign-in and password endpoints (api role). */
@Module({ imports: [AuthModule], controllers: [AuthController] })
export class AuthApiModule {}
