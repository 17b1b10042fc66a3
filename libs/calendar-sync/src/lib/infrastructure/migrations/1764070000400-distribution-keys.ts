import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Distribution-ready keys (docs/contract/operations.md, "Citus"): this context's tenant tables are keyed
 * `(organization_id, …)`, as Citus needs of a table distributed by `organization_id`. Every row and
 * every foreign key stays (the composite foreign keys already reference `(organization_id, id)`).
 */
export class CalendarSyncDistributionKeys1764070000400 implements MigrationInterface {
  name = 'CalendarSyncDistributionKeys1764070000400';

  async up(runner: QueryRunner): Promise<void> {
    await runner.query(
      'ALTER TABLE calendar_integrations DROP CONSTRAINT calendar_integrations_pkey, ADD PRIMARY KEY (organization_id, id)',
    );
  }

  async down(runner: QueryRunner): Promise<void> {
    await runner.query(
      'ALTER TABLE calendar_integrations DROP CONSTRAINT calendar_integrations_pkey, ADD PRIMARY KEY (id)',
    );
  }
}
