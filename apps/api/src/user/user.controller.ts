import { Controller, Res } from '@nestjs/common';
import {
  apiRoutes,
  type AddUserDeviceRequest,
  type RegisterAttendantCommand,
  type RegisterUserCommand,
  type SetLanguageRequest,
} from '@wv/contracts';
import type { Response } from 'express';
import type { Actor } from '../common/actor.js';
import { CurrentActor, Input, Route } from '../common/route.decorator.js';
import { AttendantService } from './attendant.service.js';
import { UserService, type Created } from './user.service.js';

/** A replayed registration answers 200 instead of 201 (docs/rest-api.md, "Details"). */
function answer(res: Response, result: Created) {
  if (!result.created) res.status(200);
  return { message: result.message };
}

@Controller()
export class UserController {
  constructor(
    private readonly users: UserService,
    private readonly attendants: AttendantService,
  ) {}

  @Route(apiRoutes.userInfo)
  info(@CurrentActor() actor: Actor) {
    return this.users.info(actor);
  }

  @Route(apiRoutes.setLanguage)
  setLanguage(@CurrentActor() actor: Actor, @Input('body') body: SetLanguageRequest) {
    return this.users.setLanguage(actor, body.language);
  }

  @Route(apiRoutes.userEsp32Ids)
  esp32Ids(@CurrentActor() actor: Actor) {
    return this.users.esp32Ids(actor);
  }

  @Route(apiRoutes.adminUsers)
  list() {
    return this.users.listAll();
  }

  @Route(apiRoutes.registerUser)
  async register(
    @CurrentActor() actor: Actor,
    @Input('body') body: RegisterUserCommand,
    @Res({ passthrough: true }) res: Response,
  ) {
    return answer(res, await this.users.register(actor, body));
  }

  @Route(apiRoutes.addUserDevice)
  addDevice(@CurrentActor() actor: Actor, @Input('body') body: AddUserDeviceRequest) {
    return this.users.addDevice(actor, body);
  }

  @Route(apiRoutes.managerDeviceIds)
  managerDeviceIds(@CurrentActor() actor: Actor) {
    return this.attendants.managerDeviceIds(actor);
  }

  @Route(apiRoutes.registerAttendant)
  async registerAttendant(
    @CurrentActor() actor: Actor,
    @Input('body') body: RegisterAttendantCommand,
    @Res({ passthrough: true }) res: Response,
  ) {
    return answer(res, await this.attendants.register(actor, body));
  }

  @Route(apiRoutes.listAttendants)
  listAttendants(@CurrentActor() actor: Actor) {
    return this.attendants.list(actor);
  }

  @Route(apiRoutes.removeAttendant)
  removeAttendant(@CurrentActor() actor: Actor, @Input('params') params: { userId: string }) {
    return this.attendants.remove(actor, params.userId);
  }

  @Route(apiRoutes.attendantInfo)
  attendantInfo(@CurrentActor() actor: Actor, @Input('params') params: { esp32Id: string }) {
    return this.attendants.info(actor, params.esp32Id);
  }
}
