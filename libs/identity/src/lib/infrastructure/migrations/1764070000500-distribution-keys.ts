import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Distribution-ready keys (docs/contract/operations.md, "Citus"): this context's tenant tables are keyed
 * `(organization_id, …)`, as Citus needs of a table distributed by `organization_id`. Every row and
 * every foreign key stays (the composite foreign keys already reference `(organization_id, id)`).
 */
export class IdentityDistributionKeys1764070000500 implements MigrationInterface {
  name = 'IdentityDistributionKeys1764070000500';

  async up(runner: QueryRunner): Promise<void> {
    await runner.query(
      'ALTER TABLE idempotency_keys DROP CONSTRAINT idempotency_keys_pkey, ADD PRIMARY KEY (organization_id, attempt_id)',
    );
    // Completing or releasing an attempt names it by its id alone.
    await runner.query('CREATE INDEX idempotency_keys_attempt_idx ON idempotency_keys (attempt_id)');
  }

  async down(runner: QueryRunner): Promise<void> {
    await runner.query('DROP INDEX idempotency_keys_attempt_idx');
    await runner.query(
      'ALTER TABLE idempotency_keys DROP CONSTRAINT idempotency_keys_pkey, ADD PRIMARY KEY (attempt_id)',
    );
  }
}
