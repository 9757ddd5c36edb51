import { Controller, Ip } from '@nestjs/common';
import { apiRoutes, type AnnounceRequest } from '@wv/contracts';
import type { Actor } from '../common/actor.js';
import { CurrentActor, Input, Route } from '../common/route.decorator.js';
import { DeviceService } from './device.service.js';
import { MacAnnouncementService } from './mac-announcement.service.js';

@Controller()
export class DeviceController {
  constructor(
    private readonly devices: DeviceService,
    private readonly announcements: MacAnnouncementService,
  ) {}

  @Route(apiRoutes.announce)
  announce(@Input('body') body: AnnounceRequest, @Ip() ip: string) {
    return this.announcements.announceOverRest(body, ip);
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
