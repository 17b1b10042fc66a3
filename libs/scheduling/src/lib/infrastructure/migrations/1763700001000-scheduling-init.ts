import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Schedules, event types and bookings. Tenant tables carry `organization_id`; every unique, exclusion
 * and foreign-key constraint includes it, so a row can never point into another organization.
 */
export class SchedulingInit1763700001000 implements MigrationInterface {
  name = 'SchedulingInit1763700001000';

  async up(runner: QueryRunner): Promise<void> {
    await runner.query(`
      CREATE TABLE schedules (
        id uuid PRIMARY KEY,
        organization_id uuid NOT NULL REFERENCES organizations(id) ON DELETE CASCADE,
        name text NOT NULL CHECK (char_length(name) BETWEEN 1 AND 300),
        timezone text NOT NULL DEFAULT 'UTC',
        created_at timestamptz NOT NULL,
        updated_at timestamptz NOT NULL,
        CONSTRAINT schedules_organization_id_key UNIQUE (organization_id, id)
      )`);
    await runner.query('CREATE INDEX schedules_list_idx ON schedules (organization_id, created_at, id)');

    await runner.query(`
      CREATE TABLE event_types (
        id uuid PRIMARY KEY,
        organization_id uuid NOT NULL REFERENCES organizations(id) ON DELETE CASCADE,
        title text NOT NULL CHECK (char_length(title) BETWEEN 1 AND 300),
        slug text NOT NULL CHECK (char_length(slug) BETWEEN 1 AND 100),
        description text,
        duration integer NOT NULL CHECK (duration BETWEEN 1 AND 1440),
        location_type text NOT NULL DEFAULT 'video' CHECK (location_type IN ('in_person', 'phone', 'video', 'custom')),
        location_details text,
        color text CHECK (color ~ '^#([0-9A-Fa-f]{3}|[0-9A-Fa-f]{6})$'),
        requires_approval boolean NOT NULL DEFAULT false,
        is_active boolean NOT NULL DEFAULT true,
        created_at timestamptz NOT NULL,
        updated_at timestamptz NOT NULL,
        CONSTRAINT event_types_organization_id_key UNIQUE (organization_id, id),
        CONSTRAINT event_types_slug_key UNIQUE (organization_id, slug)
      )`);
    await runner.query(
      'CREATE INDEX event_types_list_idx ON event_types (organization_id, is_active, created_at, id)',
    );

    await runner.query(`
      CREATE TABLE bookings (
        id uuid PRIMARY KEY,
        organization_id uuid NOT NULL REFERENCES organizations(id) ON DELETE CASCADE,
        schedule_id uuid NOT NULL,
        event_type_id uuid,
        start_time timestamptz NOT NULL,
        end_time timestamptz NOT NULL,
        timezone text NOT NULL,
        status text NOT NULL CHECK (status IN ('PENDING', 'CONFIRMED', 'CANCELLED', 'COMPLETED', 'NO_SHOW')),
        title text NOT NULL,
        location text,
        location_type text CHECK (location_type IN ('in_person', 'phone', 'video', 'custom')),
        attendee_name text NOT NULL,
        attendee_email text,
        attendee_phone text,
        attendee_timezone text,
        attendee_notes text,
        metadata jsonb NOT NULL DEFAULT '{}'::jsonb CHECK (jsonb_typeof(metadata) = 'object'),
        created_at timestamptz NOT NULL,
        updated_at timestamptz NOT NULL,
        cancelled_at timestamptz,
        cancelled_by_sync boolean NOT NULL DEFAULT false,
        CONSTRAINT bookings_time_order CHECK (end_time > start_time),
        CONSTRAINT bookings_schedule_fkey FOREIGN KEY (organization_id, schedule_id)
          REFERENCES schedules (organization_id, id) ON DELETE CASCADE,
        CONSTRAINT bookings_event_type_fkey FOREIGN KEY (organization_id, event_type_id)
          REFERENCES event_types (organization_id, id) ON DELETE SET NULL (event_type_id),
        CONSTRAINT bookings_no_overlap EXCLUDE USING gist (
          organization_id WITH =,
          schedule_id WITH =,
          tstzrange(start_time, end_time, '[)') WITH &&
        ) WHERE (status IN ('PENDING', 'CONFIRMED'))
      )`);
    // The default order, and the start_date/end_date/upcoming filters on their own.
    await runner.query('CREATE INDEX bookings_start_idx ON bookings (organization_id, start_time, id)');
    // schedule_id filter (and the cascade when a schedule is deleted).
    await runner.query(
      'CREATE INDEX bookings_schedule_idx ON bookings (organization_id, schedule_id, start_time, id)',
    );
    // event_type_id filter (and SET NULL when an event type is deleted).
    await runner.query(
      'CREATE INDEX bookings_event_type_idx ON bookings (organization_id, event_type_id, start_time, id) WHERE event_type_id IS NOT NULL',
    );
    await runner.query(
      'CREATE INDEX bookings_status_idx ON bookings (organization_id, status, start_time, id)',
    );
    // attendee_email: case-insensitive substring search (LIKE '%…%') through trigrams.
    await runner.query(
      'CREATE INDEX bookings_attendee_email_trgm_idx ON bookings USING gin (lower(attendee_email) gin_trgm_ops)',
    );
    // Calendar import: the bookings it created, by their iCalendar UID.
    await runner.query(`
      CREATE INDEX bookings_external_uid_idx ON bookings (organization_id, schedule_id, (metadata->>'external_uid'))
        WHERE metadata->>'source' = 'external_calendar'`);
  }

  async down(runner: QueryRunner): Promise<void> {
    await runner.query('DROP TABLE bookings');
    await runner.query('DROP TABLE event_types');
    await runner.query('DROP TABLE schedules');
  }
}
