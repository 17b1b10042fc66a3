import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * What the dispatchers need to share attempts fairly: each endpoint's record of timeouts in a row
 * and the pause they put on it, an index to take each endpoint's due deliveries in order (a claim
 * walks the endpoints rather than one queue that a single organization could fill), and one to count
 * the attempts in flight (deliveries under a lease) per endpoint.
 */
export class WebhooksDeliveryFairness1764340000100 implements MigrationInterface {
  name = 'WebhooksDeliveryFairness1764340000100';

  async up(runner: QueryRunner): Promise<void> {
    await runner.query(`
      ALTER TABLE webhook_endpoints
        ADD COLUMN consecutive_timeouts integer NOT NULL DEFAULT 0 CHECK (consecutive_timeouts >= 0),
        ADD COLUMN paused_until timestamptz`);
    await runner.query(
      "CREATE INDEX webhook_deliveries_endpoint_due_idx ON webhook_deliveries (organization_id, endpoint_id, next_attempt_at) WHERE status = 'pending'",
    );
    await runner.query(
      'CREATE INDEX webhook_deliveries_leased_idx ON webhook_deliveries (organization_id, endpoint_id, lease_until) WHERE lease_until IS NOT NULL',
    );
    await runner.query('DROP INDEX webhook_deliveries_due_idx');
  }

  async down(runner: QueryRunner): Promise<void> {
    await runner.query(
      "CREATE INDEX webhook_deliveries_due_idx ON webhook_deliveries (next_attempt_at) WHERE status = 'pending'",
    );
    await runner.query('DROP INDEX webhook_deliveries_leased_idx');
    await runner.query('DROP INDEX webhook_deliveries_endpoint_due_idx');
    await runner.query('ALTER TABLE webhook_endpoints DROP COLUMN consecutive_timeouts, DROP COLUMN paused_until');
  }
}
