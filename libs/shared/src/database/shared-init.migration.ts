import { MigrationInterface, QueryRunner } from 'typeorm';

/** Extensions the contexts rely on; created once, before any context's tables. */
export class SharedInit1763700000000 implements MigrationInterface {
  name = 'SharedInit1763700000000';

  async up(runner: QueryRunner): Promise<void> {
    await runner.query('CREATE EXTENSION IF NOT EXISTS btree_gist');
    await runner.query('CREATE EXTENSION IF NOT EXISTS pg_trgm');
    await runner.query('CREATE EXTENSION IF NOT EXISTS unaccent');
  }

  async down(): Promise<void> {
    // Extensions may be shared with other schemas: leave them.
  }
}
