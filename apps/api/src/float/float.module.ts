import { Module } from '@nestjs/common';
import { AuditModule } from '../audit/audit.module.js';
import { EventsModule } from '../events/events.module.js';
import { LedgerModule } from '../ledger/ledger.module.js';
import { UserModule } from '../user/user.module.js';
import { FloatController } from './float.controller.js';
import { FloatRepository } from './float.repository.js';
import { FloatService } from './float.service.js';

/** Float requests of attendants and their managers' decisions (api role). */
@Module({
  imports: [AuditModule, EventsModule, LedgerModule, UserModule],
  controllers: [FloatController],
  providers: [FloatRepository, FloatService],
})
export class FloatModule {}
