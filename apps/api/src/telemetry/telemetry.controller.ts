import { Controller } from '@nestjs/common';
import { apiRoutes, type TelemetryQuery } from '@wv/contracts';
import type { Actor } from '../common/actor.js';
import { CurrentActor, Input, Route } from '../common/route.decorator.js';
import { TelemetryService } from './telemetry.service.js';

@Controller()
export class TelemetryController {
  constructor(private readonly telemetry: TelemetryService) {}

  @Route(apiRoutes.machineTelemetry)
  series(
    @CurrentActor() actor: Actor,
    @Input('params') params: { espId: string },
    @Input('query') query: TelemetryQuery,
  ) {
    return this.telemetry.series(actor, params.espId, query);
  }
}
