import { Controller } from '@nestjs/common';
import { apiRoutes } from '@wv/contracts';
import type { Actor } from '../common/actor.js';
import { CurrentActor, Input, Route } from '../common/route.decorator.js';
import { SequenceService } from './sequence.service.js';

@Controller()
export class SequenceController {
  constructor(private readonly sequences: SequenceService) {}

  @Route(apiRoutes.machineSync)
  sync(@CurrentActor() actor: Actor, @Input('params') params: { espId: string }) {
    return this.sequences.sync(actor, params.espId);
  }
}
