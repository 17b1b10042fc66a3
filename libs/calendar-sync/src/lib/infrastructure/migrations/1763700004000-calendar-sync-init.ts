import { MigrationInterface, QueryRunner } from 'typeorm';

export class CalendarSyncInit1763700004000 implements MigrationInterface {
  name = 'CalendarSyncInit1763700004000';

  async up(runner: QueryRunner): Promise<void> {
    // One integration per organization; the feed URL is a secret and never leaves the service unmasked.
    await runner.query(`
      CREATE TABLE calendar_integrations (
        id uuid PRIMARY KEY,
        organization_id uuid NOT NULL REFERENCES organizations(id) ON DELETE CASCADE,
        provider text NOT NULL CHECK (provider IN ('ics')),
        url text NOT NULL,
        schedule_id uuid NOT NULL,
        name text NOT NULL,
        created_at timestamptz NOT NULL,
        updated_at timestamptz NOT NULL,
        last_synced_at timestamptz,
        CONSTRAINT calendar_integrations_organization_key UNIQUE (organization_id)
      )`);
  }

  async down(runner: QueryRunner): Promise<void> {
    await runner.query('DROP TABLE calendar_integrations');
  }
}
