import { Injectable } from '@nestjs/common';
import { EntityManager } from 'typeorm';
import { Transactions } from '../database/transactions';
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
/**
 * Events one INSERT records at most. The statement's parameters do not grow with it (six arrays), but
 * an import of 50,000 changes would otherwise build all their JSON into one message: in pieces, the
 * event loop is free between them and the memory of one piece is let go before the next.
 */
export const OUTBOX_EVENTS_PER_STATEMENT = 1000;

@Injectable()
export class Outbox {
  constructor(private readonly transactions: Transactions) {}

  /**
   * Records the events in the ambient unit of work (`Transactions.run`), the transaction of the
   * change they announce; how application services announce. Returns the ids given to the events.
   */
  announce(...events: DomainEvent[]): Promise<string[]> {
    return this.record(this.transactions.manager(), ...events);
  }

  /** Returns the ids given to the events, in order. */
  async record(em: EntityManager, ...events: DomainEvent[]): Promise<string[]> {
    const ids: string[] = [];
    for (let start = 0; start < events.length; start += OUTBOX_EVENTS_PER_STATEMENT) {
      const statement = this.statement(events.slice(start, start + OUTBOX_EVENTS_PER_STATEMENT), 1);
      await em.query(statement.text, statement.values);
      ids.push(...statement.ids);
    }
    return ids;
  }

  /**
   * The INSERT that records `events`, with placeholders from `$firstParam` on, for a use case of one
   * statement to run it as a data-modifying CTE beside its own write: one round trip, and the write
   * and its announcement still succeed or fail together. The events go in as six arrays (`unnest`), so
   * the statement takes six parameters however many events it records (PostgreSQL allows 65,535), and
   * in their order (`seq` follows it).
   */
  statement(events: DomainEvent[], firstParam: number): { text: string; values: unknown[]; ids: string[] } {
    const ids = events.map(() => newId());
    const p = firstParam;
    return {
      text: `INSERT INTO outbox_events (id, organization_id, type, data, previous_status, created_at)
             SELECT e.id, e.organization_id, e.type, e.data, e.previous_status, e.created_at
               FROM unnest($${p}::uuid[], $${p + 1}::uuid[], $${p + 2}::text[], $${p + 3}::jsonb[], $${p + 4}::text[], $${p + 5}::timestamptz[])
                    WITH ORDINALITY AS e(id, organization_id, type, data, previous_status, created_at, ord)
              ORDER BY e.ord`,
      values: [
        ids,
        events.map((event) => event.organizationId),
        events.map((event) => event.type),
        events.map((event) => JSON.stringify(event.data)),
        events.map((event) => event.previousStatus ?? null),
        events.map((event) => event.occurredAt),
      ],
      ids,
    };
  }
}
