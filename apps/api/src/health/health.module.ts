import { DynamicModule, Module, type Type } from '@nestjs/common';
import { HealthController } from './health.controller.js';
import { HealthService, MQTT_HEALTH, type MqttHealth } from './health.service.js';

const NO_BROKER: MqttHealth = { mqttStatus: () => 'disabled' };

/** The liveness and health endpoints, in every role: PostgreSQL, Redis and, where this process runs the broker, MQTT. */
@Module({})
export class HealthModule {
  /** `broker`: the module that exports MQTT_HEALTH when this process runs the broker role. */
  static forRoot(broker?: Type): DynamicModule {
    return {
      module: HealthModule,
      imports: broker ? [broker] : [],
      controllers: [HealthController],
      providers: [HealthService, ...(broker ? [] : [{ provide: MQTT_HEALTH, useValue: NO_BROKER }])],
    };
  }
}
