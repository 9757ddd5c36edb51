import { Module } from '@nestjs/common';
import { CardListModule } from '../card-list/card-list.module.js';
import { DeviceBridgeModule } from '../device-bridge/device-bridge.module.js';
import { DeviceMessageRouter } from '../device-bridge/device-message-router.js';
import { ProvisioningService } from '../device-bridge/provisioning.service.js';
import { DeviceOutboxModule } from '../device-outbox/device-outbox.module.js';
import { DeviceModule } from '../device/device.module.js';
import { MQTT_HEALTH } from '../health/health.service.js';
import { MachineConfigModule } from '../machine-config/machine-config.module.js';
import { SaleModule } from '../sale/sale.module.js';
import { SequenceModule } from '../sequence/sequence.module.js';
import { TelemetryQueueModule } from '../telemetry/telemetry.module.js';
import { ExternalMqttService } from './external-mqtt.service.js';

/** The broker role with MQTT_MODE=external: a client of the operator's MQTT broker (docs/external-mqtt.md). */
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
  providers: [
    ExternalMqttService,
    ProvisioningService,
    DeviceMessageRouter,
    { provide: MQTT_HEALTH, useExisting: ExternalMqttService },
  ],
  exports: [ExternalMqttService, MQTT_HEALTH],
})
export class ExternalMqttModule {}
