import { Controller, Ip } from '@nestjs/common';
import { apiRoutes, type ChangePasswordRequest, type LoginRequest } from '@wv/contracts';
import type { Actor } from '../common/actor.js';
import { CurrentActor, Input, Route } from '../common/route.decorator.js';
import { AuthService } from './auth.service.js';

@Controller()
export class AuthController {
  constructor(private readonly auth: AuthService) {}

  @Route(apiRoutes.changePassword)
  changePassword(@CurrentActor() actor: Actor, @Input('body') body: ChangePasswordRequest) {
    return this.auth.changePassword(actor, body);
  }

  @Route(apiRoutes.refreshToken)
  refresh(@CurrentActor() actor: Actor) {
    return this.auth.refresh(actor);
  }

  @Route(apiRoutes.login)
  login(@Input('body') body: LoginRequest, @Ip() ip: string) {
    return this.auth.login(body, ip);
  }
}
