import { randomBytes } from 'node:crypto';
import { Client } from 'pg';

/** Written by the Jest global setup: where the test PostgreSQL runs and which database is the template. */
export interface TestDatabaseEnv {
  adminUrl: string;
  templateDatabase: string;
  /**
   * `host:port` of a connection pooler (PgBouncer in transaction mode) in front of the server, when
   * the run goes through one (`ALMANAC_TEST_PGBOUNCER=1`): the apps under test then reach their
   * databases through it, while creating and dropping databases stays on the server itself.
   */
  pooler?: string;
}

export const TEST_DB_ENV = 'ALMANAC_TEST_DB';

export function readTestDatabaseEnv(): TestDatabaseEnv {
  const raw = process.env[TEST_DB_ENV];
  if (!raw) throw new Error(`${TEST_DB_ENV} is not set: run the tests through Jest (global setup starts PostgreSQL)`);
  return JSON.parse(raw) as TestDatabaseEnv;
}

function withDatabase(url: string, database: string): string {
  const parsed = new URL(url);
  parsed.pathname = `/${database}`;
  return parsed.toString();
}

/**
 * The URL an app under test uses for `database` on the test server: through the pooler when the run
 * has one, else straight to the server.
 */
export function testDatabaseUrl(database: string): string {
  const env = readTestDatabaseEnv();
  const url = new URL(withDatabase(env.adminUrl, database));
  if (env.pooler) url.host = env.pooler;
  return url.toString();
}

/**
 * A fresh database for one test file, cloned from the migrated template (a file copy, a few ms),
 * so test files run in parallel without sharing rows.
 */
export async function createTestDatabase(): Promise<{ url: string; name: string; drop(): Promise<void> }> {
  const env = readTestDatabaseEnv();
  const name = `test_${randomBytes(6).toString('hex')}`;
  const admin = new Client({ connectionString: env.adminUrl });
  await admin.connect();
  try {
    await admin.query(`CREATE DATABASE "${name}" TEMPLATE "${env.templateDatabase}"`);
  } finally {
    await admin.end();
  }
  return {
    name,
    url: testDatabaseUrl(name),
    drop: async () => {
      const client = new Client({ connectionString: env.adminUrl });
      await client.connect();
      try {
        await client.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
      } finally {
        await client.end();
      }
    },
  };
}
