import {
  DynamicModule,
  Inject,
  MiddlewareConsumer,
  Module,
  NestModule,
  OnApplicationShutdown,
  type Type,
} from '@nestjs/common';
import { APP_FILTER, APP_INTERCEPTOR } from '@nestjs/core';
import { TypeOrmModule } from '@nestjs/typeorm';
import type { Redis } from 'ioredis';
import { AlarmApiModule, AlarmModule, AlarmWorkerModule } from './alarm/alarm.module.js';
import { AuditApiModule } from './audit/audit.module.js';
import { AuthApiModule, AuthModule } from './auth/auth.module.js';
import { CardModule } from './card/card.module.js';
import { CardListModule, CardListWorkerModule } from './card-list/card-list.module.js';
import { AllExceptionsFilter } from './common/all-exceptions.filter.js';
import { JsonBodyMiddleware } from './common/json-body.middleware.js';
import { RouteInputInterceptor } from './common/route-input.interceptor.js';
import type { AppConfig } from './config/app-config.js';
import { CoreModule } from './core/core.module.js';
import { dataSourceOptions } from './database/data-source-options.js';
import { ReadDataSourceModule } from './database/read-data-source.js';
import { BrokerModule, DeviceBridgeModule } from './device-bridge/device-bridge.module.js';
import { ExternalMqttModule } from './external-mqtt/external-mqtt.module.js';
import { DeviceApiModule, DeviceModule, DeviceWorkerModule } from './device/device.module.js';
import { FleetApiModule } from './fleet/fleet.module.js';
import { FloatModule } from './float/float.module.js';
import { HealthModule } from './health/health.module.js';
import { LedgerWorkerModule } from './ledger/ledger.module.js';
import { LiveModule } from './live/live.module.js';
import { NotificationApiModule, NotificationWorkerModule } from './notification/notification.module.js';
import { PaymentApiModule, PaymentWorkerModule } from './payment/payment.module.js';
import { MachineConfigApiModule } from './machine-config/machine-config.module.js';
import { MqttHooksModule, mqttHooksEnabled } from './mqtt-hooks/mqtt-hooks.module.js';
import { ObservabilityApiModule, ObservabilityModule } from './observability/observability.module.js';
import { RequestContextMiddleware } from './observability/request-context.middleware.js';
import { REDIS } from './redis/redis.provider.js';
import { SaleApiModule, SaleModule, SaleWorkerModule } from './sale/sale.module.js';
import { SalesViewModule } from './sales-view/sales-view.module.js';
import { SequenceApiModule } from './sequence/sequence.module.js';
import { TelemetryApiModule, TelemetryWorkerModule } from './telemetry/telemetry.module.js';
import { UserApiModule } from './user/user.module.js';

/** The api role: the REST endpoints of every domain. */
const API_MODULES: Type[] = [
  AuthApiModule,
  UserApiModule,
  DeviceApiModule,
  SaleApiModule,
  MachineConfigApiModule,
  ObservabilityApiModule,
  SalesViewModule,
  CardModule,
  FloatModule,
  AuditApiModule,
  SequenceApiModule,
  NotificationApiModule,
  TelemetryApiModule,
  AlarmApiModule,
  PaymentApiModule,
  FleetApiModule,
];
/** The worker role: the sales ingest and the purges. */
const WORKER_MODULES: Type[] = [
  SaleWorkerModule,
  LedgerWorkerModule,
  DeviceWorkerModule,
  NotificationWorkerModule,
  CardListWorkerModule,
  TelemetryWorkerModule,
  AlarmWorkerModule,
  PaymentWorkerModule,
];

/**
 * One program, three roles (docs/operations.md, "Configuration"): api, broker and worker, together or
 * apart. This module only composes: each domain's module declares what it provides and exports.
 */
@Module({})
export class AppModule implements NestModule, OnApplicationShutdown {
  constructor(@Inject(REDIS) private readonly redis: Redis) {}

  static forRoot(config: AppConfig, redis: Redis): DynamicModule {
    const roles = config.roles;
    // The broker role: the embedded broker, or a client of an external one (docs/external-mqtt.md).
    const mqttModule = config.mqtt.mode === 'external' ? ExternalMqttModule : BrokerModule;
    return {
      module: AppModule,
      imports: [
        TypeOrmModule.forRoot(dataSourceOptions(config.databaseUrl)),
        // READ_DATA_SOURCE: the replica of DATABASE_READ_URL for the sales views, or the DataSource above (docs/read-replica.md).
        ReadDataSourceModule.forRoot(config),
        CoreModule.forRoot(config, redis),
        // What every role runs: the access guard, the ingest queue, key-rotation revocations, metrics.
        AuthModule,
        DeviceModule,
        DeviceBridgeModule,
        SaleModule,
        AlarmModule,
        CardListModule,
        ObservabilityModule,
        ...(roles.has('broker') ? [mqttModule] : []),
        ...(roles.has('api') && mqttHooksEnabled(config) ? [MqttHooksModule] : []),
        HealthModule.forRoot(roles.has('broker') ? mqttModule : undefined),
        // Every role broadcasts live events (through the Socket.IO Redis adapter); only the api role serves clients.
        LiveModule,
        ...(roles.has('api') ? API_MODULES : []),
        ...(roles.has('worker') ? WORKER_MODULES : []),
      ],
      providers: [
        { provide: APP_INTERCEPTOR, useClass: RouteInputInterceptor },
        { provide: APP_FILTER, useClass: AllExceptionsFilter },
      ],
    };
  }

  configure(consumer: MiddlewareConsumer): void {
    consumer.apply(RequestContextMiddleware, JsonBodyMiddleware).forRoutes('*path');
  }

  async onApplicationShutdown(): Promise<void> {
    await this.redis.quit().catch(() => undefined);
  }
}
