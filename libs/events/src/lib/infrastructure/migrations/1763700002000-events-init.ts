import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Events and their registrations. Capacity is guarded by the database: `registration_count` is kept
 * by a trigger on every change of an active registration, and a CHECK keeps it within `slots`, so no
 * write path (and no race) can oversell an event or lower its slots below the active registrations.
 */
export class EventsInit1763700002000 implements MigrationInterface {
  name = 'EventsInit1763700002000';

  async up(runner: QueryRunner): Promise<void> {
    await runner.query(`
      CREATE TABLE events (
        id uuid PRIMARY KEY,
        organization_id uuid NOT NULL REFERENCES organizations(id) ON DELETE CASCADE,
        site_id text CHECK (char_length(site_id) BETWEEN 1 AND 200),
        title text NOT NULL CHECK (char_length(title) BETWEEN 1 AND 300),
        description text CHECK (char_length(description) <= 5000),
        start_date date NOT NULL,
        start_time time(0),
        end_time time(0),
        timezone text NOT NULL,
        location text CHECK (char_length(location) <= 500),
        cost numeric(12, 2) NOT NULL DEFAULT 0 CHECK (cost >= 0),
        slots integer CHECK (slots >= 1),
        registration_count integer NOT NULL DEFAULT 0 CHECK (registration_count >= 0),
        status text NOT NULL CHECK (status IN ('draft', 'published', 'cancelled')),
        starts_at timestamptz NOT NULL,
        ends_at timestamptz NOT NULL,
        created_at timestamptz NOT NULL,
        updated_at timestamptz NOT NULL,
        CONSTRAINT events_organization_id_key UNIQUE (organization_id, id),
        CONSTRAINT events_end_after_start CHECK (end_time IS NULL OR (start_time IS NOT NULL AND end_time > start_time)),
        CONSTRAINT events_window_ordered CHECK (ends_at > starts_at),
        CONSTRAINT events_registrations_within_slots CHECK (slots IS NULL OR registration_count <= slots)
      )`);
    // The list order (start_date, start_time with no time first, id), alone and under each filter.
    await runner.query(
      'CREATE INDEX events_list_idx ON events (organization_id, start_date, start_time NULLS FIRST, id)',
    );
    await runner.query(
      'CREATE INDEX events_status_list_idx ON events (organization_id, status, start_date, start_time NULLS FIRST, id)',
    );
    await runner.query(
      'CREATE INDEX events_site_list_idx ON events (organization_id, site_id, start_date, start_time NULLS FIRST, id) WHERE site_id IS NOT NULL',
    );
    // upcoming (ends_at > now) and past (ends_at <= now).
    await runner.query('CREATE INDEX events_ends_at_idx ON events (organization_id, ends_at)');

    await runner.query(`
      CREATE TABLE event_registrations (
        id uuid PRIMARY KEY,
        organization_id uuid NOT NULL REFERENCES organizations(id) ON DELETE CASCADE,
        event_id uuid NOT NULL,
        name text NOT NULL CHECK (char_length(name) BETWEEN 1 AND 300),
        email text NOT NULL CHECK (char_length(email) BETWEEN 3 AND 254),
        status text NOT NULL CHECK (status IN ('active', 'cancelled')),
        created_at timestamptz NOT NULL,
        cancelled_at timestamptz,
        CONSTRAINT event_registrations_event_fkey FOREIGN KEY (organization_id, event_id)
          REFERENCES events (organization_id, id) ON DELETE CASCADE,
        CONSTRAINT event_registrations_cancelled_at CHECK ((status = 'cancelled') = (cancelled_at IS NOT NULL))
      )`);
    await runner.query(`
      CREATE UNIQUE INDEX event_registrations_active_email_key
        ON event_registrations (organization_id, event_id, lower(email)) WHERE status = 'active'`);
    await runner.query(
      'CREATE INDEX event_registrations_list_idx ON event_registrations (organization_id, event_id, created_at, id)',
    );

    await runner.query(`
      CREATE FUNCTION event_registrations_count() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        IF TG_OP IN ('UPDATE', 'DELETE') AND OLD.status = 'active' THEN
          UPDATE events SET registration_count = registration_count - 1 WHERE id = OLD.event_id;
        END IF;
        IF TG_OP IN ('INSERT', 'UPDATE') AND NEW.status = 'active' THEN
          UPDATE events SET registration_count = registration_count + 1 WHERE id = NEW.event_id;
        END IF;
        RETURN NULL;
      END
      $$`);
    await runner.query(`
      CREATE TRIGGER event_registrations_count
        AFTER INSERT OR DELETE OR UPDATE OF status, event_id ON event_registrations
        FOR EACH ROW EXECUTE FUNCTION event_registrations_count()`);
  }

  async down(runner: QueryRunner): Promise<void> {
    await runner.query('DROP TABLE event_registrations');
    await runner.query('DROP FUNCTION event_registrations_count()');
    await runner.query('DROP TABLE events');
  }
}
