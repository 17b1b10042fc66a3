import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Issue 13: (1) an integration's schedule is a real reference, `(organization_id, schedule_id)` →
 * `schedules (organization_id, id)`, co-located like every other composite key. Deleting the schedule
 * deletes the integration with it (ON DELETE CASCADE, as its bookings and calendar feed go): the
 * schedule's delete keeps working, and an integration is never left pointing at nothing. Integrations
 * already pointing at nothing are removed first, as the key would have done.
 * (2) The import's claim (`import_claim`, `import_claimed_until`): one statement marks a run as started
 * before the feed is fetched, so a second run for the organization is refused (409) without any
 * connection or lock held during the fetch; a claim whose time is up counts as abandoned.
 */
export class CalendarIntegrationScheduleAndClaim1764160000000 implements MigrationInterface {
  name = 'CalendarIntegrationScheduleAndClaim1764160000000';

  async up(runner: QueryRunner): Promise<void> {
    await runner.query(`
      DELETE FROM calendar_integrations i
       WHERE NOT EXISTS (SELECT 1 FROM schedules s WHERE s.organization_id = i.organization_id AND s.id = i.schedule_id)`);
    await runner.query(`
      ALTER TABLE calendar_integrations
        ADD CONSTRAINT calendar_integrations_schedule_fkey FOREIGN KEY (organization_id, schedule_id)
          REFERENCES schedules (organization_id, id) ON DELETE CASCADE`);
    await runner.query('CREATE INDEX calendar_integrations_schedule ON calendar_integrations (organization_id, schedule_id)');
    await runner.query(`
      ALTER TABLE calendar_integrations
        ADD COLUMN import_claim uuid,
        ADD COLUMN import_claimed_until timestamptz,
        ADD CONSTRAINT calendar_integrations_import_claim_check CHECK ((import_claim IS NULL) = (import_claimed_until IS NULL))`);
  }

  async down(runner: QueryRunner): Promise<void> {
    await runner.query(`
      ALTER TABLE calendar_integrations
        DROP CONSTRAINT calendar_integrations_import_claim_check,
        DROP COLUMN import_claimed_until,
        DROP COLUMN import_claim`);
    await runner.query('DROP INDEX calendar_integrations_schedule');
    await runner.query('ALTER TABLE calendar_integrations DROP CONSTRAINT calendar_integrations_schedule_fkey');
  }
}
