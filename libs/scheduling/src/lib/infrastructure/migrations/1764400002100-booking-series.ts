import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Recurring bookings (docs/contract/scheduling.md): a series row keeps how the series repeats, and
 * each of its bookings names it. Both belong to the schedule: deleting the schedule deletes them.
 */
export class BookingSeries1764400002100 implements MigrationInterface {
  name = 'BookingSeries1764400002100';

  async up(runner: QueryRunner): Promise<void> {
    await runner.query(`
      CREATE TABLE booking_series (
        organization_id uuid NOT NULL,
        id uuid NOT NULL,
        schedule_id uuid NOT NULL,
        frequency text NOT NULL CHECK (frequency IN ('daily', 'weekly', 'monthly')),
        "interval" integer NOT NULL CHECK ("interval" BETWEEN 1 AND 12),
        count integer NOT NULL CHECK (count BETWEEN 2 AND 52),
        created_at timestamptz NOT NULL,
        PRIMARY KEY (organization_id, id),
        CONSTRAINT booking_series_schedule_fkey FOREIGN KEY (organization_id, schedule_id)
          REFERENCES schedules (organization_id, id) ON DELETE CASCADE
      )`);
    // The schedule's cascade.
    await runner.query('CREATE INDEX booking_series_schedule_idx ON booking_series (organization_id, schedule_id)');
    await runner.query('ALTER TABLE bookings ADD COLUMN series_id uuid');
    await runner.query(`
      ALTER TABLE bookings ADD CONSTRAINT bookings_series_fkey FOREIGN KEY (organization_id, series_id)
        REFERENCES booking_series (organization_id, id) ON DELETE CASCADE`);
    // A series' occurrences by start (its GET, its cancellation, the series_id list filter).
    await runner.query(
      'CREATE INDEX bookings_series_idx ON bookings (organization_id, series_id, start_time, id) WHERE series_id IS NOT NULL',
    );
  }

  async down(runner: QueryRunner): Promise<void> {
    await runner.query('ALTER TABLE bookings DROP COLUMN series_id');
    await runner.query('DROP TABLE booking_series');
  }
}
