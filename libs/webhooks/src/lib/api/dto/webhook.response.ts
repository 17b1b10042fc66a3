import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { maskSecretUrl } from '@almanac/shared';
import { DELIVERY_STATUSES, DeliveryStatus, WebhookDelivery, WebhookEndpoint } from '../../domain/webhook';
import { SUBSCRIBABLE_EVENTS } from '../../application/event-types';

export class WebhookResponse {
  @ApiProperty({ format: 'uuid' }) readonly id!: string;
  @ApiProperty({
    example: 'https://example.com/hooks/a…',
    description:
      'The URL, masked: scheme, host and the start of the path (`…` for the rest, `?…` for a query, never credentials), ' +
      'since a path or query may hold a token. The full URL is kept for delivery only.',
  })
  readonly url!: string;
  @ApiProperty({ isArray: true, enum: SUBSCRIBABLE_EVENTS, enumName: 'WebhookEventType' })
  readonly events!: string[];
  @ApiProperty({ type: String, nullable: true }) readonly description!: string | null;
  @ApiProperty() readonly enabled!: boolean;
  @ApiProperty({ format: 'date-time' }) readonly created_at!: string;
  @ApiProperty({ format: 'date-time' }) readonly updated_at!: string;
}

export class CreatedWebhookResponse extends WebhookResponse {
  @ApiProperty({
    example: 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw',
    description: 'Signing secret, shown only in this answer',
  })
  readonly secret!: string;
}

export class WebhookSecretResponse {
  @ApiProperty({ format: 'uuid' }) readonly id!: string;
  @ApiProperty({
    description: 'The new signing secret, shown only here; the old one also signs for 24 hours',
  })
  readonly secret!: string;
}

export class WebhookDeletion {
  @ApiProperty({ format: 'uuid' }) readonly id!: string;
  @ApiProperty({ enum: [true] }) readonly deleted!: true;
}

export class DeliveryResponse {
  @ApiProperty({ format: 'uuid' }) readonly id!: string;
  @ApiProperty({ format: 'uuid' }) readonly event_id!: string;
  @ApiProperty({ example: 'booking.created' }) readonly event_type!: string;
  @ApiProperty({ enum: DELIVERY_STATUSES }) readonly status!: DeliveryStatus;
  @ApiProperty({ type: 'integer', minimum: 0, example: 1 }) readonly attempts!: number;
  @ApiProperty({ type: String, format: 'date-time', nullable: true }) readonly last_attempt_at!:
    string | null;
  @ApiProperty({ type: String, format: 'date-time', nullable: true }) readonly next_attempt_at!:
    string | null;
  @ApiProperty({ type: 'integer', nullable: true }) readonly response_status!: number | null;
  @ApiProperty({ type: String, nullable: true, description: 'The first 1 KiB of the answer' })
  readonly response_body!: string | null;
  @ApiProperty({ type: String, nullable: true }) readonly error!: string | null;
  @ApiProperty({ format: 'date-time' }) readonly created_at!: string;
}

export class ChangeEvent {
  @ApiProperty({ format: 'uuid', description: 'The event id (also `webhook-id` of its deliveries)' })
  readonly id!: string;
  @ApiProperty({ example: 'booking.created' }) readonly type!: string;
  @ApiProperty({ format: 'date-time' }) readonly created_at!: string;
  @ApiProperty({ format: 'uuid' }) readonly organization_id!: string;
  @ApiProperty({
    type: 'object',
    additionalProperties: true,
    description: 'The resource as its single GET returns it; a deleted one: {id, deleted: true}',
  })
  readonly data!: Record<string, unknown>;
  @ApiPropertyOptional({ description: 'Status events: the status before the move' })
  readonly previous_status?: string;
}

export class ChangesMeta {
  @ApiProperty({
    type: String,
    nullable: true,
    description: 'Pass as `after` for the next page (the same cursor when nothing new came)',
  })
  readonly next_cursor!: string | null;
  @ApiProperty() readonly hasMore!: boolean;
}

export class ChangesPage {
  @ApiProperty({ type: [ChangeEvent] }) readonly data!: ChangeEvent[];
  @ApiProperty({ type: ChangesMeta }) readonly meta!: ChangesMeta;
}

export function toWebhook(e: WebhookEndpoint): WebhookResponse {
  return {
    id: e.id,
    url: maskSecretUrl(e.url),
    events: e.events,
    description: e.description,
    enabled: e.enabled,
    created_at: e.createdAt.toISOString(),
    updated_at: e.updatedAt.toISOString(),
  };
}

export function toDelivery(d: WebhookDelivery): DeliveryResponse {
  return {
    id: d.id,
    event_id: d.eventId,
    event_type: d.eventType,
    status: d.status,
    attempts: d.attempts,
    last_attempt_at: d.lastAttemptAt?.toISOString() ?? null,
    next_attempt_at: d.nextAttemptAt?.toISOString() ?? null,
    response_status: d.responseStatus,
    response_body: d.responseBody,
    error: d.error,
    created_at: d.createdAt.toISOString(),
  };
}

/** The body of the single-endpoint GET (and PATCH answer): what its ETag is taken of. */
export const webhookBody = (e: WebhookEndpoint): { data: WebhookResponse } => ({ data: toWebhook(e) });
