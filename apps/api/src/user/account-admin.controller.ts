import { Controller } from '@nestjs/common';
import { apiRoutes, type UserDeviceParam } from '@wv/contracts';
import type { Actor } from '../common/actor.js';
import { CurrentActor, Input, Route } from '../common/route.decorator.js';
import { AccountAdminService } from './account-admin.service.js';

/** The admin's actions on existing accounts (docs/rest-api.md, "Accounts and sessions"). */
@Controller()
export class AccountAdminController {
  constructor(private readonly accounts: AccountAdminService) {}

  @Route(apiRoutes.unassignUserDevice)
  unassignDevice(@CurrentActor() actor: Actor, @Input('params') params: UserDeviceParam) {
    return this.accounts.unassignDevice(actor, params);
  }

  @Route(apiRoutes.deactivateUser)
  deactivate(@CurrentActor() actor: Actor, @Input('params') params: { userId: string }) {
    return this.accounts.deactivate(actor, params.userId);
  }

  @Route(apiRoutes.reactivateUser)
  reactivate(@CurrentActor() actor: Actor, @Input('params') params: { userId: string }) {
    return this.accounts.reactivate(actor, params.userId);
  }
}
