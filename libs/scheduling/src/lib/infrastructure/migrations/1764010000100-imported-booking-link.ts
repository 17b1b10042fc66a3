import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The link between a booking and the feed occurrence it was imported from moves out of the
 * client-writable `metadata` into columns only the server writes: an API client can no longer make a
 * sync cancel or take over its own booking, and PATCHing metadata no longer detaches an imported one.
 * Existing imported bookings keep their link (read from metadata once, here).
 */
export class ImportedBookingLink1764010000100 implements MigrationInterface {
  name = 'ImportedBookingLink1764010000100';

  async up(runner: QueryRunner): Promise<void> {
    await runner.query(
      'ALTER TABLE bookings ADD COLUMN external_uid text, ADD COLUMN external_recurrence_id text',
    );
    await runner.query(`
      UPDATE bookings
         SET external_uid = metadata->>'external_uid', external_recurrence_id = metadata->>'recurrence_id'
       WHERE metadata->>'source' = 'external_calendar' AND metadata->>'external_uid' IS NOT NULL`);
    await runner.query('DROP INDEX IF EXISTS bookings_external_uid_idx');
    await runner.query(
      'CREATE INDEX bookings_external_uid_idx ON bookings (organization_id, schedule_id, external_uid) WHERE external_uid IS NOT NULL',
    );
  }

  async down(runner: QueryRunner): Promise<void> {
    await runner.query('DROP INDEX bookings_external_uid_idx');
    await runner.query('ALTER TABLE bookings DROP COLUMN external_uid, DROP COLUMN external_recurrence_id');
    await runner.query(`
      CREATE INDEX bookings_external_uid_idx ON bookings (organization_id, schedule_id, (metadata->>'external_uid'))
        WHERE metadata->>'source' = 'external_calendar'`);
  }
}
