import { DataSource, MigrationExecutor, MigrationInterface } from 'typeorm';

export type MigrationClass = new () => MigrationInterface;

/** The table that records applied migrations. */
export const MIGRATIONS_TABLE = 'schema_migrations';

/** Any fixed 64-bit number: all instances of the service agree on it. */
const MIGRATION_LOCK_KEY = 7_245_318_902;

/**
 * Runs the pending migrations in one transaction that first takes a transaction-scoped advisory
 * lock, so that many instances starting at once apply each migration exactly once: the others wait
 * for the lock, then find nothing to do. The lock, the schema changes and their rows in
 * `schema_migrations` live and end with that one transaction, so this also works through a pooler in
 * transaction mode (PgBouncer), where a session-level lock could be taken on one server connection
 * and released on another (or never). All pending migrations commit together, or none does.
 */
export async function runMigrationsLocked(dataSource: DataSource): Promise<string[]> {
  const runner = dataSource.createQueryRunner();
  await runner.connect();
  try {
    await runner.startTransaction();
    try {
      await runner.query('SELECT pg_advisory_xact_lock($1)', [MIGRATION_LOCK_KEY]);
      // Given a runner already in a transaction, the executor runs every migration in it.
      const executor = new MigrationExecutor(dataSource, runner);
      executor.transaction = 'all';
      const applied = await executor.executePendingMigrations();
      await runner.commitTransaction();
      return applied.map((migration) => migration.name);
    } catch (error) {
      // The failure to report is the migration's, even when the connection is gone and the rollback fails too.
      await runner.rollbackTransaction().catch(() => undefined);
      throw error;
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
