import { DynamicModule, Global, Injectable, Logger, Module, OnApplicationShutdown } from '@nestjs/common';
import { ModuleRef } from '@nestjs/core';
import { TypeOrmModule } from '@nestjs/typeorm';
import { DataSource, DataSourceOptions } from 'typeorm';
import { ConflictRetryingDataSource } from './conflict-retry';
import { AppConfig } from '../config/app-config';
import { EmbeddedDatabase, startEmbeddedPostgres } from './embedded-postgres';
import { MIGRATIONS_TABLE, MigrationClass, runMigrationsLocked } from './migrations';
import { SqlClient } from './sql-client';
import { Outbox } from '../outbox/outbox';
import { Transactions } from './transactions';
import { PoolMetrics } from './pool-metrics';
import { AuditLog } from '../audit/audit-log';
import { clientWithDeadline, QueryDeadline } from './query-deadline';

/** Holds the embedded server (when one was started) so it can be stopped after the pool closes. */
@Injectable()
export class DatabaseServer implements OnApplicationShutdown {
  private readonly logger = new Logger('Database');
  embedded: EmbeddedDatabase | undefined;

  constructor(private readonly moduleRef: ModuleRef) {}

  async resolveUrl(config: AppConfig): Promise<string> {
    if (config.databaseUrl) return config.databaseUrl;
    this.embedded = await startEmbeddedPostgres({ dataDir: config.dataDir, avoidPorts: [config.port] });
    this.logger.log(`embedded PostgreSQL started (data in ${config.dataDir})`);
    return this.embedded.url;
  }


  async onApplicationShutdown(): Promise<void> {
    if (this.embedded) {
      // The pool must close before the server stops; hook order between modules is not guaranteed.
      const dataSource = this.moduleRef.get(DataSource, { strict: false });
      if (dataSource.isInitialized) await dataSource.destroy();
      await this.embedded.stop();
      this.embedded = undefined;
    }
  }
}

export interface DatabaseModuleOptions {
  migrations: MigrationClass[];
  /** Pool size per instance. */
  poolSize?: number;
}

@Global()
@Module({})
export class DatabaseServerModule {
  static forRoot(): DynamicModule {
    return { module: DatabaseServerModule, providers: [DatabaseServer, SqlClient, Outbox, AuditLog, Transactions, PoolMetrics], exports: [DatabaseServer, SqlClient, Outbox, AuditLog, Transactions] };
  }
}

@Module({})
export class DatabaseModule {
  static forRoot(options: DatabaseModuleOptions): DynamicModule {
    // The statements' deadline: none while the migrations run, DATABASE_QUERY_TIMEOUT_MS afterwards.
    const deadline = { now: { ms: 0, probeMs: 0 } as QueryDeadline, after: 0 };
    return {
      module: DatabaseModule,
      imports: [
        DatabaseServerModule.forRoot(),
        TypeOrmModule.forRootAsync({
          inject: [AppConfig, DatabaseServer],
          useFactory: async (config: AppConfig, server: DatabaseServer) => {
            deadline.after = config.databaseQueryTimeoutMs;
            deadline.now.probeMs = config.databaseReadyTimeoutMs;
            return {
              type: 'postgres' as const,
              url: await server.resolveUrl(config),
              autoLoadEntities: true,
              synchronize: false,
              migrationsRun: false,
              migrations: options.migrations,
              migrationsTableName: MIGRATIONS_TABLE,
              // Client-side bounds only (no startup parameter, no SET): they hold behind PgBouncer in
              // transaction pooling mode too. See clientWithDeadline for why a late statement ends its connection.
              extra: {
                max: options.poolSize ?? config.databasePoolSize,
                application_name: 'almanac',
                connectionTimeoutMillis: config.databaseConnectTimeoutMs,
                Client: clientWithDeadline(deadline.now),
              },
              logging: false,
            };
          },
          dataSourceFactory: async (dataSourceOptions?: DataSourceOptions) => {
            const dataSource = await new ConflictRetryingDataSource(dataSourceOptions!).initialize();
            // Migrations may take long (an index on a big table) or wait for another instance's: no deadline until they are done.
            await runMigrationsLocked(dataSource);
            deadline.now.ms = deadline.after;
            return dataSource;
          },
        }),
      ],
      exports: [TypeOrmModule],
    };
  }
}
