import { Module } from '@nestjs/common';
import { AuditModule } from '../audit/audit.module.js';
import { DeviceModule } from '../device/device.module.js';
import { EventsModule } from '../events/events.module.js';
import { LedgerModule } from '../ledger/ledger.module.js';
import { CardController } from './card.controller.js';
import { CardRepository } from './card.repository.js';
import { CardService } from './card.service.js';

/** Prepaid cards: issue, load and top-up, and their movements (api role). */
@Module({
  imports: [AuditModule, DeviceModule, EventsModule, LedgerModule],
  controllers: [CardController],
  providers: [CardRepository, CardService],
})
export class CardModule {}
