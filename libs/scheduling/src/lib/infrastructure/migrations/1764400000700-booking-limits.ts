import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Limits over periods: an event type's bookings per week and per month and booked minutes per day
 * and per week, and a schedule's bookings per day and per week and booked minutes per day and per
 * week, each null when there is none. Checking one counts the schedule's PENDING/CONFIRMED bookings
 * starting in a day, a week or a month: a partial index on (schedule, start) carrying the end and the
 * event type answers that count from the index alone, however many bookings the schedule has.
 */
export class SchedulingBookingLimits1764400000700 implements MigrationInterface {
  name = 'SchedulingBookingLimits1764400000700';

  async up(runner: QueryRunner): Promise<void> {
    await runner.query(`
      ALTER TABLE event_types
        ADD COLUMN max_bookings_per_week integer CHECK (max_bookings_per_week BETWEEN 1 AND 10000),
        ADD COLUMN max_bookings_per_month integer CHECK (max_bookings_per_month BETWEEN 1 AND 10000),
        ADD COLUMN max_booked_minutes_per_day integer CHECK (max_booked_minutes_per_day BETWEEN 1 AND 100000),
        ADD COLUMN max_booked_minutes_per_week integer CHECK (max_booked_minutes_per_week BETWEEN 1 AND 100000)`);
    await runner.query(`
      ALTER TABLE schedules
        ADD COLUMN max_bookings_per_day integer CHECK (max_bookings_per_day BETWEEN 1 AND 10000),
        ADD COLUMN max_bookings_per_week integer CHECK (max_bookings_per_week BETWEEN 1 AND 10000),
        ADD COLUMN max_booked_minutes_per_day integer CHECK (max_booked_minutes_per_day BETWEEN 1 AND 100000),
        ADD COLUMN max_booked_minutes_per_week integer CHECK (max_booked_minutes_per_week BETWEEN 1 AND 100000)`);
    await runner.query(`
      CREATE INDEX bookings_limits_idx ON bookings (organization_id, schedule_id, start_time)
        INCLUDE (end_time, event_type_id, id) WHERE status IN ('PENDING', 'CONFIRMED')`);
  }

  async down(runner: QueryRunner): Promise<void> {
    await runner.query('DROP INDEX bookings_limits_idx');
    await runner.query(`
      ALTER TABLE schedules DROP COLUMN max_bookings_per_day, DROP COLUMN max_bookings_per_week,
        DROP COLUMN max_booked_minutes_per_day, DROP COLUMN max_booked_minutes_per_week`);
    await runner.query(`
      ALTER TABLE event_types DROP COLUMN max_bookings_per_week, DROP COLUMN max_bookings_per_month,
        DROP COLUMN max_booked_minutes_per_day, DROP COLUMN max_booked_minutes_per_week`);
  }
}
