import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { AuditRepository, type AuditEntry } from './audit.repository.js';

export type { AuditEntry } from './audit.repository.js';

/** What other domains may do with the audit trail: add entries, in the transaction of the change they record. */
@Injectable()
export class AuditTrail {
  constructor(private readonly audit: AuditRepository) {}

  /** Written in the caller's transaction, so the trail holds exactly the changes that committed. */
  record(m: EntityManager, ...entries: AuditEntry[]): Promise<void> {
    return this.audit.record(m, ...entries);
  }
}
