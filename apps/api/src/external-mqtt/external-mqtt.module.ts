import { Module } from '@nestjs/common';
import { DeviceMessagingModule } from '../device-bridge/device-bridge.module.js';
import { MQTT_HEALTH } from '../health/health.service.js';
import { ExternalMqttService } from './external-mqtt.service.js';

/** The broker role with MQTT_MODE=external: a client of the operator's MQTT broker (docs/external-mqtt.md). */
@Module({
  imports: [DeviceMessagingModule],
  providers: [ExternalMqttService, { provide: MQTT_HEALTH, useExisting: ExternalMqttService }],
  exports: [ExternalMqttService, MQTT_HEALTH],
})
export class ExternalMqttModule {}
