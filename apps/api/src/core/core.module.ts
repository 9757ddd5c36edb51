import { DynamicModule, Global, Module, type Provider } from '@nestjs/common';
import type { Redis } from 'ioredis';
import { AuditRepository } from '../audit/audit.repository.js';
import { CredentialFailureLimiter } from '../auth/credential-failure-limiter.js';
import { TokenService } from '../auth/token.service.js';
import { DomainEvents } from '../common/domain-events.js';
import { APP_CONFIG, type AppConfig } from '../config/app-config.js';
import { DeviceOutbox } from '../device-bridge/device-outbox.js';
import { MachineStatusService } from '../device-bridge/machine-status.service.js';
import { SessionRevocation } from '../device-bridge/session-revocation.js';
import { DeviceKeyService } from '../device/device-key.service.js';
import { DeviceRepository } from '../device/device.repository.js';
import { DeviceService } from '../device/device.service.js';
import { IdempotencyRepository } from '../ledger/idempotency.repository.js';
import { LedgerRepository } from '../ledger/ledger.repository.js';
import { MachineConfigRepository } from '../machine-config/machine-config.repository.js';
import { MachineConfigService } from '../machine-config/machine-config.service.js';
import { REDIS } from '../redis/redis.provider.js';
import { SaleIngestQueue } from '../sale/sale-ingest.queue.js';
import { MetricsService } from '../observability/metrics.service.js';
import { SaleRepository } from '../sale/sale.repository.js';
import { UserRepository } from '../user/user.repository.js';

/** What every role shares: configuration, Redis, data access and the domain services. */
const SHARED: Provider[] = [
  DomainEvents,
  TokenService,
  CredentialFailureLimiter,
  UserRepository,
  DeviceRepository,
  DeviceKeyService,
  SessionRevocation,
  DeviceService,
  DeviceOutbox,
  MachineConfigRepository,
  MachineConfigService,
  MachineStatusService,
  SaleRepository,
  LedgerRepository,
  IdempotencyRepository,
  AuditRepository,
  SaleIngestQueue,
  MetricsService,
];

@Global()
@Module({})
export class CoreModule {
  static forRoot(config: AppConfig, redis: Redis): DynamicModule {
    const providers: Provider[] = [
      { provide: APP_CONFIG, useValue: config },
      { provide: REDIS, useValue: redis },
      ...SHARED,
    ];
    return { module: CoreModule, providers, exports: providers };
  }
}
