import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The waiting list (docs/contract/events.md): `events.waitlist_enabled`, registrations that are
 * `waitlisted`, and `events.waitlist_count` kept by the same trigger as `registration_count`. One
 * person is active or waiting, never both; the queue is read in (created_at, id) order.
 */
export class EventsWaitlist1764060000000 implements MigrationInterface {
  name = 'EventsWaitlist1764060000000';

  async up(runner: QueryRunner): Promise<void> {
    await runner.query('ALTER TABLE events ADD COLUMN waitlist_enabled boolean NOT NULL DEFAULT false');
    await runner.query('ALTER TABLE events ADD COLUMN waitlist_count integer NOT NULL DEFAULT 0 CHECK (waitlist_count >= 0)');
    await runner.query('ALTER TABLE event_registrations DROP CONSTRAINT event_registrations_status_check');
    await runner.query(`ALTER TABLE event_registrations ADD CONSTRAINT event_registrations_status_check CHECK (status IN ('active', 'cancelled', 'waitlisted'))`);
    await runner.query('DROP INDEX event_registrations_active_email_key');
    await runner.query(`
      CREATE UNIQUE INDEX event_registrations_active_email_key
        ON event_registrations (organization_id, event_id, lower(email)) WHERE status IN ('active', 'waitlisted')`);
    await runner.query(`
      CREATE INDEX event_registrations_waitlist_idx
        ON event_registrations (organization_id, event_id, created_at, id) WHERE status = 'waitlisted'`);
    await runner.query(`
      CREATE OR REPLACE FUNCTION event_registrations_count() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        IF TG_OP IN ('UPDATE', 'DELETE') AND OLD.status = 'active' THEN
          UPDATE events SET registration_count = registration_count - 1 WHERE organization_id = OLD.organization_id AND id = OLD.event_id;
        END IF;
        IF TG_OP IN ('UPDATE', 'DELETE') AND OLD.status = 'waitlisted' THEN
          UPDATE events SET waitlist_count = waitlist_count - 1 WHERE organization_id = OLD.organization_id AND id = OLD.event_id;
        END IF;
        IF TG_OP IN ('INSERT', 'UPDATE') AND NEW.status = 'active' THEN
          UPDATE events SET registration_count = registration_count + 1 WHERE organization_id = NEW.organization_id AND id = NEW.event_id;
        END IF;
        IF TG_OP IN ('INSERT', 'UPDATE') AND NEW.status = 'waitlisted' THEN
          UPDATE events SET waitlist_count = waitlist_count + 1 WHERE organization_id = NEW.organization_id AND id = NEW.event_id;
        END IF;
        RETURN NULL;
      END
      $$`);
  }

  async down(runner: QueryRunner): Promise<void> {
    await runner.query(`DELETE FROM event_registrations WHERE status = 'waitlisted'`);
    await runner.query('DROP INDEX event_registrations_waitlist_idx');
    await runner.query('ALTER TABLE events DROP COLUMN waitlist_enabled, DROP COLUMN waitlist_count');
  }
}
