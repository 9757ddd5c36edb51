import { Module } from '@nestjs/common';
import { AuditModule } from '../audit/audit.module.js';
import { DeviceModule } from '../device/device.module.js';
import { FleetController } from './fleet.controller.js';
import { FleetRepository } from './fleet.repository.js';
import { FleetService } from './fleet.service.js';

/** The fleet dashboard's machine table and headline row (api role; docs/web-app.md, "Fleet dashboard"). */
@Module({
  imports: [AuditModule, DeviceModule],
  controllers: [FleetController],
  providers: [FleetRepository, FleetService],
})
export class FleetApiModule {}
