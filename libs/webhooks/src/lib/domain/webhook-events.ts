/** Every event type a webhook endpoint may subscribe to; `*` means all of them. */
export const WEBHOOK_EVENT_TYPES = [
  'booking.created',
  'booking.updated',
  'booking.confirmed',
  'booking.cancelled',
  'booking.completed',
  'booking.no_show',
  'event.created',
  'event.updated',
  'event.deleted',
  'registration.created',
  'registration.cancelled',
  'registration.promoted',
  'post.created',
  'post.updated',
  'post.published',
  'post.deleted',
  'calendar.synced',
  'webhook.ping',
] as const;

export type WebhookEventType = (typeof WEBHOOK_EVENT_TYPES)[number];
export const ALL_EVENTS = '*';

/** The scope a key needs to see an event of this type in the change feed. */
export function readScopeOf(type: string): string {
  const prefix = type.split('.')[0];
  if (prefix === 'booking') return 'bookings:read';
  if (prefix === 'event' || prefix === 'registration') return 'events:read';
  if (prefix === 'post') return 'posts:read';
  return 'webhooks:read';
}

/** Event types a key with these scopes may read in the change feed. */
export function readableEventTypes(scopes: readonly string[]): string[] {
  return WEBHOOK_EVENT_TYPES.filter((type) => scopes.includes(readScopeOf(type)));
}
