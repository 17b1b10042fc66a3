import './register-ts-paths';
import 'reflect-metadata';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from 'pg';
import { DataSource } from 'typeorm';
import { runMigrationsLocked, startEmbeddedPostgres } from '../../libs/shared/src';
import { TEST_DB_ENV } from '../../libs/shared/src/testing/test-database';
import { ALL_MIGRATIONS } from '../../apps/api/src/migrations';

const TEMPLATE = 'almanac_template';

/** Starts one real PostgreSQL for the whole run and builds the migrated template database. */
export default async function globalSetup(): Promise<void> {
  const dataDir = mkdtempSync(join(tmpdir(), 'almanac-test-'));
  const server = await startEmbeddedPostgres({ dataDir, database: TEMPLATE, persistent: false });
  (globalThis as { __ALMANAC_PG__?: unknown }).__ALMANAC_PG__ = server;

  const dataSource = new DataSource({ type: 'postgres', url: server.url, migrations: ALL_MIGRATIONS, migrationsTableName: 'schema_migrations' });
  await dataSource.initialize();
  await runMigrationsLocked(dataSource);
  await dataSource.destroy();

  // Nobody may stay connected to a template, or CREATE DATABASE … TEMPLATE fails.
  const admin = new Client({ connectionString: server.adminUrl });
  await admin.connect();
  await admin.query(`ALTER DATABASE ${TEMPLATE} WITH ALLOW_CONNECTIONS false`);
  await admin.end();

  process.env[TEST_DB_ENV] = JSON.stringify({ adminUrl: server.adminUrl, templateDatabase: TEMPLATE });
}
