import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Distribution-ready keys (docs/contract/operations.md, "Citus"): this context's tenant tables are keyed
 * `(organization_id, …)`, as Citus needs of a table distributed by `organization_id`. Every row and
 * every foreign key stays (the composite foreign keys already reference `(organization_id, id)`).
 */
export class SchedulingDistributionKeys1764070000100 implements MigrationInterface {
  name = 'SchedulingDistributionKeys1764070000100';

  async up(runner: QueryRunner): Promise<void> {
    await runner.query(
      'ALTER TABLE schedules DROP CONSTRAINT schedules_pkey, ADD PRIMARY KEY (organization_id, id)',
    );
    await runner.query(
      'ALTER TABLE event_types DROP CONSTRAINT event_types_pkey, ADD PRIMARY KEY (organization_id, id)',
    );
    await runner.query(
      'ALTER TABLE bookings DROP CONSTRAINT bookings_pkey, ADD PRIMARY KEY (organization_id, id)',
    );
  }

  async down(runner: QueryRunner): Promise<void> {
    await runner.query('ALTER TABLE schedules DROP CONSTRAINT schedules_pkey, ADD PRIMARY KEY (id)');
    await runner.query('ALTER TABLE event_types DROP CONSTRAINT event_types_pkey, ADD PRIMARY KEY (id)');
    await runner.query('ALTER TABLE bookings DROP CONSTRAINT bookings_pkey, ADD PRIMARY KEY (id)');
  }
}
