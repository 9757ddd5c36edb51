import { Controller } from '@nestjs/common';
import { apiRoutes, type AnnounceRequest } from '@wv/contracts';
import type { Actor } from '../common/actor.js';
import { CurrentActor, Input, Route } from '../common/route.decorator.js';
import { DeviceService } from './device.service.js';

@Controller()
export class DeviceController {
  constructor(private readonly devices: DeviceService) {}

  @Route(apiRoutes.announce)
  announce(@Input('body') body: AnnounceRequest) {
    return this.devices.announce(body);
  }

  @Route(apiRoutes.macAddresses)
  macAddresses() {
    return this.devices.listUnassignedMacs();
  }

  @Route(apiRoutes.assignId)
  assignId(@CurrentActor() actor: Actor, @Input('body') body: { macAddress: string; espId: string }) {
    return this.devices.assignId(actor, body);
  }

  @Route(apiRoutes.rotateKey)
  rotateKey(@CurrentActor() actor: Actor, @Input('params') params: { espId: string }) {
    return this.devices.rotateKey(actor, params.espId);
  }

  @Route(apiRoutes.adminEsp32Ids)
  allIds() {
    return this.devices.listAllIds();
  }

  @Route(apiRoutes.assignedEsp32Ids)
  ownedIds() {
    return this.devices.listOwnedIds();
  }
}
