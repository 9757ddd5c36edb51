import { Module } from '@nestjs/common';
import { AuditModule } from '../audit/audit.module.js';
import { DeviceOutboxModule } from '../device-outbox/device-outbox.module.js';
import { DeviceModule } from '../device/device.module.js';
import { EventsModule } from '../events/events.module.js';
import { MachineConfigController } from './machine-config.controller.js';
import { MachineConfigRepository } from './machine-config.repository.js';
import { MachineConfigService } from './machine-config.service.js';

/** Machine configuration: versions set by managers, published to machines and acknowledged by them. */
@Module({
  imports: [AuditModule, DeviceModule, DeviceOutboxModule, EventsModule],
  providers: [MachineConfigRepository, MachineConfigService],
  exports: [MachineConfigService],
})
export class MachineConfigModule {}

/** The configuration endpoints (api role). */
@Module({ imports: [MachineConfigModule], controllers: [MachineConfigController] })
export class MachineConfigApiModule {}
