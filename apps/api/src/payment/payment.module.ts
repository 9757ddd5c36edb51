import { Module } from '@nestjs/common';
import { EventsModule } from '../events/events.module.js';
import { LedgerModule } from '../ledger/ledger.module.js';
import { DarajaClient } from './daraja.client.js';
import { MOBILE_MONEY_PROVIDER } from './mobile-money.provider.js';
import { MpesaCallbackController } from './mpesa-callback.controller.js';
import { MpesaCallbackService } from './mpesa-callback.service.js';
import { PaymentSettlementService } from './payment-settlement.service.js';
import { PaymentController } from './payment.controller.js';
import { PaymentDispatcher } from './payment.dispatcher.js';
import { PaymentRepository } from './payment.repository.js';
import { PaymentService } from './payment.service.js';
import { StatementImportService } from './statement-import.service.js';

/** Payments, their settlement and the mobile-money provider (docs/mobile-money.md). */
@Module({
  imports: [LedgerModule, EventsModule],
  providers: [
    PaymentRepository,
    PaymentSettlementService,
    DarajaClient,
    { provide: MOBILE_MONEY_PROVIDER, useExisting: DarajaClient },
  ],
  exports: [PaymentRepository, PaymentSettlementService, MOBILE_MONEY_PROVIDER],
})
export class PaymentModule {}

/** The api role: the top-up, the payment reads and Daraja's callbacks. */
@Module({
  imports: [PaymentModule, LedgerModule],
  controllers: [PaymentController, MpesaCallbackController],
  providers: [PaymentService, MpesaCallbackService, StatementImportService],
})
export class PaymentApiModule {}

/** The worker role: sends queued pushes and queries the ones whose callback has not come. */
@Module({ imports: [PaymentModule], providers: [PaymentDispatcher] })
export class PaymentWorkerModule {}
