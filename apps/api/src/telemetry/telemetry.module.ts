import { Module } from '@nestjs/common';
import { DeviceModule } from '../device/device.module.js';
import { TelemetryPartitions } from './telemetry-partitions.js';
import { TelemetryController } from './telemetry.controller.js';
import { TelemetryQueue } from './telemetry.queue.js';
import { TelemetryRepository } from './telemetry.repository.js';
import { TelemetryService } from './telemetry.service.js';
import { TelemetryStore } from './telemetry-store.js';

/** Telemetry storage and the latest health per machine (docs/alarms.md, "Telemetry"). */
// TelemetryRepository: for this folder's API and worker modules only (other folders use TelemetryStore).
@Module({ providers: [TelemetryRepository, TelemetryStore], exports: [TelemetryRepository, TelemetryStore] })
export class TelemetryModule {}

/** The broker's side: readings batched into the telemetry queue (broker role). */
@Module({ providers: [TelemetryQueue], exports: [TelemetryQueue] })
export class TelemetryQueueModule {}

/** The telemetry chart endpoint (api role). */
@Module({
  imports: [DeviceModule, TelemetryModule],
  controllers: [TelemetryController],
  providers: [TelemetryService],
})
export class TelemetryApiModule {}

/** Day partitions made ahead and dropped past the retention (worker role). */
@Module({ imports: [TelemetryModule], providers: [TelemetryPartitions] })
export class TelemetryWorkerModule {}
