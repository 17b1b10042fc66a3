/* Rules the operations' descriptions state, written once for the API-key and the admin routes. */

/** What a receiver must not assume, on every operation that subscribes. */
export const DELIVERY_ORDER =
  'Deliveries to one endpoint may arrive out of order (attempts run in parallel and a failed one is retried later, so ' +
  '`booking.cancelled` can come before `booking.created`): a receiver that needs the order reads the change feed ' +
  '(`GET /api/v1/changes`), which gives every event once, in commit order.';
/** The scope rule of `events`, on create and PATCH alike. */
export const SUBSCRIPTION_SCOPES =
  'Each event type in `events` needs the API key\'s scope that reads it, the one the change feed shows it with ' +
  '(`bookings:read` for booking.*, `events:read` for event.* and registration.*, `posts:read` for post.*, `webhooks:read` ' +
  'for calendar.synced and webhook.ping), and `*` needs all of them: otherwise 403 `forbidden` and nothing changes ' +
  '(`webhooks:write` alone subscribes to nothing).';
