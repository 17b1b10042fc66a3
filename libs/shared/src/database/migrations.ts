import { DataSource, MigrationInterface } from 'typeorm';

export type MigrationClass = new () => MigrationInterface;

/** The table that records applied migrations. */
export const MIGRATIONS_TABLE = 'schema_migrations';

/** Any fixed 64-bit number: all instances of the service agree on it. */
const MIGRATION_LOCK_KEY = 7_245_318_902;

/**
 * Runs pending migrations while holding a PostgreSQL advisory lock, so that many instances starting
 * at once apply each migration exactly once; the others wait, then find nothing to do.
 */
export async function runMigrationsLocked(dataSource: DataSource): Promise<string[]> {
  const runner = dataSource.createQueryRunner();
  await runner.connect();
  try {
    await runner.query('SELECT pg_advisory_lock($1)', [MIGRATION_LOCK_KEY]);
    try {
      const applied = await dataSource.runMigrations({ transaction: 'each' });
      return applied.map((migration) => migration.name);
    } finally {
      await runner.query('SELECT pg_advisory_unlock($1)', [MIGRATION_LOCK_KEY]);
    }
  } finally {
    await runner.release();
  }
}

/**
 * Applies the pending migrations to the database at `url` (under the advisory lock of
 * `runMigrationsLocked`) on a connection of its own, closed afterwards; returns the names applied.
 */
export async function migrateDatabase(url: string, migrations: MigrationClass[]): Promise<string[]> {
  const dataSource = new DataSource({ type: 'postgres', url, migrations, migrationsTableName: MIGRATIONS_TABLE, logging: false });
  await dataSource.initialize();
  try {
    return await runMigrationsLocked(dataSource);
  } finally {
    await dataSource.destroy();
  }
}
