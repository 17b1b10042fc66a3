import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Distribution-ready keys (docs/contract/operations.md, "Citus"): this context's tenant tables are keyed
 * `(organization_id, …)`, as Citus needs of a table distributed by `organization_id`. Every row and
 * every foreign key stays (the composite foreign keys already reference `(organization_id, id)`).
 */
export class EventsDistributionKeys1764070000200 implements MigrationInterface {
  name = 'EventsDistributionKeys1764070000200';

  async up(runner: QueryRunner): Promise<void> {
    await runner.query(
      'ALTER TABLE events DROP CONSTRAINT events_pkey, ADD PRIMARY KEY (organization_id, id)',
    );
    await runner.query(
      'ALTER TABLE event_registrations DROP CONSTRAINT event_registrations_pkey, ADD PRIMARY KEY (organization_id, id)',
    );
  }

  async down(runner: QueryRunner): Promise<void> {
    await runner.query('ALTER TABLE events DROP CONSTRAINT events_pkey, ADD PRIMARY KEY (id)');
    await runner.query(
      'ALTER TABLE event_registrations DROP CONSTRAINT event_registrations_pkey, ADD PRIMARY KEY (id)',
    );
  }
}
