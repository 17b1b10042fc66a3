import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Attendee self-service (docs/contract/scheduling.md): each event type's policy (may the attendee
 * cancel or reschedule, and until how long before the start), and on bookings the hash of their
 * manage token, the reason given for a cancellation and who cancelled.
 *
 * `cancelled_by` is kept by a trigger, so no write path can forget it: a booking that becomes
 * CANCELLED without saying who did it was cancelled by an import (`cancelled_by_sync`) or through the
 * API; a booking that is not CANCELLED (an import brings one back) has neither who nor why. Only the
 * attendee's own cancellation names itself.
 */
export class SchedulingBookingSelfService1764400000500 implements MigrationInterface {
  name = 'SchedulingBookingSelfService1764400000500';

  async up(runner: QueryRunner): Promise<void> {
    await runner.query(`
      ALTER TABLE event_types
        ADD COLUMN attendee_can_cancel boolean NOT NULL DEFAULT true,
        ADD COLUMN attendee_can_reschedule boolean NOT NULL DEFAULT true,
        ADD COLUMN cancel_notice_minutes integer NOT NULL DEFAULT 0
          CONSTRAINT event_types_cancel_notice_range CHECK (cancel_notice_minutes BETWEEN 0 AND 525600),
        ADD COLUMN reschedule_notice_minutes integer NOT NULL DEFAULT 0
          CONSTRAINT event_types_reschedule_notice_range CHECK (reschedule_notice_minutes BETWEEN 0 AND 525600)`);
    await runner.query(`
      ALTER TABLE bookings
        ADD COLUMN manage_token_hash text,
        ADD COLUMN cancellation_reason text
          CONSTRAINT bookings_cancellation_reason_length CHECK (char_length(cancellation_reason) <= 500),
        ADD COLUMN cancelled_by text
          CONSTRAINT bookings_cancelled_by_values CHECK (cancelled_by IN ('attendee', 'api', 'import'))`);
    await runner.query(`
      UPDATE bookings SET cancelled_by = CASE WHEN cancelled_by_sync THEN 'import' ELSE 'api' END
       WHERE status = 'CANCELLED'`);
    await runner.query(`
      ALTER TABLE bookings
        ADD CONSTRAINT bookings_cancelled_by_when_cancelled
          CHECK ((status = 'CANCELLED') = (cancelled_by IS NOT NULL)),
        ADD CONSTRAINT bookings_cancellation_reason_when_cancelled
          CHECK (cancellation_reason IS NULL OR status = 'CANCELLED')`);
    await runner.query(`
      CREATE FUNCTION bookings_cancelled_by() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        IF NEW.status = 'CANCELLED' THEN
          IF NEW.cancelled_by IS NULL THEN
            NEW.cancelled_by := CASE WHEN NEW.cancelled_by_sync THEN 'import' ELSE 'api' END;
          END IF;
        ELSE
          NEW.cancelled_by := NULL;
          NEW.cancellation_reason := NULL;
        END IF;
        RETURN NEW;
      END
      $$`);
    await runner.query(
      'CREATE TRIGGER bookings_cancelled_by BEFORE INSERT OR UPDATE ON bookings FOR EACH ROW EXECUTE FUNCTION bookings_cancelled_by()',
    );
    // Opened by its token alone. Not a unique index: on Citus bookings are distributed by
    // organization, and a 190-bit random token does not collide.
    await runner.query('CREATE INDEX bookings_manage_token_idx ON bookings (manage_token_hash) WHERE manage_token_hash IS NOT NULL');
  }

  async down(runner: QueryRunner): Promise<void> {
    await runner.query('DROP INDEX bookings_manage_token_idx');
    await runner.query('DROP TRIGGER bookings_cancelled_by ON bookings');
    await runner.query('DROP FUNCTION bookings_cancelled_by()');
    await runner.query(`
      ALTER TABLE bookings
        DROP CONSTRAINT bookings_cancellation_reason_when_cancelled,
        DROP CONSTRAINT bookings_cancelled_by_when_cancelled,
        DROP COLUMN cancelled_by,
        DROP COLUMN cancellation_reason,
        DROP COLUMN manage_token_hash`);
    await runner.query(`
      ALTER TABLE event_types
        DROP COLUMN reschedule_notice_minutes,
        DROP COLUMN cancel_notice_minutes,
        DROP COLUMN attendee_can_reschedule,
        DROP COLUMN attendee_can_cancel`);
  }
}
