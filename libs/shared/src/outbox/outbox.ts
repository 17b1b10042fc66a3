import { Injectable } from '@nestjs/common';
import { EntityManager } from 'typeorm';
import { DomainEvent } from '../domain/domain-event';
import { newId } from '../domain/ids';

/**
 * The transactional outbox: the one port through which every context announces its changes.
 * `record` writes into `outbox_events` on the `EntityManager` of the change's own transaction, so a
 * change that rolls back announces nothing and a committed one is never lost. Each row also keeps the
 * id of the transaction that wrote it (`tx_id`, `pg_current_xact_id()`), which lets readers tell
 * which events can no longer be overtaken by a transaction still in flight.
 * `libs/webhooks` reads the table (deliveries, the change feed); nothing else does.
 */
@Injectable()
export class Outbox {
  /** Returns the ids given to the events, in order. */
  async record(em: EntityManager, ...events: DomainEvent[]): Promise<string[]> {
    if (events.length === 0) return [];
    const statement = this.statement(events, 1);
    await em.query(statement.text, statement.values);
    return statement.ids;
  }

  /**
   * The INSERT that records `events`, with placeholders from `$firstParam` on, for a use case of one
   * statement to run it as a data-modifying CTE beside its own write: one round trip, and the write
   * and its announcement still succeed or fail together.
   */
  statement(events: DomainEvent[], firstParam: number): { text: string; values: unknown[]; ids: string[] } {
    const ids: string[] = [];
    const rows: string[] = [];
    const values: unknown[] = [];
    for (const event of events) {
      const p = firstParam + values.length;
      rows.push(
        `($${p}::uuid, $${p + 1}::uuid, $${p + 2}, $${p + 3}::jsonb, $${p + 4}, $${p + 5}::timestamptz)`,
      );
      const id = newId();
      ids.push(id);
      values.push(
        id,
        event.organizationId,
        event.type,
        JSON.stringify(event.data),
        event.previousStatus ?? null,
        event.occurredAt,
      );
    }
    return {
      text: `INSERT INTO outbox_events (id, organization_id, type, data, previous_status, created_at) VALUES ${rows.join(', ')}`,
      values,
      ids,
    };
  }
}
