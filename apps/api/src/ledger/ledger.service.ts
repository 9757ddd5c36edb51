import { Injectable } from '@nestjs/common';
import { LedgerRepository } from './ledger.repository.js';

export type { LedgerInput, LedgerKind, LockedCard } from './ledger.repository.js';

/**
 * The money ledger as other domains use it (docs/decisions/0003-money-ledger.md): balances move only
 * here, always in the caller's transaction together with the entries that explain them.
 */
@Injectable()
export class LedgerService {
  constructor(private readonly ledger: LedgerRepository) {}

  creditFloat(...args: Parameters<LedgerRepository['creditFloat']>) {
    return this.ledger.creditFloat(...args);
  }

  debitFloat(...args: Parameters<LedgerRepository['debitFloat']>) {
    return this.ledger.debitFloat(...args);
  }

  floatBalance(...args: Parameters<LedgerRepository['floatBalance']>) {
    return this.ledger.floatBalance(...args);
  }

  creditCard(...args: Parameters<LedgerRepository['creditCard']>) {
    return this.ledger.creditCard(...args);
  }

  lockCards(...args: Parameters<LedgerRepository['lockCards']>) {
    return this.ledger.lockCards(...args);
  }

  setCardBalances(...args: Parameters<LedgerRepository['setCardBalances']>) {
    return this.ledger.setCardBalances(...args);
  }

  insertEntries(...args: Parameters<LedgerRepository['insertEntries']>) {
    return this.ledger.insertEntries(...args);
  }
}
