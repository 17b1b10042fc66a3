/**
 * Something that happened to a resource, announced to the outside (webhooks, the change feed).
 * A context records it through the `Outbox` port in the same transaction as the change itself.
 */
export interface DomainEvent {
  /** `booking.created`, `registration.promoted`, … (the list: docs/contract/webhooks.md). */
  type: string;
  organizationId: string;
  /** The resource exactly as the API's single GET returns it; a deleted one: `{ id, deleted: true }`. */
  data: Record<string, unknown>;
  /** Status events only: the status before the move. */
  previousStatus?: string;
  /** When it happened, from the context's injected clock. */
  occurredAt: Date;
}
