import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Calendar feeds out (docs/contract/scheduling.md): one secret feed address per schedule (only the token's
 * SHA-256 is kept), and a `version` on bookings that every update bumps (a trigger, so no write path
 * can forget it): the feed's SEQUENCE.
 */
export class CalendarFeeds1764050000000 implements MigrationInterface {
  name = 'CalendarFeeds1764050000000';

  async up(runner: QueryRunner): Promise<void> {
    await runner.query('ALTER TABLE bookings ADD COLUMN version integer NOT NULL DEFAULT 0');
    await runner.query(`
      CREATE FUNCTION bookings_bump_version() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        NEW.version := OLD.version + 1;
        RETURN NEW;
      END
      $$`);
    await runner.query(
      'CREATE TRIGGER bookings_bump_version BEFORE UPDATE ON bookings FOR EACH ROW EXECUTE FUNCTION bookings_bump_version()',
    );
    // The feed's ETag is an aggregate over its window: answered from the index alone.
    await runner.query(
      'CREATE INDEX bookings_feed_idx ON bookings (organization_id, schedule_id, start_time) INCLUDE (version, updated_at)',
    );
    await runner.query(`
      CREATE TABLE calendar_feeds (
        organization_id uuid NOT NULL,
        schedule_id uuid NOT NULL,
        token_hash text NOT NULL,
        created_at timestamptz NOT NULL,
        last_fetched_at timestamptz,
        PRIMARY KEY (organization_id, schedule_id),
        FOREIGN KEY (organization_id, schedule_id) REFERENCES schedules (organization_id, id) ON DELETE CASCADE
      )`);
    // Looked up by token alone. Not a unique index: on Citus this table is distributed by organization,
    // and a 190-bit random token does not collide.
    await runner.query('CREATE INDEX calendar_feeds_token_idx ON calendar_feeds (token_hash)');
  }

  async down(runner: QueryRunner): Promise<void> {
    await runner.query('DROP TABLE calendar_feeds');
    await runner.query('DROP TRIGGER bookings_bump_version ON bookings');
    await runner.query('DROP FUNCTION bookings_bump_version()');
    await runner.query('ALTER TABLE bookings DROP COLUMN version');
  }
}
