import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * An event may take place on a schedule (its host's): `schedule_id`, of the same organization (the
 * foreign key includes it), unlinked when the schedule is deleted. While published, such an event
 * holds that schedule's time; scheduling keeps the hold (see SchedulingEventsHoldTime).
 *
 * `schedule_events` is the read model events declare for scheduling: the published events on a
 * schedule, as a schedule's calendar feed lists them.
 */
export class EventsSchedule1764400000200 implements MigrationInterface {
  name = 'EventsSchedule1764400000200';

  async up(runner: QueryRunner): Promise<void> {
    await runner.query(`
      ALTER TABLE events
        ADD COLUMN schedule_id uuid,
        ADD CONSTRAINT events_schedule_fkey FOREIGN KEY (organization_id, schedule_id)
          REFERENCES schedules (organization_id, id) ON DELETE SET NULL (schedule_id)`);
    await runner.query(
      'CREATE INDEX events_schedule_idx ON events (organization_id, schedule_id, starts_at) WHERE schedule_id IS NOT NULL',
    );
    await runner.query(`
      CREATE VIEW schedule_events AS
        SELECT organization_id, schedule_id, id, title, starts_at, ends_at, created_at, updated_at
          FROM events WHERE status = 'published' AND schedule_id IS NOT NULL`);
  }

  async down(runner: QueryRunner): Promise<void> {
    await runner.query('DROP VIEW schedule_events');
    await runner.query('ALTER TABLE events DROP COLUMN schedule_id');
  }
}
