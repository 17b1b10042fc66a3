import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * A calendar feed shows the bookings of its window nearest to now, at most a cap, read by two ordered
 * scans of a schedule's bookings (by start, then id) whose ETag needs each one's version: the
 * schedule's index carries version and updated_at, so the poll that ends in 304 reads the index only,
 * and the window aggregate's own index (bookings_feed_idx) has no further use.
 */
export class FeedNearestBookings1764300000800 implements MigrationInterface {
  name = 'FeedNearestBookings1764300000800';

  async up(runner: QueryRunner): Promise<void> {
    await runner.query(
      'CREATE INDEX bookings_schedule_feed_idx ON bookings (organization_id, schedule_id, start_time, id) INCLUDE (version, updated_at)',
    );
    await runner.query('DROP INDEX bookings_schedule_idx');
    await runner.query('ALTER INDEX bookings_schedule_feed_idx RENAME TO bookings_schedule_idx');
    await runner.query('DROP INDEX bookings_feed_idx');
  }

  async down(runner: QueryRunner): Promise<void> {
    await runner.query(
      'CREATE INDEX bookings_feed_idx ON bookings (organization_id, schedule_id, start_time) INCLUDE (version, updated_at)',
    );
    await runner.query('CREATE INDEX bookings_schedule_plain_idx ON bookings (organization_id, schedule_id, start_time, id)');
    await runner.query('DROP INDEX bookings_schedule_idx');
    await runner.query('ALTER INDEX bookings_schedule_plain_idx RENAME TO bookings_schedule_idx');
  }
}
