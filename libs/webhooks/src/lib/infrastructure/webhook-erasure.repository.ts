import { Injectable } from '@nestjs/common';
import { containsPattern, rowsOf } from '@almanac/shared';
import type { EntityManager } from 'typeorm';

/** The stored events and deliveries that may hold a person's data: what an erasure scrubs. */
@Injectable()
export class WebhookErasureRepository {
  /**
   * The organization's outbox events (webhook payloads and change-feed entries alike) whose data
   * holds `address` (any case) or names one of `recordIds`, locked.
   */
  async lockEventsHolding(
    em: EntityManager,
    organizationId: string,
    address: string,
    recordIds: string[],
  ): Promise<Array<{ id: string; data: unknown; names_record: boolean }>> {
    return rowsOf(
      em,
      `SELECT id, data, data::text LIKE ANY ($3::text[]) AS names_record FROM outbox_events
        WHERE organization_id = $1 AND (data::text ILIKE $2 ESCAPE '\\' OR data::text LIKE ANY ($3::text[]))
        ORDER BY id FOR UPDATE`,
      [organizationId, containsPattern(address), recordIds.map(containsPattern)],
    );
  }

  async replaceEventData(em: EntityManager, organizationId: string, events: ReadonlyArray<{ id: string; data: unknown }>): Promise<void> {
    if (events.length === 0) return;
    await em.query(
      `UPDATE outbox_events o SET data = u.data
         FROM unnest($2::uuid[], $3::jsonb[]) AS u(id, data)
        WHERE o.organization_id = $1 AND o.id = u.id`,
      [organizationId, events.map((e) => e.id), events.map((e) => JSON.stringify(e.data))],
    );
  }

  /** The organization's deliveries whose stored answer holds `address`, or that delivered one of `eventIds`, locked. */
  async lockDeliveriesHolding(
    em: EntityManager,
    organizationId: string,
    address: string,
    eventIds: string[],
  ): Promise<Array<{ id: string; event_id: string; response_body: string }>> {
    return rowsOf(
      em,
      `SELECT id, event_id, response_body FROM webhook_deliveries
        WHERE organization_id = $1 AND response_body IS NOT NULL
          AND (response_body ILIKE $2 ESCAPE '\\' OR event_id = ANY ($3::uuid[]))
        ORDER BY id FOR UPDATE`,
      [organizationId, containsPattern(address), eventIds],
    );
  }

  async replaceResponseBodies(em: EntityManager, organizationId: string, deliveries: ReadonlyArray<{ id: string; body: string }>): Promise<void> {
    if (deliveries.length === 0) return;
    await em.query(
      `UPDATE webhook_deliveries d SET response_body = u.body
         FROM unnest($2::uuid[], $3::text[]) AS u(id, body)
        WHERE d.organization_id = $1 AND d.id = u.id`,
      [organizationId, deliveries.map((d) => d.id), deliveries.map((d) => d.body)],
    );
  }
}
