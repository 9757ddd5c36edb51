import {
  DynamicModule,
  Inject,
  MiddlewareConsumer,
  Module,
  NestModule,
  OnApplicationShutdown,
  type Provider,
  type Type,
} from '@nestjs/common';
import { APP_FILTER, APP_GUARD, APP_INTERCEPTOR } from '@nestjs/core';
import { TypeOrmModule } from '@nestjs/typeorm';
import type { Redis } from 'ioredis';
import { AccessGuard } from './auth/access.guard.js';
import { AuthController } from './auth/auth.controller.js';
import { AuthService } from './auth/auth.service.js';
import { LoginRateLimiter } from './auth/login-rate-limiter.js';
import { AllExceptionsFilter } from './common/all-exceptions.filter.js';
import { JsonBodyMiddleware } from './common/json-body.middleware.js';
import { RouteInputInterceptor } from './common/route-input.interceptor.js';
import type { AppConfig } from './config/app-config.js';
import { dataSourceOptions } from './database/data-source-options.js';
import { BrokerService } from './device-bridge/broker.service.js';
import { ProvisioningService } from './device-bridge/provisioning.service.js';
import { DeviceController } from './device/device.controller.js';
import { MacAnnouncementPurger } from './device/mac-announcement.purger.js';
import { MacAnnouncementService } from './device/mac-announcement.service.js';
import { HealthController } from './health/health.controller.js';
import { HealthService, MQTT_HEALTH, type MqttHealth } from './health/health.service.js';
import { MachineConfigController } from './machine-config/machine-config.controller.js';
import { REDIS } from './redis/redis.provider.js';
import { CoreModule } from './core/core.module.js';
import { RequestRateLimiter } from './auth/request-rate-limiter.js';
import { ObservabilityController } from './observability/observability.controller.js';
import { RequestContextMiddleware } from './observability/request-context.middleware.js';
import { SalesViewModule } from './sales-view/sales-view.module.js';
import { LedgerModule } from './ledger/ledger.module.js';
import { LiveModule } from './live/live.module.js';
import { SaleController } from './sale/sale.controller.js';
import { SaleIngestProcessor } from './sale/sale-ingest.processor.js';
import { SaleIngestService } from './sale/sale-ingest.service.js';
import { SaleRestIngestService } from './sale/sale-rest-ingest.service.js';
import { AttendantService } from './user/attendant.service.js';
import { UserController } from './user/user.controller.js';
import { UserService } from './user/user.service.js';
import { IdempotencyKeyPurger } from './ledger/idempotency-key.purger.js';

const API_CONTROLLERS: Type[] = [
  AuthController,
  UserController,
  DeviceController,
  SaleController,
  MachineConfigController,
  ObservabilityController,
];
const API_PROVIDERS: Provider[] = [LoginRateLimiter, AuthService, UserService, AttendantService, SaleRestIngestService];

/** One program, three roles (CONTRACT section 1): api, broker and worker, together or apart. */
@Module({})
export class AppModule implements NestModule, OnApplicationShutdown {
  constructor(@Inject(REDIS) private readonly redis: Redis) {}

  static forRoot(config: AppConfig, redis: Redis): DynamicModule {
    const roles = config.roles;
    const noBroker: MqttHealth = { mqttStatus: () => 'disabled' };
    return {
      module: AppModule,
      imports: [
        TypeOrmModule.forRoot(dataSourceOptions(config.databaseUrl)),
        CoreModule.forRoot(config, redis),
        // Every role broadcasts live events (through the Socket.IO Redis adapter); only the api role serves clients.
        LiveModule,
        ...(roles.has('api') ? [SalesViewModule, LedgerModule] : []),
      ],
      controllers: [HealthController, ...(roles.has('api') ? API_CONTROLLERS : [])],
      providers: [
        HealthService,
        RequestRateLimiter,
        MacAnnouncementService,
        { provide: APP_GUARD, useClass: AccessGuard },
        { provide: APP_INTERCEPTOR, useClass: RouteInputInterceptor },
        { provide: APP_FILTER, useClass: AllExceptionsFilter },
        ...(roles.has('api') ? API_PROVIDERS : []),
        ...(roles.has('broker')
          ? [BrokerService, ProvisioningService, { provide: MQTT_HEALTH, useExisting: BrokerService }]
          : [{ provide: MQTT_HEALTH, useValue: noBroker }]),
        ...(roles.has('worker')
          ? [SaleIngestService, SaleIngestProcessor, IdempotencyKeyPurger, MacAnnouncementPurger]
          : []),
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
