import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The import's history (shown in the admin console): one row per run that got past the per-organization lock,
 * written by the import itself (in its own transaction when it succeeds, right after the rollback when
 * it fails). Keyed (organization_id, id) like every tenant table.
 */
export class CalendarSyncs1764080000000 implements MigrationInterface {
  name = 'CalendarSyncs1764080000000';

  async up(runner: QueryRunner): Promise<void> {
    await runner.query(`
      CREATE TABLE calendar_syncs (
        organization_id uuid NOT NULL REFERENCES organizations(id) ON DELETE CASCADE,
        id uuid NOT NULL,
        started_at timestamptz NOT NULL,
        finished_at timestamptz NOT NULL,
        start_date timestamptz NOT NULL,
        end_date timestamptz NOT NULL,
        status text NOT NULL CHECK (status IN ('succeeded', 'failed')),
        summary jsonb,
        error_code text,
        error_message text,
        PRIMARY KEY (organization_id, id),
        CHECK ((status = 'succeeded') = (summary IS NOT NULL)),
        CHECK ((status = 'failed') = (error_code IS NOT NULL))
      )`);
    await runner.query('CREATE INDEX calendar_syncs_recent ON calendar_syncs (organization_id, started_at DESC, id DESC)');
  }

  async down(runner: QueryRunner): Promise<void> {
    await runner.query('DROP TABLE calendar_syncs');
  }
}
