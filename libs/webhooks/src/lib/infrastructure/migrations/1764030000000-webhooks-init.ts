import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Webhook endpoints and their deliveries. Each outbox event is fanned out once into one delivery per
 * subscribed endpoint (`outbox_events.fanned_out`, claimed with SKIP LOCKED); deliveries are claimed
 * for an attempt with a lease (`lease_until`), so any number of instances deliver each once.
 */
export class WebhooksInit1764030000000 implements MigrationInterface {
  name = 'WebhooksInit1764030000000';

  async up(runner: QueryRunner): Promise<void> {
    await runner.query(`
      CREATE TABLE webhook_endpoints (
        organization_id uuid NOT NULL REFERENCES organizations (id) ON DELETE CASCADE,
        id uuid NOT NULL,
        url text NOT NULL CHECK (char_length(url) BETWEEN 1 AND 2000),
        events text[] NOT NULL CHECK (cardinality(events) > 0),
        description text CHECK (char_length(description) <= 300),
        enabled boolean NOT NULL DEFAULT true,
        secret text NOT NULL,
        previous_secret text,
        previous_secret_expires_at timestamptz,
        created_at timestamptz NOT NULL,
        updated_at timestamptz NOT NULL,
        PRIMARY KEY (organization_id, id)
      )`);
    await runner.query(
      'CREATE INDEX webhook_endpoints_list_idx ON webhook_endpoints (organization_id, created_at, id)',
    );
    await runner.query(`
      CREATE TABLE webhook_deliveries (
        organization_id uuid NOT NULL,
        id uuid NOT NULL,
        endpoint_id uuid NOT NULL,
        event_id uuid NOT NULL,
        event_type text NOT NULL,
        status text NOT NULL CHECK (status IN ('pending', 'succeeded', 'failed')),
        attempts integer NOT NULL DEFAULT 0,
        next_attempt_at timestamptz,
        last_attempt_at timestamptz,
        lease_until timestamptz,
        response_status integer,
        response_body text,
        error text,
        created_at timestamptz NOT NULL,
        PRIMARY KEY (organization_id, id),
        UNIQUE (organization_id, endpoint_id, event_id),
        FOREIGN KEY (organization_id, endpoint_id) REFERENCES webhook_endpoints (organization_id, id) ON DELETE CASCADE
      )`);
    await runner.query(
      "CREATE INDEX webhook_deliveries_due_idx ON webhook_deliveries (next_attempt_at) WHERE status = 'pending'",
    );
    await runner.query(
      'CREATE INDEX webhook_deliveries_log_idx ON webhook_deliveries (organization_id, endpoint_id, created_at DESC, id DESC)',
    );
    await runner.query('CREATE INDEX webhook_deliveries_created_idx ON webhook_deliveries (created_at)');
    await runner.query('ALTER TABLE outbox_events ADD COLUMN fanned_out boolean NOT NULL DEFAULT false');
    await runner.query('CREATE INDEX outbox_events_fanout_idx ON outbox_events (seq) WHERE NOT fanned_out');
  }

  async down(runner: QueryRunner): Promise<void> {
    await runner.query('ALTER TABLE outbox_events DROP COLUMN fanned_out');
    await runner.query('DROP TABLE webhook_deliveries');
    await runner.query('DROP TABLE webhook_endpoints');
  }
}
