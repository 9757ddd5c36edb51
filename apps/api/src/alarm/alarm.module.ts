import { Module } from '@nestjs/common';
import { AuditModule } from '../audit/audit.module.js';
import { DeviceModule } from '../device/device.module.js';
import { EventsModule } from '../events/events.module.js';
import { NotificationModule } from '../notification/notification.module.js';
import { TelemetryModule } from '../telemetry/telemetry.module.js';
import { AlarmEngine } from './alarm-engine.js';
import { AlarmNotices } from './alarm-notices.js';
import { AlarmSalesListener } from './alarm-sales.listener.js';
import { AlarmSettingsService } from './alarm-settings.service.js';
import { AlarmStatusListener } from './alarm-status.listener.js';
import { AlarmSweepScheduler } from './alarm-sweep.scheduler.js';
import { AlarmSweepService } from './alarm-sweep.service.js';
import { AlarmController } from './alarm.controller.js';
import { AlarmRepository } from './alarm.repository.js';
import { AlarmService } from './alarm.service.js';
import { MachineHealthService } from './machine-health.service.js';
import { TelemetryIngestProcessor } from './telemetry-ingest.processor.js';
import { TelemetryIngestService } from './telemetry-ingest.service.js';

/**
 * The alarm engine (docs/alarms.md), in every role: a connect clears an offline alarm in the broker
 * process that saw it. Messages go through the notification port (ALARM_NOTIFIER).
 */
@Module({
  imports: [EventsModule, NotificationModule, TelemetryModule],
  providers: [AlarmRepository, AlarmNotices, AlarmEngine, AlarmStatusListener],
  exports: [AlarmRepository, AlarmNotices, AlarmEngine],
})
export class AlarmModule {}

/** Machine health, alarm settings and the alarms' workflow endpoints (api role). */
@Module({
  imports: [AlarmModule, AuditModule, DeviceModule, TelemetryModule],
  controllers: [AlarmController],
  providers: [AlarmService, AlarmSettingsService, MachineHealthService],
})
export class AlarmApiModule {}

/** Telemetry and sale rules, and the sweep (worker role). */
@Module({
  imports: [AlarmModule, EventsModule, TelemetryModule],
  providers: [
    TelemetryIngestService,
    TelemetryIngestProcessor,
    AlarmSalesListener,
    AlarmSweepService,
    AlarmSweepScheduler,
  ],
  exports: [AlarmSweepService, TelemetryIngestService, AlarmSalesListener],
})
export class AlarmWorkerModule {}
