import { Injectable } from '@nestjs/common';
import { ErasedRecords, PersonErasure, scrubPayload, scrubText, Transactions } from '@almanac/shared';
import { WebhookErasureRepository } from '../infrastructure/webhook-erasure.repository';

/**
 * Takes an erased person out of what this context stores of past changes (for the operators'
 * erasure, through the public API; it joins the caller's `Transactions.run`): the outbox events,
 * which are both the webhook payloads (a redelivery sends the scrubbed one) and the change feed, and
 * the answers receivers gave to their deliveries. The address goes wherever it stands; the names of
 * the erased records only from payloads that hold one of those records, and from the answers to
 * those payloads' deliveries (see `scrubPayload`).
 */
@Injectable()
export class WebhookErasureService {
  constructor(
    private readonly transactions: Transactions,
    private readonly repository: WebhookErasureRepository,
  ) {}

  async erasePerson(organizationId: string, erasure: PersonErasure, erased: readonly ErasedRecords[]): Promise<void> {
    await this.transactions.run(async () => {
      const em = this.transactions.manager();
      const recordIds = erased.flatMap((group) => group.records.map((r) => r.id));
      const events = await this.repository.lockEventsHolding(em, organizationId, erasure.address, recordIds);
      const scrubbedEvents = events.flatMap((event) => {
        const data = scrubPayload(event.data, erasure, erased);
        return data === null ? [] : [{ id: event.id, data }];
      });
      await this.repository.replaceEventData(em, organizationId, scrubbedEvents);

      const concerning = new Set(events.filter((e) => e.names_record).map((e) => e.id));
      const deliveries = await this.repository.lockDeliveriesHolding(em, organizationId, erasure.address, [...concerning]);
      const scrubbedDeliveries = deliveries.flatMap((delivery) => {
        const body = scrubText(delivery.response_body, erasure, erased, concerning.has(delivery.event_id));
        return body === null ? [] : [{ id: delivery.id, body }];
      });
      await this.repository.replaceResponseBodies(em, organizationId, scrubbedDeliveries);
    });
  }
}
