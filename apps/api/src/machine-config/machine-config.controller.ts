import { Controller } from '@nestjs/common';
import { apiRoutes, type InsertTariffsCommand, type UpdateWifiRequest } from '@wv/contracts';
import type { Actor, Caller } from '../common/actor.js';
import { CurrentActor, CurrentCaller, Input, Route } from '../common/route.decorator.js';
import { MachineConfigService } from './machine-config.service.js';

@Controller()
export class MachineConfigController {
  constructor(private readonly configs: MachineConfigService) {}

  @Route(apiRoutes.getWifi)
  getWifi(@CurrentCaller() caller: Caller, @Input('params') params: { espId: string }) {
    return this.configs.getWifi(caller, params.espId);
  }

  @Route(apiRoutes.updateWifi)
  updateWifi(@CurrentActor() actor: Actor, @Input('body') body: UpdateWifiRequest) {
    return this.configs.updateWifi(actor, body);
  }

  @Route(apiRoutes.machineSettings)
  settings(@CurrentCaller() caller: Caller, @Input('params') params: { espId: string }) {
    return this.configs.getSettings(caller, params.espId);
  }

  @Route(apiRoutes.insertTariffs)
  insertTariffs(@CurrentActor() actor: Actor, @Input('body') body: InsertTariffsCommand) {
    return this.configs.insertTariffs(actor, body);
  }

  @Route(apiRoutes.configState)
  state(@CurrentActor() actor: Actor, @Input('params') params: { espId: string }) {
    return this.configs.state(actor, params.espId);
  }
}
