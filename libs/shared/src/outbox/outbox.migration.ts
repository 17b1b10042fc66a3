import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The outbox every context writes its domain events into (see `Outbox`). `seq` orders the events of
 * one transaction; `tx_id` is the writing transaction, so a reader can page by `(tx_id, seq)` among
 * transactions that can no longer commit below it.
 */
export class SharedOutbox1764000000000 implements MigrationInterface {
  name = 'SharedOutbox1764000000000';

  async up(runner: QueryRunner): Promise<void> {
    await runner.query(`
      CREATE TABLE outbox_events (
        organization_id uuid NOT NULL REFERENCES organizations (id) ON DELETE CASCADE,
        id uuid NOT NULL,
        type text NOT NULL,
        data jsonb NOT NULL,
        previous_status text,
        created_at timestamptz NOT NULL,
        tx_id xid8 NOT NULL DEFAULT pg_current_xact_id(),
        seq bigint GENERATED ALWAYS AS IDENTITY,
        PRIMARY KEY (organization_id, id)
      )`);
    await runner.query('CREATE INDEX outbox_events_feed_idx ON outbox_events (organization_id, tx_id, seq)');
    await runner.query('CREATE INDEX outbox_events_created_idx ON outbox_events (created_at)');
  }

  async down(runner: QueryRunner): Promise<void> {
    await runner.query('DROP TABLE outbox_events');
  }
}
