import { Module } from '@nestjs/common';
import { DeviceModule } from '../device/device.module.js';
import { SalesSummaryRepository } from './sales-summary.repository.js';
import { SalesSummaryService } from './sales-summary.service.js';
import { SalesViewController } from './sales-view.controller.js';
import { TransactionExportService } from './transaction-export.service.js';
import { TransactionRepository } from './transaction.repository.js';
import { TransactionService } from './transaction.service.js';

/** Summaries, transaction pages, exports and the dashboard overview (api role). */
@Module({
  imports: [DeviceModule],
  controllers: [SalesViewController],
  providers: [
    SalesSummaryRepository,
    SalesSummaryService,
    TransactionRepository,
    TransactionService,
    TransactionExportService,
  ],
})
export class SalesViewModule {}
