import { DynamicModule, Global, Module, type Provider } from '@nestjs/common';
import type { Redis } from 'ioredis';
import { APP_CONFIG, type AppConfig } from '../config/app-config.js';
import { REDIS } from '../redis/redis.provider.js';

/**
 * Infrastructure every module may inject: the configuration and the Redis connection (the DataSource
 * comes from TypeOrmModule). No domain service lives here: a domain reaches another only through what
 * that domain's module exports.
 */
@Global()
@Module({})
export class CoreModule {
  static forRoot(config: AppConfig, redis: Redis): DynamicModule {
    const providers: Provider[] = [
      { provide: APP_CONFIG, useValue: config },
      { provide: REDIS, useValue: redis },
    ];
    return { module: CoreModule, providers, exports: providers };
  }
}
