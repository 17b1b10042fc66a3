import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Availability and slots (docs/contract/scheduling.md): schedules' weekly rules and date overrides, event
 * types' booking rules, and bookings' buffers. The no-overlap rule moves to the blocked time
 * `[start_time − buffer_before, end_time + buffer_after)`; existing bookings get zero buffers, so
 * their blocked time is their time and nothing they hold changes.
 */
export class SchedulingAvailability1764150001500 implements MigrationInterface {
  name = 'SchedulingAvailability1764150001500';

  async up(runner: QueryRunner): Promise<void> {
    await runner.query(`
      ALTER TABLE schedules
        ADD COLUMN availability jsonb CHECK (availability IS NULL OR jsonb_typeof(availability) = 'array'),
        ADD COLUMN date_overrides jsonb NOT NULL DEFAULT '[]'::jsonb CHECK (jsonb_typeof(date_overrides) = 'array')`);
    await runner.query(`
      ALTER TABLE event_types
        ADD COLUMN buffer_before integer NOT NULL DEFAULT 0 CHECK (buffer_before BETWEEN 0 AND 720),
        ADD COLUMN buffer_after integer NOT NULL DEFAULT 0 CHECK (buffer_after BETWEEN 0 AND 720),
        ADD COLUMN minimum_notice integer NOT NULL DEFAULT 0 CHECK (minimum_notice BETWEEN 0 AND 525600),
        ADD COLUMN slot_interval integer CHECK (slot_interval BETWEEN 5 AND 1440),
        ADD COLUMN booking_window_days integer CHECK (booking_window_days BETWEEN 1 AND 3650),
        ADD COLUMN max_bookings_per_day integer CHECK (max_bookings_per_day BETWEEN 1 AND 1000)`);
    await runner.query(`
      ALTER TABLE bookings
        ADD COLUMN buffer_before integer NOT NULL DEFAULT 0 CHECK (buffer_before BETWEEN 0 AND 720),
        ADD COLUMN buffer_after integer NOT NULL DEFAULT 0 CHECK (buffer_after BETWEEN 0 AND 720)`);
    // timestamptz ± interval is only STABLE in general (days and months depend on the time zone);
    // with minutes alone it is a fixed duration, so this wrapper is truly immutable and may be indexed.
    await runner.query(`
      CREATE FUNCTION booking_blocked_time(start_time timestamptz, end_time timestamptz, buffer_before integer, buffer_after integer)
      RETURNS tstzrange LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
        SELECT tstzrange(start_time - make_interval(mins => buffer_before), end_time + make_interval(mins => buffer_after), '[)')
      $$`);
    await runner.query('ALTER TABLE bookings DROP CONSTRAINT bookings_no_overlap');
    await runner.query(`
      ALTER TABLE bookings ADD CONSTRAINT bookings_no_overlap EXCLUDE USING gist (
        organization_id WITH =,
        schedule_id WITH =,
        booking_blocked_time(start_time, end_time, buffer_before, buffer_after) WITH &&
      ) WHERE (status IN ('PENDING', 'CONFIRMED'))`);
  }

  async down(runner: QueryRunner): Promise<void> {
    await runner.query('ALTER TABLE bookings DROP CONSTRAINT bookings_no_overlap');
    await runner.query(`
      ALTER TABLE bookings ADD CONSTRAINT bookings_no_overlap EXCLUDE USING gist (
        organization_id WITH =,
        schedule_id WITH =,
        tstzrange(start_time, end_time, '[)') WITH &&
      ) WHERE (status IN ('PENDING', 'CONFIRMED'))`);
    await runner.query('DROP FUNCTION booking_blocked_time(timestamptz, timestamptz, integer, integer)');
    await runner.query('ALTER TABLE bookings DROP COLUMN buffer_before, DROP COLUMN buffer_after');
    await runner.query(`
      ALTER TABLE event_types DROP COLUMN buffer_before, DROP COLUMN buffer_after, DROP COLUMN minimum_notice,
        DROP COLUMN slot_interval, DROP COLUMN booking_window_days, DROP COLUMN max_bookings_per_day`);
    await runner.query('ALTER TABLE schedules DROP COLUMN availability, DROP COLUMN date_overrides');
  }
}
