import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Failed deliveries are few among many succeeded ones: a partial index lets the metrics count them
 * without reading the table (it is written only when a delivery fails for good).
 */
export class FailedDeliveriesIndex1764300000000 implements MigrationInterface {
  name = 'FailedDeliveriesIndex1764300000000';

  async up(runner: QueryRunner): Promise<void> {
    await runner.query("CREATE INDEX webhook_deliveries_failed_idx ON webhook_deliveries (organization_id) WHERE status = 'failed'");
  }

  async down(runner: QueryRunner): Promise<void> {
    await runner.query('DROP INDEX webhook_deliveries_failed_idx');
  }
}
