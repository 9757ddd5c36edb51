import { Module } from '@nestjs/common';
import { AuditController } from '../audit/audit.controller.js';
import { AuditService } from '../audit/audit.service.js';
import { CardController } from '../card/card.controller.js';
import { CardRepository } from '../card/card.repository.js';
import { CardService } from '../card/card.service.js';
import { FloatController } from '../float/float.controller.js';
import { FloatRepository } from '../float/float.repository.js';
import { FloatService } from '../float/float.service.js';
import { IdempotencyService } from './idempotency.service.js';

/**
 * Cards and float: the money ledger, and the audit trail's reader. LedgerRepository, AuditRepository
 * and IdempotencyRepository live in CoreModule, since the sale ingest, the other domains and the
 * worker's key purge use them too.
 */
@Module({
  controllers: [CardController, FloatController, AuditController],
  providers: [IdempotencyService, CardRepository, CardService, FloatRepository, FloatService, AuditService],
})
export class LedgerModule {}
