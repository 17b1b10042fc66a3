import { DomainError } from '@almanac/shared/domain';

/**
 * Endpoints one organization may have at once. Every event is copied into one delivery per
 * subscribed endpoint, so this bounds how many requests one event can cause.
 */
export const MAX_WEBHOOK_ENDPOINTS_PER_ORGANIZATION = 25;

export class WebhookLimitReachedError extends DomainError {
  constructor(limit: number) {
    super(
      'webhook_limit_reached',
      `An organization may have at most ${limit} webhook endpoints; delete one before adding another.`,
    );
  }
}

/** The webhooks context's own error codes and their HTTP statuses (registered by WebhooksModule). */
export const WEBHOOKS_ERROR_CODES = {
  webhook_limit_reached: 409,
} as const;
