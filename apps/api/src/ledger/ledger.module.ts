import { Module } from '@nestjs/common';
import { IdempotencyKeyPurger } from './idempotency-key.purger.js';
import { IdempotencyRepository } from './idempotency.repository.js';
import { IdempotencyService } from './idempotency.service.js';
import { LedgerRepository } from './ledger.repository.js';
import { LedgerService } from './ledger.service.js';

/**
 * The money ledger (docs/decisions/0003-money-ledger.md) and the idempotency keys of money commands: cards,
 * float and the sale ingest write their movements through it, in their own transactions.
 */
@Module({
  providers: [LedgerRepository, LedgerService, IdempotencyRepository, IdempotencyService],
  exports: [LedgerService, IdempotencyService, IdempotencyRepository],
})
export class LedgerModule {}

/** The purge of expired idempotency keys (worker role). */
@Module({ imports: [LedgerModule], providers: [IdempotencyKeyPurger] })
export class LedgerWorkerModule {}
