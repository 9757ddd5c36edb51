import { Controller } from '@nestjs/common';
import { apiRoutes, type AssignFloatCommand, type RequestFloatCommand } from '@wv/contracts';
import type { Actor } from '../common/actor.js';
import { CurrentActor, Input, Route } from '../common/route.decorator.js';
import { Idempotency } from '../ledger/idempotency-key.decorator.js';
import type { IdempotentCall } from '../ledger/idempotency.service.js';
import { FloatService } from './float.service.js';

@Controller()
export class FloatController {
  constructor(private readonly floats: FloatService) {}

  @Route(apiRoutes.attendantFloatRequests)
  listOwn(@CurrentActor() actor: Actor) {
    return this.floats.listOwn(actor);
  }

  @Route(apiRoutes.attendantFloatBalance)
  balance(@CurrentActor() actor: Actor) {
    return this.floats.balance(actor);
  }

  @Route(apiRoutes.requestFloat)
  request(@CurrentActor() actor: Actor, @Input('body') body: RequestFloatCommand, @Idempotency() call: IdempotentCall) {
    return this.floats.request(actor, body, call);
  }

  @Route(apiRoutes.managerFloatRequests)
  listPending(@CurrentActor() actor: Actor) {
    return this.floats.listPending(actor);
  }

  @Route(apiRoutes.assignFloat)
  assign(@CurrentActor() actor: Actor, @Input('body') body: AssignFloatCommand, @Idempotency() call: IdempotentCall) {
    return this.floats.assign(actor, body, call);
  }

  @Route(apiRoutes.rejectFloat)
  reject(
    @CurrentActor() actor: Actor,
    @Input('params') params: { requestId: string },
    @Idempotency() call: IdempotentCall,
  ) {
    return this.floats.reject(actor, params.requestId, call);
  }
}
