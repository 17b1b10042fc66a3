import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * One table holds every time a schedule cannot give twice, whatever holds it: a PENDING or
 * CONFIRMED booking, an unexpired reservation (a slot hold), later a published event. Its exclusion
 * constraint is what makes any mix of concurrent writers race-free: of two that overlap, PostgreSQL
 * lets one commit.
 *
 * Rows are never written by the application directly: triggers keep them in step with their
 * source rows in the same transaction (bookings: every insert, status change, reschedule and
 * delete, imports and erasures included; reservations: insert and delete).
 *
 * A reservation's row may outlive its expiry: nothing can delete it at that instant. So before a
 * blocked time is written, the expired reservations it overlaps are deleted in the same statement
 * (the trigger), and readers skip rows with `expires_at` ≤ now. "Now" is the writer's clock as the
 * source row records it (`updated_at` of a booking, `created_at` of a reservation), never the
 * database server's, so expiry is exact to the application's clock.
 */
export class SchedulingBlockedTimes1764400000000 implements MigrationInterface {
  name = 'SchedulingBlockedTimes1764400000000';

  async up(runner: QueryRunner): Promise<void> {
    await runner.query(`
      CREATE TABLE schedule_blocked_times (
        organization_id uuid NOT NULL,
        schedule_id uuid NOT NULL,
        kind text NOT NULL CHECK (kind IN ('booking', 'reservation', 'event')),
        source_id uuid NOT NULL,
        during tstzrange NOT NULL CHECK (NOT isempty(during) AND NOT lower_inf(during) AND NOT upper_inf(during)),
        expires_at timestamptz,
        PRIMARY KEY (organization_id, kind, source_id),
        CONSTRAINT schedule_blocked_times_expiry CHECK ((kind = 'reservation') = (expires_at IS NOT NULL)),
        CONSTRAINT schedule_blocked_times_schedule_fkey FOREIGN KEY (organization_id, schedule_id)
          REFERENCES schedules (organization_id, id) ON DELETE CASCADE,
        CONSTRAINT schedule_blocked_times_no_overlap EXCLUDE USING gist (
          organization_id WITH =,
          schedule_id WITH =,
          during WITH &&
        ) INCLUDE (kind, source_id, expires_at)
      )`);

    await runner.query(`
      CREATE TABLE slot_reservations (
        id uuid NOT NULL,
        organization_id uuid NOT NULL,
        schedule_id uuid NOT NULL,
        event_type_id uuid NOT NULL,
        start_time timestamptz NOT NULL,
        end_time timestamptz NOT NULL,
        buffer_before integer NOT NULL CHECK (buffer_before BETWEEN 0 AND 720),
        buffer_after integer NOT NULL CHECK (buffer_after BETWEEN 0 AND 720),
        expires_at timestamptz NOT NULL,
        created_at timestamptz NOT NULL,
        PRIMARY KEY (organization_id, id),
        CONSTRAINT slot_reservations_time_order CHECK (end_time > start_time),
        CONSTRAINT slot_reservations_ttl CHECK (expires_at > created_at),
        CONSTRAINT slot_reservations_schedule_fkey FOREIGN KEY (organization_id, schedule_id)
          REFERENCES schedules (organization_id, id) ON DELETE CASCADE,
        CONSTRAINT slot_reservations_event_type_fkey FOREIGN KEY (organization_id, event_type_id)
          REFERENCES event_types (organization_id, id) ON DELETE CASCADE
      )`);
    // Limits count a schedule's (and a type's) unexpired reservations by start, as they count bookings.
    await runner.query(`
      CREATE INDEX slot_reservations_schedule_idx ON slot_reservations (organization_id, schedule_id, start_time)
        INCLUDE (end_time, event_type_id, expires_at)`);
    // The background sweep deletes expired reservations oldest first, a batch at a time.
    await runner.query('CREATE INDEX slot_reservations_expiry_idx ON slot_reservations (expires_at)');

    // What every source's trigger does, written once: `hold_schedule_time` writes (or moves) a
    // record's blocked time, first deleting the expired reservations it overlaps (see the class
    // comment; `now` is the writer's clock); `release_schedule_time` frees it.
    await runner.query(`
      CREATE FUNCTION hold_schedule_time(org uuid, schedule uuid, holder_kind text, holder uuid, blocked tstzrange,
                                         now timestamptz, expires timestamptz DEFAULT NULL)
      RETURNS void LANGUAGE sql AS $$
        DELETE FROM schedule_blocked_times b
         WHERE b.organization_id = org AND b.schedule_id = schedule AND b.during && blocked
           AND b.kind = 'reservation' AND b.expires_at <= now;
        INSERT INTO schedule_blocked_times AS b (organization_id, schedule_id, kind, source_id, during, expires_at)
        VALUES (org, schedule, holder_kind, holder, blocked, expires)
        ON CONFLICT (organization_id, kind, source_id) DO UPDATE
          SET schedule_id = EXCLUDED.schedule_id, during = EXCLUDED.during, expires_at = EXCLUDED.expires_at
          WHERE b.schedule_id <> EXCLUDED.schedule_id OR b.during <> EXCLUDED.during;
      $$`);
    await runner.query(`
      CREATE FUNCTION release_schedule_time(org uuid, holder_kind text, holder uuid)
      RETURNS void LANGUAGE sql AS $$
        DELETE FROM schedule_blocked_times WHERE organization_id = org AND kind = holder_kind AND source_id = holder;
      $$`);

    await runner.query(`
      CREATE FUNCTION bookings_keep_blocked_time() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        IF TG_OP <> 'DELETE' AND NEW.status IN ('PENDING', 'CONFIRMED') THEN
          PERFORM hold_schedule_time(NEW.organization_id, NEW.schedule_id, 'booking', NEW.id,
            booking_blocked_time(NEW.start_time, NEW.end_time, NEW.buffer_before, NEW.buffer_after), NEW.updated_at);
        ELSIF TG_OP <> 'INSERT' AND OLD.status IN ('PENDING', 'CONFIRMED') THEN
          PERFORM release_schedule_time(OLD.organization_id, 'booking', OLD.id);
        END IF;
        RETURN NULL;
      END $$`);
    await runner.query(`
      CREATE TRIGGER bookings_blocked_time
        AFTER INSERT OR DELETE OR UPDATE OF status, schedule_id, start_time, end_time, buffer_before, buffer_after
        ON bookings FOR EACH ROW EXECUTE FUNCTION bookings_keep_blocked_time()`);

    await runner.query(`
      CREATE FUNCTION slot_reservations_keep_blocked_time() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        IF TG_OP = 'DELETE' THEN
          PERFORM release_schedule_time(OLD.organization_id, 'reservation', OLD.id);
        ELSE
          PERFORM hold_schedule_time(NEW.organization_id, NEW.schedule_id, 'reservation', NEW.id,
            booking_blocked_time(NEW.start_time, NEW.end_time, NEW.buffer_before, NEW.buffer_after), NEW.created_at, NEW.expires_at);
        END IF;
        RETURN NULL;
      END $$`);
    await runner.query(`
      CREATE TRIGGER slot_reservations_blocked_time
        AFTER INSERT OR DELETE ON slot_reservations FOR EACH ROW EXECUTE FUNCTION slot_reservations_keep_blocked_time()`);

    // Today's bookings already hold their time without overlap (bookings_no_overlap), so this cannot fail.
    await runner.query(`
      INSERT INTO schedule_blocked_times (organization_id, schedule_id, kind, source_id, during)
      SELECT organization_id, schedule_id, 'booking', id, booking_blocked_time(start_time, end_time, buffer_before, buffer_after)
        FROM bookings WHERE status IN ('PENDING', 'CONFIRMED')`);
  }

  async down(runner: QueryRunner): Promise<void> {
    await runner.query('DROP TRIGGER slot_reservations_blocked_time ON slot_reservations');
    await runner.query('DROP TRIGGER bookings_blocked_time ON bookings');
    await runner.query('DROP FUNCTION slot_reservations_keep_blocked_time()');
    await runner.query('DROP FUNCTION bookings_keep_blocked_time()');
    await runner.query('DROP FUNCTION release_schedule_time(uuid, text, uuid)');
    await runner.query('DROP FUNCTION hold_schedule_time(uuid, uuid, text, uuid, tstzrange, timestamptz, timestamptz)');
    await runner.query('DROP TABLE slot_reservations');
    await runner.query('DROP TABLE schedule_blocked_times');
  }
}
