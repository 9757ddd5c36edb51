import { Module } from '@nestjs/common';
import { AuthModule } from '../auth/auth.module.js';
import type { AppConfig } from '../config/app-config.js';
import { ProvisioningService } from '../device-bridge/provisioning.service.js';
import { DeviceOutboxModule } from '../device-outbox/device-outbox.module.js';
import { DeviceModule } from '../device/device.module.js';
import { MqttHooksController } from './mqtt-hooks.controller.js';
import { MqttHooksService } from './mqtt-hooks.service.js';

/**
 * The HTTP hooks an external broker asks who a client is and what it may do (api role, MQTT_MODE=external
 * with MQTT_AUTH_MODE=http-hooks; docs/external-mqtt.md, "HTTP hooks (EMQX and others)"). Provides its own
 * ProvisioningService: the broker role, which provides the other one, may not run in this process.
 */
@Module({
  imports: [AuthModule, DeviceModule, DeviceOutboxModule],
  controllers: [MqttHooksController],
  providers: [MqttHooksService, ProvisioningService],
})
export class MqttHooksModule {}

/** Whether this configuration serves the hooks. */
export function mqttHooksEnabled(config: AppConfig): boolean {
  return config.mqtt.mode === 'external' && config.mqtt.external?.authMode === 'http-hooks';
}
