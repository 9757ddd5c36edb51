import { Module } from '@nestjs/common';
import { AuditController } from './audit.controller.js';
import { AuditRepository } from './audit.repository.js';
import { AuditService } from './audit.service.js';
import { AuditTrail } from './audit-trail.js';

/** The audit trail: other domains add entries through AuditTrail, in the transaction of their change. */
@Module({ providers: [AuditRepository, AuditTrail, AuditService], exports: [AuditTrail, AuditService] })
export class AuditModule {}

/** The audit trail's endpoint (api role). */
@Module({ imports: [AuditModule], controllers: [AuditController] })
export class AuditApiModule {}
