import { Controller } from '@nestjs/common';
import { apiRoutes, type MachineCoordinatesBody } from '@wv/contracts';
import type { Actor } from '../common/actor.js';
import { CurrentActor, Input, Route } from '../common/route.decorator.js';
import { FleetService } from './fleet.service.js';

@Controller()
export class FleetController {
  constructor(private readonly fleet: FleetService) {}

  @Route(apiRoutes.fleetMachines)
  machines(@CurrentActor() actor: Actor) {
    return this.fleet.machines(actor);
  }

  @Route(apiRoutes.fleetHeadline)
  headline(@CurrentActor() actor: Actor) {
    return this.fleet.headline(actor);
  }

  @Route(apiRoutes.getMachineCoordinates)
  coordinates(@CurrentActor() actor: Actor, @Input('params') p: { espId: string }) {
    return this.fleet.coordinates(actor, p.espId);
  }

  @Route(apiRoutes.putMachineCoordinates)
  setCoordinates(
    @CurrentActor() actor: Actor,
    @Input('params') p: { espId: string },
    @Input('body') body: MachineCoordinatesBody,
  ) {
    return this.fleet.setCoordinates(actor, p.espId, body);
  }
}
