import { Module } from '@nestjs/common';
import { EventsModule } from '../events/events.module.js';
import { LedgerModule } from '../ledger/ledger.module.js';
import { NotificationChannelsModule } from '../notification/notification.module.js';
import { DarajaClient } from './daraja.client.js';
import { MOBILE_MONEY_PROVIDER } from './mobile-money.provider.js';
import { MpesaCallbackController } from './mpesa-callback.controller.js';
import { MpesaCallbackService } from './mpesa-callback.service.js';
import { PaymentReceiptDispatcher } from './payment-receipt.dispatcher.js';
import { PaymentReceiptRepository } from './payment-receipt.repository.js';
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
    PaymentReceiptRepository,
    PaymentSettlementService,
    DarajaClient,
    { provide: MOBILE_MONEY_PROVIDER, useExisting: DarajaClient },
  ],
  // PaymentReceiptRepository: for this folder's worker module only.
  exports: [PaymentRepository, PaymentReceiptRepository, PaymentSettlementService, MOBILE_MONEY_PROVIDER],
})
export class PaymentModule {}

/** The api role: the top-up, the payment reads and Daraja's callbacks. */
@Module({
  imports: [PaymentModule, LedgerModule],
  controllers: [PaymentController, MpesaCallbackController],
  providers: [PaymentService, MpesaCallbackService, StatementImportService],
})
export class PaymentApiModule {}

/**
 * The worker role: sends queued pushes, queries the ones whose callback has not come, and sends the
 * payers' SMS receipts.
 */
@Module({
  imports: [PaymentModule, NotificationChannelsModule],
  providers: [PaymentDispatcher, PaymentReceiptDispatcher],
})
export class PaymentWorkerModule {}
