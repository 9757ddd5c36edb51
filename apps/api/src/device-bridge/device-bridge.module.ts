import { Module } from '@nestjs/common';
import { CardListModule } from '../card-list/card-list.module.js';
import { DeviceOutboxModule } from '../device-outbox/device-outbox.module.js';
import { DeviceModule } from '../device/device.module.js';
import { EventsModule } from '../events/events.module.js';
import { MQTT_HEALTH } from '../health/health.service.js';
import { MachineConfigModule } from '../machine-config/machine-config.module.js';
import { SaleModule } from '../sale/sale.module.js';
import { SequenceModule } from '../sequence/sequence.module.js';
import { TelemetryQueueModule } from '../telemetry/telemetry.module.js';
import { BrokerService } from './broker.service.js';
import { DeviceMessageRouter } from './device-message-router.js';
import { MachineStatusService } from './machine-status.service.js';
import { ProvisioningService } from './provisioning.service.js';
import { SessionRevocation } from './session-revocation.js';

/** What every role runs of the device bridge: machine sessions revoked on key rotation, machine status. */
@Module({
  imports: [DeviceModule, EventsModule],
  providers: [SessionRevocation, MachineStatusService],
  exports: [MachineStatusService],
})
export class DeviceBridgeModule {}

/**
 * What the broker role needs whichever broker the machines use: device messages routed to their services, and
 * provisioning. Imported by the embedded broker's module and by the external broker's (docs/external-mqtt.md).
 */
@Module({
  imports: [
    CardListModule,
    DeviceBridgeModule,
    DeviceModule,
    DeviceOutboxModule,
    MachineConfigModule,
    SaleModule,
    SequenceModule,
    TelemetryQueueModule,
  ],
  providers: [ProvisioningService, DeviceMessageRouter],
  exports: [ProvisioningService, DeviceMessageRouter, DeviceBridgeModule, DeviceModule],
})
export class DeviceMessagingModule {}

/** The embedded MQTT broker and machine provisioning (broker role); it answers the MQTT health check. */
@Module({
  imports: [DeviceMessagingModule],
  providers: [BrokerService, { provide: MQTT_HEALTH, useExisting: BrokerService }],
  exports: [BrokerService, MQTT_HEALTH],
})
export class BrokerModule {}
