import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * A published event on a schedule holds that schedule's time, from its start to its end (a day-long
 * event: the whole local day in its zone, as `starts_at`/`ends_at` say), exactly like a booking:
 * a row of `schedule_blocked_times` of kind `event`, kept in step by a trigger on events, so that
 * publishing over a booking or a reservation and booking over a published event exclude each other
 * in the database. Drafts and cancelled events hold nothing.
 *
 * `schedule_holds` is the read model scheduling declares for the others: what holds a schedule's
 * time, with each record's own times (a booking's and a reservation's without their buffers).
 */
export class SchedulingEventsHoldTime1764400000300 implements MigrationInterface {
  name = 'SchedulingEventsHoldTime1764400000300';

  async up(runner: QueryRunner): Promise<void> {
    await runner.query(`
      CREATE FUNCTION events_keep_blocked_time() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        IF TG_OP <> 'DELETE' AND NEW.status = 'published' AND NEW.schedule_id IS NOT NULL THEN
          PERFORM hold_schedule_time(NEW.organization_id, NEW.schedule_id, 'event', NEW.id,
            tstzrange(NEW.starts_at, NEW.ends_at, '[)'), NEW.updated_at);
        ELSIF TG_OP <> 'INSERT' AND OLD.status = 'published' AND OLD.schedule_id IS NOT NULL THEN
          PERFORM release_schedule_time(OLD.organization_id, 'event', OLD.id);
        END IF;
        RETURN NULL;
      END $$`);
    await runner.query(`
      CREATE TRIGGER events_blocked_time
        AFTER INSERT OR DELETE OR UPDATE OF status, schedule_id, starts_at, ends_at
        ON events FOR EACH ROW EXECUTE FUNCTION events_keep_blocked_time()`);
    // Events published on a schedule before this migration hold their time from now on.
    await runner.query(`
      INSERT INTO schedule_blocked_times (organization_id, schedule_id, kind, source_id, during)
      SELECT organization_id, schedule_id, 'event', id, tstzrange(starts_at, ends_at, '[)')
        FROM events WHERE status = 'published' AND schedule_id IS NOT NULL`);
    await runner.query(`
      CREATE VIEW schedule_holds AS
        SELECT b.organization_id, b.schedule_id, b.kind, b.source_id AS id, b.during, b.expires_at,
               coalesce(k.start_time, r.start_time, lower(b.during)) AS start_time,
               coalesce(k.end_time, r.end_time, upper(b.during)) AS end_time
          FROM schedule_blocked_times b
          LEFT JOIN bookings k ON b.kind = 'booking' AND k.organization_id = b.organization_id AND k.id = b.source_id
          LEFT JOIN slot_reservations r
            ON b.kind = 'reservation' AND r.organization_id = b.organization_id AND r.id = b.source_id`);
  }

  async down(runner: QueryRunner): Promise<void> {
    await runner.query('DROP VIEW schedule_holds');
    await runner.query('DROP TRIGGER events_blocked_time ON events');
    await runner.query('DROP FUNCTION events_keep_blocked_time()');
    await runner.query("DELETE FROM schedule_blocked_times WHERE kind = 'event'");
  }
}
