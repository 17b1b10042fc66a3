import './register-ts-paths';
import 'reflect-metadata';
import { execFileSync } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from 'pg';
import { migrateDatabase, startEmbeddedPostgres } from '../../libs/shared/src';
import { TEST_DB_ENV } from '../../libs/shared/src/testing/test-database';
import { ALL_MIGRATIONS } from '../../apps/api/src/migrations';
import { pgBouncerAvailable, PGBOUNCER_BIN, PGBOUNCER_ENV, startPgBouncer } from './pgbouncer';

const TEMPLATE = 'almanac_template';

/**
 * Starts one real PostgreSQL for the whole run and builds the migrated template database; with
 * `ALMANAC_TEST_PGBOUNCER=1`, also a PgBouncer in transaction mode in front of it, through which the
 * apps under test connect.
 */
export default async function globalSetup(): Promise<void> {
  // The admin console's browser modules (apps/admin), which the app serves from dist/apps/admin.
  execFileSync(process.execPath, [require.resolve('typescript/bin/tsc'), '-p', join(__dirname, '../../apps/admin/tsconfig.json')], { stdio: 'inherit' });
  const dataDir = mkdtempSync(join(tmpdir(), 'almanac-test-'));
  const server = await startEmbeddedPostgres({ dataDir, database: TEMPLATE, persistent: false });
  (globalThis as { __ALMANAC_PG__?: unknown }).__ALMANAC_PG__ = server;

  await migrateDatabase(server.url, ALL_MIGRATIONS);

  // Nobody may stay connected to a template, or CREATE DATABASE … TEMPLATE fails.
  const admin = new Client({ connectionString: server.adminUrl });
  await admin.connect();
  await admin.query(`ALTER DATABASE ${TEMPLATE} WITH ALLOW_CONNECTIONS false`);
  await admin.end();

  let pooler: string | undefined;
  if (process.env[PGBOUNCER_ENV] === '1') {
    if (!pgBouncerAvailable()) throw new Error(`${PGBOUNCER_ENV}=1 but ${PGBOUNCER_BIN} does not run: install pgbouncer (npm run test:pgbouncer does)`);
    const bouncer = await startPgBouncer(server.adminUrl);
    (globalThis as { __ALMANAC_PGBOUNCER__?: unknown }).__ALMANAC_PGBOUNCER__ = bouncer;
    pooler = bouncer.address;
  }

  process.env[TEST_DB_ENV] = JSON.stringify({ adminUrl: server.adminUrl, templateDatabase: TEMPLATE, pooler });
  // One id per Jest run: suites that need the build (ensureBuilt in apps/api-e2e) run tsc once per run.
  process.env['ALMANAC_TEST_RUN_ID'] = randomUUID();
}
