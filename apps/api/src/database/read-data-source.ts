import { redactUrl } from '../common/redact-url.js';
import {
  type DynamicModule,
  Inject,
  Injectable,
  Logger,
  Module,
  type OnApplicationShutdown,
  type OnModuleInit,
  type Provider,
} from '@nestjs/common';
import { DataSource, type DataSourceOptions } from 'typeorm';
import { APP_CONFIG, ConfigError, type AppConfig } from '../config/app-config.js';
import { dataSourceOptions } from './data-source-options.js';
import { guardPoolClients } from './pool-error-guard.js';

/**
 * The DataSource of the read-heavy sales views (docs/read-replica.md): the streaming replica named by
 * DATABASE_READ_URL, or the main DataSource when it is unset. Only reads that may lag the primary by
 * a moment inject it; writes, and reads that must see their own writes, keep the main DataSource.
 */
export const READ_DATA_SOURCE = Symbol('READ_DATA_SOURCE');

/**
 * Connections to the replica. The pages and summaries take one for a statement; an export streaming in
 * this thread holds one for its length (at most 4 at once, see transaction-export.service.ts).
 */
const READ_POOL_SIZE = 8;

type PostgresOptions = Extract<DataSourceOptions, { type: 'postgres' }>;

/**
 * The main options (same entities) on another URL, never migrating: the primary's migrations reach a
 * standby by replication. No CREATE EXTENSION (a standby refuses every write), and every session is
 * read-only even when the URL names a server that is not a standby, so that nothing writes through
 * this pool.
 */
export function readDataSourceOptions(url: string): PostgresOptions {
  return {
    ...(dataSourceOptions(url) as PostgresOptions),
    migrations: [],
    migrationsRun: false,
    installExtensions: false,
    applicationName: 'wv-read',
    extra: {
      max: READ_POOL_SIZE,
      connectionTimeoutMillis: 5000,
      options: '-c default_transaction_read_only=on',
    },
  };
}

/**
 * The replica's DataSource in a process that serves the API: connected at start (a replica that
 * cannot be reached ends the start with one line, as a primary that cannot be reached does), warned
 * about when it is not a standby, and closed at shutdown.
 */
@Injectable()
export class ReadReplica implements OnModuleInit, OnApplicationShutdown {
  readonly dataSource: DataSource;
  private readonly url: string;
  private readonly logger = new Logger('Database');

  constructor(@Inject(APP_CONFIG) config: AppConfig) {
    if (!config.databaseReadUrl) throw new Error('ReadReplica needs DATABASE_READ_URL');
    this.url = config.databaseReadUrl;
    this.dataSource = new DataSource(readDataSourceOptions(this.url));
  }

  async onModuleInit(): Promise<void> {
    try {
      await this.dataSource.initialize();
    } catch (error) {
      // Several addresses refused (localhost: ::1 and 127.0.0.1) come as an AggregateError without a message.
      const e = error as Error & { code?: string };
      const reason = (e.message || e.code || String(error)).replace(/\s+/g, ' ').trim();
      throw new ConfigError(
        `Cannot reach the read replica at ${redactUrl(this.url)} (${reason}). Check DATABASE_READ_URL.`,
      );
    }
    guardPoolClients(this.dataSource);
    const [row] = (await this.dataSource.query('SELECT pg_is_in_recovery() AS standby')) as { standby: boolean }[];
    if (!row?.standby) {
      this.logger.warn(
        `DATABASE_READ_URL (${redactUrl(this.url)}) is not a standby (pg_is_in_recovery() is false): ` +
          'the sales views show what that server holds, which is what DATABASE_URL holds only if it replicates it',
      );
    }
  }

  async onApplicationShutdown(): Promise<void> {
    if (this.dataSource.isInitialized) await this.dataSource.destroy().catch(() => undefined);
  }
}

/**
 * Provides READ_DATA_SOURCE to every module. A replica is opened only where the sales views run (the
 * api role) and DATABASE_READ_URL is set; otherwise the token is the main DataSource itself.
 *
 * Not TypeORM's own `replication` option: it sends every SELECT of every domain to a replica by
 * default, including the reads that must see the writes just made.
 */
@Module({})
export class ReadDataSourceModule {
  static forRoot(config: AppConfig): DynamicModule {
    const replica = config.databaseReadUrl !== undefined && config.roles.has('api');
    const providers: Provider[] = replica
      ? [
          ReadReplica,
          { provide: READ_DATA_SOURCE, useFactory: (r: ReadReplica) => r.dataSource, inject: [ReadReplica] },
        ]
      : [{ provide: READ_DATA_SOURCE, useExisting: DataSource }];
    return { module: ReadDataSourceModule, global: true, providers, exports: [READ_DATA_SOURCE] };
  }
}
