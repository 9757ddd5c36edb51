import { Controller } from '@nestjs/common';
import {
  apiRoutes,
  type AddCardCommand,
  type BlockCardRequest,
  type CardLimitsRequest,
  type ReplaceCardRequest,
  type TopUpCommand,
} from '@wv/contracts';
import type { Actor } from '../common/actor.js';
import { CurrentActor, Input, Route } from '../common/route.decorator.js';
import { Idempotency } from '../ledger/idempotency-key.decorator.js';
import type { IdempotentCall } from '../ledger/idempotency.service.js';
import { CardService } from './card.service.js';

@Controller()
export class CardController {
  constructor(private readonly cards: CardService) {}

  @Route(apiRoutes.addCard)
  register(@CurrentActor() actor: Actor, @Input('body') body: AddCardCommand, @Idempotency() call: IdempotentCall) {
    return this.cards.register(actor, body, call);
  }

  @Route(apiRoutes.topUpCard)
  topUp(
    @CurrentActor() actor: Actor,
    @Input('params') params: { card_id: string },
    @Input('body') body: TopUpCommand,
    @Idempotency() call: IdempotentCall,
  ) {
    return this.cards.topUp(actor, params.card_id, body, call);
  }

  // Declared before /cards/:esp32Id: Express matches in registration order, and "summary" is a valid ESP ID.
  @Route(apiRoutes.cardSummary)
  summary(@CurrentActor() actor: Actor) {
    return this.cards.summary(actor);
  }

  @Route(apiRoutes.machineCards)
  listAtDevice(@CurrentActor() actor: Actor, @Input('params') params: { esp32Id: string }) {
    return this.cards.listAtDevice(actor, params.esp32Id);
  }

  @Route(apiRoutes.blockCard)
  block(
    @CurrentActor() actor: Actor,
    @Input('params') params: { card_id: string },
    @Input('body') body: BlockCardRequest,
    @Idempotency() call: IdempotentCall,
  ) {
    return this.cards.block(actor, params.card_id, body, call);
  }

  @Route(apiRoutes.unblockCard)
  unblock(
    @CurrentActor() actor: Actor,
    @Input('params') params: { card_id: string },
    @Idempotency() call: IdempotentCall,
  ) {
    return this.cards.unblock(actor, params.card_id, call);
  }

  @Route(apiRoutes.replaceCard)
  replace(
    @CurrentActor() actor: Actor,
    @Input('params') params: { card_id: string },
    @Input('body') body: ReplaceCardRequest,
    @Idempotency() call: IdempotentCall,
  ) {
    return this.cards.replace(actor, params.card_id, body, call);
  }

  @Route(apiRoutes.cardLimits)
  limits(
    @CurrentActor() actor: Actor,
    @Input('params') params: { card_id: string },
    @Input('body') body: CardLimitsRequest,
  ) {
    return this.cards.setLimits(actor, params.card_id, body);
  }

  @Route(apiRoutes.cardHistory)
  history(@CurrentActor() actor: Actor, @Input('params') params: { card_id: string }) {
    return this.cards.history(actor, params.card_id);
  }
}
