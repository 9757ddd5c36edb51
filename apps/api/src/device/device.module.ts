import { Module } from '@nestjs/common';
import { AuditModule } from '../audit/audit.module.js';
import { DeviceOutboxModule } from '../device-outbox/device-outbox.module.js';
import { EventsModule } from '../events/events.module.js';
import { RateLimitModule } from '../rate-limit/rate-limit.module.js';
import { BrokerIdentityChanges } from './broker-identity-changes.js';
import { DeviceDirectory } from './device-directory.js';
import { DeviceKeyService } from './device-key.service.js';
import { DeviceController } from './device.controller.js';
import { DeviceRepository } from './device.repository.js';
import { DeviceService } from './device.service.js';
import { MacAnnouncementPurger } from './mac-announcement.purger.js';
import { MacAnnouncementService } from './mac-announcement.service.js';
import { ProvisioningRecords } from './provisioning-records.js';

/** Machines: registration, ownership and assignment, device keys and MAC announcements. */
@Module({
  imports: [AuditModule, DeviceOutboxModule, EventsModule, RateLimitModule],
  providers: [
    BrokerIdentityChanges,
    DeviceRepository,
    DeviceDirectory,
    ProvisioningRecords,
    DeviceKeyService,
    DeviceService,
    MacAnnouncementService,
  ],
  // DeviceRepository: for this folder's API and worker modules only (other folders may not import it).
  exports: [
    BrokerIdentityChanges,
    DeviceRepository,
    DeviceDirectory,
    ProvisioningRecords,
    DeviceKeyService,
    DeviceService,
    MacAnnouncementService,
  ],
})
export class DeviceModule {}

/** The devices' REST endpoints (api role). */
@Module({ imports: [DeviceModule], controllers: [DeviceController] })
export class DeviceApiModule {}

/** The purge of old MAC announcements (worker role). */
@Module({ imports: [DeviceModule], providers: [MacAnnouncementPurger] })
export class DeviceWorkerModule {}
