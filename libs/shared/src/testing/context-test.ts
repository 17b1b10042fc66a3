import 'reflect-metadata';
import { DynamicModule, INestApplicationContext, Module, Type } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { getDataSourceToken } from '@nestjs/typeorm';
import type { DataSource } from 'typeorm';
import { AppConfig } from '../config/app-config';
import { DatabaseModule } from '../database/database.module';
import { ManualClock } from '../domain/clock';
import { SharedModule } from '../shared.module';
import { createTestDatabase } from './test-database';

/**
 * A context's services with their real repositories on a real database, without HTTP: the medium
 * test tier (`*.medium.spec.ts`, beside the service it tests). The context's Nest module is booted as
 * an application context (no HTTP server, no pipes or guards) on a fresh database cloned from the
 * migrated template, with the kernel (config, a manual clock, the database, the outbox) as the app
 * composes it. Get a service with `get(ServiceClass)` and call it as a controller would.
 */
export interface ContextTest {
  get<T>(type: Type<T>): T;
  clock: ManualClock;
  dataSource: DataSource;
  query<T = Record<string, unknown>>(sql: string, params?: unknown[]): Promise<T[]>;
  close(): Promise<void>;
}

export interface ContextTestOptions {
  /**
   * The modules to boot: the context's own, and the public modules it depends on (identity, for the
   * organizations its rows belong to, and its guards' providers).
   */
  modules: Array<Type<unknown> | DynamicModule>;
  config?: Partial<ConstructorParameters<typeof AppConfig>[0]>;
  /** Where the manual clock starts; it moves only when the test moves it. */
  now?: Date;
}

/** Boots the modules on a fresh test database; call in beforeAll and close in afterAll. */
export async function createContextTest(options: ContextTestOptions): Promise<ContextTest> {
  const database = await createTestDatabase();
  const config = new AppConfig({
    databaseUrl: database.url,
    appUrl: 'http://localhost:3000',
    logLevel: 'silent',
    seedDemo: false,
    // No deliveries in the background: a medium test reads the outbox rows themselves.
    webhookDispatcher: false,
    ...options.config,
  });
  const clock = new ManualClock(options.now ?? new Date());

  @Module({})
  class ContextTestModule {}

  let context: INestApplicationContext;
  try {
    context = await NestFactory.createApplicationContext(
      {
        module: ContextTestModule,
        imports: [
          SharedModule.forRoot({ config, clock }),
          // The template database is migrated already.
          DatabaseModule.forRoot({ migrations: [] }),
          ...options.modules,
        ],
      },
      { logger: false, abortOnError: false },
    );
  } catch (error) {
    await database.drop();
    throw error;
  }
  const dataSource = context.get<DataSource>(getDataSourceToken());
  return {
    get: <T>(type: Type<T>) => context.get(type, { strict: false }),
    clock,
    dataSource,
    query: <T>(sql: string, params: unknown[] = []) => dataSource.query(sql, params) as Promise<T[]>,
    async close() {
      await context.close();
      await database.drop();
    },
  };
}
