import type { DataSourceOptions } from 'typeorm';
import { entities } from './entities.js';
import { migrations } from './migrations/index.js';

export function dataSourceOptions(databaseUrl: string): DataSourceOptions {
  return {
    type: 'postgres',
    url: databaseUrl,
    entities,
    migrations,
    migrationsTableName: 'schema_migrations',
    synchronize: false,
    migrationsRun: false,
    extra: { max: 20, connectionTimeoutMillis: 5000 },
  };
}
