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
    const ids: string[] = [];
    const values: string[] = [];
    const params: unknown[] = [];
    for (const event of events) {
      const base = params.length;
      values.push(`($${base + 1}, $${base + 2}, $${base + 3}, $${base + 4}::jsonb, $${base + 5}, $${base + 6})`);
      const id = newId();
      ids.push(id);
      params.push(id, event.organizationId, event.type, JSON.stringify(event.data), event.previousStatus ?? null, event.occurredAt);
    }
    await em.query(
      `INSERT INTO outbox_events (id, organization_id, type, data, previous_status, created_at) VALUES ${values.join(', ')}`,
      params,
    );
    return ids;
  }
}
