/*
 * A small client of the Almanac API typed only by what openapi-typescript generates from the OpenAPI
 * document with its default options (`./almanac-api`, written next to a copy of this file by
 * typed-client.e2e-spec.ts). It is compiled with `tsc --strict --noEmit`, never run, and it is not part
 * of the workspace's own type-check (the generated module exists only in the test's directory).
 *
 * Every operation is used once, as a client would: bodies without the fields the server defaults or a
 * PATCH leaves alone, nulls where a field can be cleared, answers read field by field. The
 * `@ts-expect-error` lines are requests the types must refuse.
 */
import type { components, operations, paths } from './almanac-api';

type OperationId = keyof operations;
type Method = 'get' | 'put' | 'post' | 'delete' | 'patch';
type Params<K extends OperationId> = operations[K]['parameters'];
type JsonBody<R> = [R] extends [never] ? never : R extends { content: { 'application/json': infer B } } ? B : never;
/** The JSON request body, or never for an operation that takes none (`requestBody?: never`). */
type Body<K extends OperationId> = JsonBody<NonNullable<operations[K]['requestBody']>>;
type Answers<K extends OperationId> = operations[K]['responses'];
/** What a success (200, 201 or 204) carries: its body, whatever the media type, or undefined. */
type Success<K extends OperationId> = {
  [S in keyof Answers<K>]: S extends 200 | 201 | 204 ? (Answers<K>[S] extends { content: infer C } ? C[keyof C] : undefined) : never;
}[keyof Answers<K>];

type Input<K extends OperationId> = (undefined extends Params<K>['path'] ? { path?: undefined } : { path: Params<K>['path'] }) &
  (undefined extends Params<K>['query'] ? { query?: Params<K>['query'] } : { query: Params<K>['query'] }) &
  ([Body<K>] extends [never] ? { body?: undefined } : { body: Body<K> });

/** Where each operation lives: the type demands every operation, and only paths the document has. */
const routes = {
  Health_live: ['get', '/health/live'],
  Health_ready: ['get', '/health/ready'],
  Auth_login: ['post', '/api/auth/login'],
  Auth_session: ['get', '/api/auth/session'],
  Auth_logout: ['post', '/api/auth/logout'],
  ApiKeys_current: ['get', '/api/v1/api-keys/current'],
  BookingCalendar_ics: ['get', '/api/v1/bookings/{id}/calendar.ics'],
  CalendarFeeds_create: ['post', '/api/v1/schedules/{id}/calendar-feed'],
  CalendarFeeds_get: ['get', '/api/v1/schedules/{id}/calendar-feed'],
  CalendarFeeds_delete: ['delete', '/api/v1/schedules/{id}/calendar-feed'],
  PublicCalendar_feed: ['get', '/calendar/{file}'],
  Schedules_list: ['get', '/api/v1/schedules'],
  Schedules_create: ['post', '/api/v1/schedules'],
  Schedules_get: ['get', '/api/v1/schedules/{id}'],
  Schedules_update: ['patch', '/api/v1/schedules/{id}'],
  Schedules_delete: ['delete', '/api/v1/schedules/{id}'],
  Bookings_list: ['get', '/api/v1/bookings'],
  Bookings_create: ['post', '/api/v1/bookings'],
  Bookings_get: ['get', '/api/v1/bookings/{id}'],
  Bookings_update: ['patch', '/api/v1/bookings/{id}'],
  Bookings_cancel: ['delete', '/api/v1/bookings/{id}'],
  Bookings_replaceManageToken: ['post', '/api/v1/bookings/{id}/manage-token'],
  PublicBookings_view: ['get', '/public/v1/bookings/{token}'],
  PublicBookings_cancel: ['post', '/public/v1/bookings/{token}/cancel'],
  PublicBookings_slots: ['get', '/public/v1/bookings/{token}/slots'],
  PublicBookings_reschedule: ['post', '/public/v1/bookings/{token}/reschedule'],
  BookingSeries_get: ['get', '/api/v1/booking-series/{id}'],
  BookingSeries_cancel: ['delete', '/api/v1/booking-series/{id}'],
  EventTypes_list: ['get', '/api/v1/event-types'],
  EventTypes_create: ['post', '/api/v1/event-types'],
  EventTypes_get: ['get', '/api/v1/event-types/{id}'],
  EventTypes_update: ['patch', '/api/v1/event-types/{id}'],
  EventTypes_delete: ['delete', '/api/v1/event-types/{id}'],
  Events_list: ['get', '/api/v1/events'],
  Events_create: ['post', '/api/v1/events'],
  Events_get: ['get', '/api/v1/events/{id}'],
  Events_update: ['patch', '/api/v1/events/{id}'],
  Events_delete: ['delete', '/api/v1/events/{id}'],
  Registrations_create: ['post', '/api/v1/events/{eventId}/registrations'],
  Registrations_list: ['get', '/api/v1/events/{eventId}/registrations'],
  Registrations_get: ['get', '/api/v1/events/{eventId}/registrations/{registrationId}'],
  Registrations_cancel: ['delete', '/api/v1/events/{eventId}/registrations/{registrationId}'],
  PostCategories_list: ['get', '/api/v1/posts/categories'],
  PostCategories_create: ['post', '/api/v1/posts/categories'],
  PostCategories_get: ['get', '/api/v1/posts/categories/{id}'],
  PostCategories_update: ['patch', '/api/v1/posts/categories/{id}'],
  PostCategories_delete: ['delete', '/api/v1/posts/categories/{id}'],
  PostTags_list: ['get', '/api/v1/posts/tags'],
  PostTags_create: ['post', '/api/v1/posts/tags'],
  PostTags_get: ['get', '/api/v1/posts/tags/{id}'],
  PostTags_update: ['patch', '/api/v1/posts/tags/{id}'],
  PostTags_delete: ['delete', '/api/v1/posts/tags/{id}'],
  Posts_list: ['get', '/api/v1/posts'],
  Posts_create: ['post', '/api/v1/posts'],
  Posts_get: ['get', '/api/v1/posts/{id}'],
  Posts_update: ['patch', '/api/v1/posts/{id}'],
  Posts_delete: ['delete', '/api/v1/posts/{id}'],
  PostRevisions_list: ['get', '/api/v1/posts/{id}/revisions'],
  PostRevisions_get: ['get', '/api/v1/posts/{id}/revisions/{revisionId}'],
  PostRevisions_restore: ['post', '/api/v1/posts/{id}/revisions/{revisionId}/restore'],
  PostPreviewLinks_create: ['post', '/api/v1/posts/{id}/preview-link'],
  PublicPosts_atom: ['get', '/public/v1/posts.atom'],
  PublicPosts_preview: ['get', '/public/v1/previews/{token}'],
  CalendarIntegration_put: ['put', '/api/organizations/{organizationId}/calendar-integration'],
  CalendarIntegration_get: ['get', '/api/organizations/{organizationId}/calendar-integration'],
  CalendarIntegration_remove: ['delete', '/api/organizations/{organizationId}/calendar-integration'],
  SyncExternal_sync: ['post', '/api/bookings/sync-external'],
  Webhooks_create: ['post', '/api/v1/webhooks'],
  Webhooks_list: ['get', '/api/v1/webhooks'],
  Webhooks_get: ['get', '/api/v1/webhooks/{id}'],
  Webhooks_update: ['patch', '/api/v1/webhooks/{id}'],
  Webhooks_delete: ['delete', '/api/v1/webhooks/{id}'],
  Webhooks_rotate: ['post', '/api/v1/webhooks/{id}/rotate-secret'],
  Webhooks_deliveries: ['get', '/api/v1/webhooks/{id}/deliveries'],
  Webhooks_redeliver: ['post', '/api/v1/webhooks/{id}/deliveries/{deliveryId}/redeliver'],
  Webhooks_ping: ['post', '/api/v1/webhooks/{id}/ping'],
  Changes_page: ['get', '/api/v1/changes'],
  Slots_list: ['get', '/api/v1/slots'],
  Reservations_create: ['post', '/api/v1/slots/reservations'],
  Reservations_get: ['get', '/api/v1/slots/reservations/{id}'],
  Reservations_release: ['delete', '/api/v1/slots/reservations/{id}'],
  AdminApiKeys_list: ['get', '/api/organizations/{organizationId}/api-keys'],
  AdminApiKeys_create: ['post', '/api/organizations/{organizationId}/api-keys'],
  AdminApiKeys_get: ['get', '/api/organizations/{organizationId}/api-keys/{id}'],
  AdminApiKeys_revoke: ['delete', '/api/organizations/{organizationId}/api-keys/{id}'],
  AdminSchedules_list: ['get', '/api/organizations/{organizationId}/schedules'],
  CalendarSyncs_list: ['get', '/api/organizations/{organizationId}/calendar-syncs'],
  AdminWebhooks_list: ['get', '/api/organizations/{organizationId}/webhooks'],
  AdminWebhooks_create: ['post', '/api/organizations/{organizationId}/webhooks'],
  AdminWebhooks_get: ['get', '/api/organizations/{organizationId}/webhooks/{id}'],
  AdminWebhooks_delete: ['delete', '/api/organizations/{organizationId}/webhooks/{id}'],
  AdminWebhooks_update: ['patch', '/api/organizations/{organizationId}/webhooks/{id}'],
  AdminWebhooks_deliveries: ['get', '/api/organizations/{organizationId}/webhooks/{id}/deliveries'],
  AdminWebhooks_redeliver: ['post', '/api/organizations/{organizationId}/webhooks/{id}/deliveries/{deliveryId}/redeliver'],
  AdminWebhooks_ping: ['post', '/api/organizations/{organizationId}/webhooks/{id}/ping'],
  AdminWebhooks_rotate: ['post', '/api/organizations/{organizationId}/webhooks/{id}/rotate-secret'],
  AuditLog_list: ['get', '/api/organizations/{organizationId}/audit-log'],
  Erasures_erase: ['post', '/api/organizations/{organizationId}/erasures'],
  Metrics_scrape: ['get', '/metrics'],
} as const satisfies { [K in OperationId]: readonly [Method, keyof paths] };

/** The transport (fetch, or anything else): outside what the types decide. */
declare function send(method: Method, url: string, body: unknown): Promise<unknown>;

async function call<K extends OperationId>(operationId: K, input: Input<K>): Promise<Success<K>> {
  const [method, template] = routes[operationId];
  const { path, query, body } = input as { path?: Record<string, string>; query?: Record<string, string | number | boolean>; body?: unknown };
  const url = template.replace(/\{(\w+)\}/g, (_match: string, name: string) => encodeURIComponent(path?.[name] ?? ''));
  const search = Object.entries(query ?? {})
    .map(([name, value]) => `${encodeURIComponent(name)}=${encodeURIComponent(String(value))}`)
    .join('&');
  return (await send(method, search ? `${url}?${search}` : url, body)) as Success<K>;
}

export async function tour(organizationId: string, feedFile: string): Promise<string[]> {
  const seen: string[] = [];

  const live = await call('Health_live', {});
  const ready = await call('Health_ready', {});
  seen.push(live.status, ready.status);

  const session = (await call('Auth_login', { body: { email: 'admin@example.com', password: 'correct horse battery staple' } })).data;
  const role: string = session.user.role;
  seen.push(role, (await call('Auth_session', {})).data.user.organization_id);

  const key = (await call('ApiKeys_current', {})).data;
  const lastUsed: string | null = key.last_used_at;
  seen.push(...key.scopes, lastUsed ?? 'never');

  // Schedules: the time zone has a default, so a create needs only a name.
  const schedule = (await call('Schedules_create', { body: { name: 'Front desk' } })).data;
  await call('Schedules_update', { path: { id: schedule.id }, body: { timezone: 'Europe/Paris' } });
  const schedules = await call('Schedules_list', { query: { limit: 10, offset: 0 } });
  const total: number = schedules.meta.total;
  seen.push((await call('Schedules_get', { path: { id: schedule.id } })).data.timezone, String(total));

  const feed = (await call('CalendarFeeds_create', { path: { id: schedule.id } })).data;
  const fetched: string | null = (await call('CalendarFeeds_get', { path: { id: schedule.id } })).data.last_fetched_at;
  const ics: string = await call('PublicCalendar_feed', { path: { file: feedFile } });
  seen.push(feed.url, fetched ?? 'not yet', ics);

  // Event types: only title and duration are required; PATCH takes any one field.
  const eventType = (await call('EventTypes_create', { body: { title: 'Intro call', duration: 30 } })).data;
  await call('EventTypes_update', { path: { id: eventType.id }, body: { color: null } });
  const activeTypes = await call('EventTypes_list', { query: { active: true } });
  seen.push((await call('EventTypes_get', { path: { id: eventType.id } })).data.slug, String(activeTypes.data.length));

  // Bookings: nullable fields take null, metadata takes scalars. The create answers a booking, or
  // a series when the body has recurrence: the client tells them apart.
  const created = (
    await call('Bookings_create', {
      body: {
        schedule_id: schedule.id,
        event_type_id: eventType.id,
        start_time: '2027-05-03T09:00:00Z',
        end_time: '2027-05-03T09:30:00Z',
        attendee: { name: 'Ada Lovelace', email: 'ada@example.com', phone: null },
        location: null,
        metadata: { source: 'website', visits: 3, vip: true, referrer: null },
      },
    })
  ).data;
  if (!('id' in created)) throw new Error('a booking was expected, not a series');
  const booking = created;
  const status: 'PENDING' | 'CONFIRMED' | 'CANCELLED' | 'COMPLETED' | 'NO_SHOW' = (await call('Bookings_update', { path: { id: booking.id }, body: { status: 'CONFIRMED' } })).data.status;
  await call('Bookings_update', { path: { id: booking.id }, body: { start_time: '2027-05-03T10:00Z', end_time: '2027-05-03T10:30+0000' } });
  const upcoming = await call('Bookings_list', { query: { schedule_id: schedule.id, start_date: '2027-05-01', upcoming: true } });
  const invite: string = await call('BookingCalendar_ics', { path: { id: booking.id } });
  // The attendee's side: the manage token of the create answer (or a new one), no key.
  const manageToken: string = (await call('Bookings_replaceManageToken', { path: { id: booking.id } })).data.manage_token;
  const mine = (await call('PublicBookings_view', { path: { token: booking.manage_token } })).data;
  const until: string | null = mine.cancellable_until;
  const free = await call('PublicBookings_slots', { path: { token: manageToken }, query: { start: '2027-05-03', end: '2027-05-04' } });
  const moved = (await call('PublicBookings_reschedule', { path: { token: manageToken }, body: { start_time: '2027-05-03T11:00:00+02:00' } })).data;
  seen.push(until ?? 'never', String(mine.can_reschedule), mine.event_type?.title ?? 'no type', String(free.meta.total), moved.start_time);
  const cancelled: boolean = (await call('Bookings_cancel', { path: { id: booking.id } })).data.cancelled;
  const byAttendee = (await call('PublicBookings_cancel', { path: { token: manageToken }, body: { reason: null } })).data.status;
  const who: 'attendee' | 'api' | 'import' | null = (await call('Bookings_get', { path: { id: booking.id } })).data.cancelled_by;
  seen.push(status, (await call('Bookings_get', { path: { id: booking.id } })).data.attendee_name, String(upcoming.meta.hasMore), invite, String(cancelled), byAttendee, who ?? 'not cancelled');

  // A series: the defaults of recurrence filled in, the occurrences and what was skipped; cancelled from an occurrence on.
  const made = (
    await call('Bookings_create', {
      body: {
        schedule_id: schedule.id,
        start_time: '2027-06-01T09:00:00Z',
        end_time: '2027-06-01T09:30:00Z',
        attendee: { name: 'Ada Lovelace', email: 'ada@example.com' },
        recurrence: { frequency: 'weekly', count: 4 },
        on_conflict: 'skip',
      },
    })
  ).data;
  if (!('bookings' in made)) throw new Error('a series was expected');
  const occurrences = (await call('BookingSeries_get', { path: { id: made.series_id } })).data.bookings;
  const seriesId: string | null = occurrences[0]!.series_id;
  const stopped: number = (await call('BookingSeries_cancel', { path: { id: made.series_id }, query: { from: occurrences[1]!.id } })).data.cancelled;
  seen.push(made.recurrence.frequency, String(made.recurrence.interval), String(made.skipped.length), seriesId ?? 'none', String(stopped));
  // @ts-expect-error: count is required.
  await call('Bookings_create', { body: { schedule_id: schedule.id, start_time: '2027-06-01T09:00:00Z', end_time: '2027-06-01T09:30:00Z', attendee: { name: 'A', email: 'a@example.com' }, recurrence: { frequency: 'daily' } } });

  // Events: timezone, cost, status… default on create; a PATCH needs none of them.
  const event = (await call('Events_create', { body: { title: 'Community meetup', start_date: '2027-06-01', slots: 50, waitlist_enabled: true } })).data;
  const renamed = (await call('Events_update', { path: { id: event.id }, body: { title: 'Summer meetup' } })).data;
  await call('Events_update', { path: { id: event.id }, body: { status: 'published', cost: 19.99, start_time: '18:30', end_time: null } });
  const events = await call('Events_list', { query: { include_counts: true, status: 'published', start_date: '2027-06-01' } });
  const remaining: number | null | undefined = events.data[0]?.slots_remaining;
  seen.push(renamed.timezone, String(remaining), (await call('Events_get', { path: { id: event.id } })).data.status);

  const registration = (await call('Registrations_create', { path: { eventId: event.id }, body: { name: 'Grace Hopper', email: 'grace@example.com' } })).data;
  const position: number | null = registration.position;
  const waiting = await call('Registrations_list', { path: { eventId: event.id }, query: { status: 'waitlisted' } });
  await call('Registrations_get', { path: { eventId: event.id, registrationId: registration.id } });
  await call('Registrations_cancel', { path: { eventId: event.id, registrationId: registration.id } });
  seen.push(String(position), String(waiting.meta.total));
  await call('Events_delete', { path: { id: event.id } });

  // The blog.
  const category = (await call('PostCategories_create', { body: { name: 'Engineering' } })).data;
  await call('PostCategories_update', { path: { id: category.id }, body: { slug: 'eng' } });
  const tag = (await call('PostTags_create', { body: { name: 'PostgreSQL', slug: 'postgres' } })).data;
  await call('PostTags_update', { path: { id: tag.id }, body: { name: 'Postgres' } });
  const post = (
    await call('Posts_create', {
      body: {
        title: 'How we schedule',
        slug: 'how-we-schedule',
        content: [
          { type: 'heading', level: 2, text: 'Why' },
          { type: 'paragraph', text: 'Mostly by saying no.' },
          { type: 'image', url: 'https://cdn.example.com/desk.jpg', alt: '' },
          { type: 'list', items: ['Plan', 'Book'] },
          { type: 'quote', text: 'Time is what we want most.' },
        ],
        category_id: category.id,
        tag_ids: [tag.id],
      },
    })
  ).data;
  await call('Posts_update', { path: { id: post.id }, body: { status: 'scheduled', published_at: '2027-01-01T09:00:00Z' } });
  const found = await call('Posts_list', { query: { search: 'schedule', tag: 'postgres', order_by: 'title', order: 'asc' } });
  const categories = (await call('PostCategories_list', {})).data;
  const tags = (await call('PostTags_list', {})).data;
  seen.push((await call('Posts_get', { path: { id: post.id } })).data.slug, String(found.data.length), String(categories.length + tags.length));
  seen.push((await call('PostCategories_get', { path: { id: category.id } })).data.name, (await call('PostTags_get', { path: { id: tag.id } })).data.slug);
  // History: the newest revision first, one with its content, and a restore (the post again).
  const revisions = (await call('PostRevisions_list', { path: { id: post.id }, query: { limit: 10 } })).data;
  const oldest = revisions[revisions.length - 1]!;
  const revision = (await call('PostRevisions_get', { path: { id: post.id, revisionId: oldest.id } })).data;
  const restored = (await call('PostRevisions_restore', { path: { id: post.id, revisionId: revision.id } })).data;
  seen.push(revision.status, String(revision.tag_ids.length), String(revision.content.length), restored.title);
  // A preview link (a day unless asked), opened without a key; the Atom feed of a publishable key.
  const preview = (await call('PostPreviewLinks_create', { path: { id: post.id }, body: { expires_in_minutes: 60 } })).data;
  const token = preview.url.slice(preview.url.lastIndexOf('/') + 1);
  seen.push(preview.expires_at, (await call('PublicPosts_preview', { path: { token } })).data.status);
  const atom: string = await call('PublicPosts_atom', { query: { key: 'alm_pub_0123456789abcdefghijABCDEFGHIJ01' } });
  seen.push(atom);
  await call('Posts_delete', { path: { id: post.id } });
  await call('PostTags_delete', { path: { id: tag.id } });
  await call('PostCategories_delete', { path: { id: category.id } });

  // Admin: the calendar integration and the import.
  const integration = (await call('CalendarIntegration_put', { path: { organizationId }, body: { provider: 'ics', url: 'https://calendar.example.com/team.ics', schedule_id: schedule.id } })).data;
  const lastSynced: string | null = (await call('CalendarIntegration_get', { path: { organizationId } })).data.last_synced_at;
  const imported = await call('SyncExternal_sync', { body: { organizationId, startDate: '2027-03-01', endDate: '2027-04-01T00:00:00Z' } });
  const conflicts: number = imported.skipped_reasons.conflict;
  seen.push(integration.name, lastSynced ?? 'never', String(imported.synced + conflicts));
  await call('CalendarIntegration_remove', { path: { organizationId } });

  // Webhooks and the change feed.
  const webhook = (await call('Webhooks_create', { body: { url: 'https://example.com/hooks/almanac', events: ['booking.created', 'booking.cancelled'] } })).data;
  const secret: string = webhook.secret;
  await call('Webhooks_update', { path: { id: webhook.id }, body: { enabled: false, description: null } });
  const rotated = (await call('Webhooks_rotate', { path: { id: webhook.id } })).data.secret;
  const ping = (await call('Webhooks_ping', { path: { id: webhook.id } })).data;
  const redelivered = (await call('Webhooks_redeliver', { path: { id: webhook.id, deliveryId: ping.id } })).data;
  const deliveries = await call('Webhooks_deliveries', { path: { id: webhook.id }, query: { status: 'pending', limit: 5 } });
  const hooks = await call('Webhooks_list', {});
  const attempts: number = redelivered.attempts;
  seen.push(secret, rotated, String(attempts), String(deliveries.meta.total), (await call('Webhooks_get', { path: { id: webhook.id } })).data.url, String(hooks.data.length));
  await call('Webhooks_delete', { path: { id: webhook.id } });
  // Availability: when the event type can be booked on the schedule, in the schedule's zone.
  const slots = await call('Slots_list', {
    query: { event_type_id: eventType.id, schedule_id: schedule.id, start: '2027-05-03', end: '2027-05-04', timezone: 'Europe/Paris' },
  });
  seen.push(String(slots.meta.total), slots.data[0]?.local_time ?? 'none');
  // Why a slot is not offered, and holding one while a form is filled in.
  const explained = await call('Slots_list', { query: { event_type_id: eventType.id, schedule_id: schedule.id, explain: true } });
  const why: string = explained.meta.unavailable?.[0]?.reason ?? 'all offered';
  const hold = (await call('Reservations_create', { body: { event_type_id: eventType.id, schedule_id: schedule.id, start_time: '2027-05-04T09:00:00Z', ttl_minutes: 5 } })).data;
  const heldUntil: string = (await call('Reservations_get', { path: { id: hold.id } })).data.expires_at;
  const released: boolean = (await call('Reservations_release', { path: { id: hold.id } })).data.deleted;
  seen.push(why, heldUntil, String(released));

  // The admin console's session endpoints.
  const adminKey = (await call('AdminApiKeys_create', { path: { organizationId }, body: { name: 'CI', scopes: ['bookings:read'] } })).data;
  const keys = await call('AdminApiKeys_list', { path: { organizationId }, query: { limit: 10 } });
  const keyName: string = (await call('AdminApiKeys_get', { path: { organizationId, id: adminKey.id } })).data.name;
  seen.push(keyName);
  const revokedAt: string | null = (await call('AdminApiKeys_revoke', { path: { organizationId, id: adminKey.id } })).data.revoked_at;
  seen.push(adminKey.key, String(keys.meta.total), revokedAt ?? 'not revoked');
  const adminSchedules = await call('AdminSchedules_list', { path: { organizationId } });
  const runs = await call('CalendarSyncs_list', { path: { organizationId } });
  seen.push(String(adminSchedules.meta.total), runs.data[0]?.status ?? 'none');
  const adminHook = (await call('AdminWebhooks_create', { path: { organizationId }, body: { url: 'https://example.com/hooks/console', events: ['*'] } })).data;
  await call('AdminWebhooks_update', { path: { organizationId, id: adminHook.id }, body: { enabled: false } });
  const hookEnabled: boolean = (await call('AdminWebhooks_get', { path: { organizationId, id: adminHook.id } })).data.enabled;
  seen.push(String(hookEnabled));
  const adminPing = (await call('AdminWebhooks_ping', { path: { organizationId, id: adminHook.id } })).data;
  await call('AdminWebhooks_redeliver', { path: { organizationId, id: adminHook.id, deliveryId: adminPing.id } });
  const adminDeliveries = await call('AdminWebhooks_deliveries', { path: { organizationId, id: adminHook.id } });
  const adminHooks = await call('AdminWebhooks_list', { path: { organizationId } });
  seen.push(adminHook.secret, String(adminDeliveries.meta.total), String(adminHooks.data.length));
  const rotatedSecret: string = (await call('AdminWebhooks_rotate', { path: { organizationId, id: adminHook.id } })).data.secret;
  const hookDeleted: boolean = (await call('AdminWebhooks_delete', { path: { organizationId, id: adminHook.id } })).data.deleted;
  seen.push(rotatedSecret, String(hookDeleted));
  const audit = await call('AuditLog_list', { path: { organizationId }, query: { action: 'webhook.secret_rotated', limit: 10 } });
  const rotatedBy: string = audit.data[0]?.actor?.name ?? 'nobody';
  const auditTarget: string = audit.data[0]?.target.id ?? 'none';
  // @ts-expect-error an action the log does not record
  await call('AuditLog_list', { path: { organizationId }, query: { action: 'webhook.pinged' } });
  const erased = (await call('Erasures_erase', { path: { organizationId }, body: { email: 'ada@example.com' } })).data;
  const metrics: string = await call('Metrics_scrape', {});
  seen.push(rotatedBy, auditTarget, String(erased.bookings + erased.registrations), erased.at, metrics);

  const changes = await call('Changes_page', { query: { limit: 100 } });
  const cursor: string | null = changes.meta.next_cursor;
  seen.push(cursor ?? 'end', ...changes.data.map((change: components['schemas']['ChangeEvent']) => change.type));

  await call('CalendarFeeds_delete', { path: { id: schedule.id } });
  await call('EventTypes_delete', { path: { id: eventType.id } });
  await call('Schedules_delete', { path: { id: schedule.id } });
  const signedOut: undefined = await call('Auth_logout', {});
  seen.push(String(signedOut));
  return seen;
}

/** Requests the generated types must refuse: each line fails to compile, or `tsc` reports the directive unused. */
export async function refused(id: string): Promise<void> {
  // @ts-expect-error a create without its required field
  await call('Schedules_create', { body: { timezone: 'UTC' } });
  // @ts-expect-error a field the server does not know (additionalProperties: false)
  await call('Schedules_create', { body: { name: 'A', colour: 'red' } });
  // @ts-expect-error a number as a string
  await call('EventTypes_create', { body: { title: 'T', duration: '30' } });
  // @ts-expect-error null for a field that cannot be cleared
  await call('Events_update', { path: { id }, body: { timezone: null } });
  // @ts-expect-error metadata values are scalars
  await call('Bookings_update', { path: { id }, body: { metadata: { nested: { a: 1 } } } });
  // @ts-expect-error a status that does not exist
  await call('Bookings_list', { query: { status: 'DONE' } });
  // @ts-expect-error a path parameter is required
  await call('Schedules_get', {});
}
