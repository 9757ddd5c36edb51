import { Controller, UploadedFile, UseInterceptors } from '@nestjs/common';
import { FileInterceptor } from '@nestjs/platform-express';
import { apiRoutes, type MobileTopUpRequest, type PaymentListQuery, type PaymentMatchRequest } from '@wv/contracts';
import type { Actor } from '../common/actor.js';
import { CurrentActor, Input, Route } from '../common/route.decorator.js';
import { Idempotency } from '../ledger/idempotency-key.decorator.js';
import type { IdempotentCall } from '../ledger/idempotency.service.js';
import { PaymentService } from './payment.service.js';
import { StatementImportService, type UploadedStatement } from './statement-import.service.js';

/** A month's statement of a busy paybill is a few MB; nothing else may come with it. */
const STATEMENT_LIMITS = { fileSize: 20 * 1024 * 1024, files: 1, fields: 0, parts: 1 };

@Controller()
export class PaymentController {
  constructor(
    private readonly payments: PaymentService,
    private readonly statements: StatementImportService,
  ) {}

  @Route(apiRoutes.mobileTopUp)
  topUp(
    @CurrentActor() actor: Actor,
    @Input('params') params: { card_id: string },
    @Input('body') body: MobileTopUpRequest,
    @Idempotency() call: IdempotentCall,
  ) {
    return this.payments.startTopUp(actor, params.card_id, body, call);
  }

  @Route(apiRoutes.listPayments)
  list(@CurrentActor() actor: Actor, @Input('query') query: PaymentListQuery) {
    return this.payments.list(actor, query);
  }

  @Route(apiRoutes.getPayment)
  get(@CurrentActor() actor: Actor, @Input('params') params: { paymentId: string }) {
    return this.payments.get(actor, params.paymentId);
  }

  @Route(apiRoutes.matchPayment)
  match(
    @CurrentActor() actor: Actor,
    @Input('params') params: { paymentId: string },
    @Input('body') body: PaymentMatchRequest,
  ) {
    return this.payments.match(actor, params.paymentId, body.cardId);
  }

  // The access guard runs before the interceptor: a non-admin is refused before the upload is read.
  @Route(apiRoutes.importStatement)
  @UseInterceptors(FileInterceptor('file', { limits: STATEMENT_LIMITS }))
  importStatement(@UploadedFile() file: UploadedStatement | undefined) {
    return this.statements.import(file);
  }
}
