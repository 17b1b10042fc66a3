import type request from 'supertest';
import type { DocumentedOperation } from '@almanac/shared/testing';
import type { TestApp } from '../support/test-app';

export const ORIGIN = 'http://localhost:3000';

/** One record of every kind, in one organization, with an admin signed in. */
export interface Records {
  orgId: string;
  auth: Record<string, string>;
  cookie: string;
  scheduleId: string;
  bookingId: string;
  /** A recurring series of two bookings. */
  seriesId: string;
  eventTypeId: string;
  /** A reservation of a slot of the event type on the schedule (held 30 minutes). */
  reservationId: string;
  eventId: string;
  registrationId: string;
  categoryId: string;
  tagId: string;
  postId: string;
  webhookId: string;
  deliveryId: string;
  apiKeyId: string;
  /** A revision of the post. */
  revisionId: string;
  /** The token of a preview link to the post. */
  previewToken: string;
  /** The manage token of a booking of the event type (its attendee's routes). */
  manageToken: string;
}

let counter = 0;

/** A unique suffix for slugs, e-mails and times. */
export function unique(): number {
  counter += 1;
  return counter;
}

/** Creates the records through the API (the apps need `webhookAllowPrivateHosts` for the webhook). */
export async function createRecords(t: TestApp): Promise<Records> {
  const tenant = await t.tenant();
  const auth = tenant.auth;
  const n = unique();
  const email = `openapi-admin-${n}@example.com`;
  await t.identity.createUser({ organizationId: tenant.orgId, email, name: 'Admin', password: 'correct horse battery', role: 'admin' });
  const login = await t.api.post('/api/auth/login').set('Origin', ORIGIN).send({ email, password: 'correct horse battery' }).expect(200);
  const cookie = String(login.headers['set-cookie']![0]).split(';')[0]!;
  const id = (response: request.Response) => (response.body as { data: { id: string } }).data.id;
  const scheduleId = id(await t.api.post('/api/v1/schedules').set(auth).send({ name: 'Front desk' }).expect(201));
  const bookingId = id(
    await t.api
      .post('/api/v1/bookings')
      .set(auth)
      .send({ schedule_id: scheduleId, start_time: '2027-05-03T09:00:00Z', end_time: '2027-05-03T09:30:00Z', attendee: { name: 'Ada', email: 'ada@example.com' } })
      .expect(201),
  );
  const seriesId = (
    await t.api
      .post('/api/v1/bookings')
      .set(auth)
      .send({
        schedule_id: scheduleId,
        start_time: '2027-05-04T09:00:00Z',
        end_time: '2027-05-04T09:30:00Z',
        attendee: { name: 'Ada', email: 'ada@example.com' },
        recurrence: { frequency: 'weekly', count: 2 },
      })
      .expect(201)
  ).body.data.series_id as string;
  const eventTypeId = id(await t.api.post('/api/v1/event-types').set(auth).send({ title: 'Intro call', duration: 30 }).expect(201));
  const managed = await t.api
    .post('/api/v1/bookings')
    .set(auth)
    .send({ schedule_id: scheduleId, event_type_id: eventTypeId, start_time: '2027-06-07T13:00:00Z', end_time: '2027-06-07T13:30:00Z', attendee: { name: 'Ada', email: 'ada@example.com' } })
    .expect(201);
  const manageToken = (managed.body as { data: { manage_token: string } }).data.manage_token;
  const reservationId = id(
    await t.api
      .post('/api/v1/slots/reservations')
      .set(auth)
      .send({ event_type_id: eventTypeId, schedule_id: scheduleId, start_time: new Date(t.clock.now().getTime() + 3 * 86_400_000).toISOString().slice(0, 11) + '12:00:00Z', ttl_minutes: 30 })
      .expect(201),
  );
  const eventId = id(await t.api.post('/api/v1/events').set(auth).send({ title: 'Meetup', start_date: '2027-06-01', status: 'published', slots: 100 }).expect(201));
  const registrationId = id(await t.api.post(`/api/v1/events/${eventId}/registrations`).set(auth).send({ name: 'Grace', email: 'grace@example.com' }).expect(201));
  const categoryId = id(await t.api.post('/api/v1/posts/categories').set(auth).send({ name: `Category ${n}` }).expect(201));
  const tagId = id(await t.api.post('/api/v1/posts/tags').set(auth).send({ name: `Tag ${n}` }).expect(201));
  const postId = id(await t.api.post('/api/v1/posts').set(auth).send({ title: 'Hello', slug: `hello-${n}` }).expect(201));
  const webhookId = id(await t.api.post('/api/v1/webhooks').set(auth).send({ url: 'http://127.0.0.1:9/hook', events: ['post.published'] }).expect(201));
  const deliveryId = id(await t.api.post(`/api/v1/webhooks/${webhookId}/ping`).set(auth).expect(200));
  const apiKeyId = id(
    await t.api.post(`/api/organizations/${tenant.orgId}/api-keys`).set('Cookie', cookie).set('Origin', ORIGIN).send({ name: 'Spare' }).expect(201),
  );
  const revisionId = (await t.api.get(`/api/v1/posts/${postId}/revisions`).set(auth).expect(200)).body.data[0].id as string;
  const previewUrl = (await t.api.post(`/api/v1/posts/${postId}/preview-link`).set(auth).expect(201)).body.data.url as string;
  const previewToken = previewUrl.slice(previewUrl.lastIndexOf('/') + 1);
  return { orgId: tenant.orgId, auth, cookie, scheduleId, bookingId, seriesId, eventTypeId, reservationId, eventId, registrationId, categoryId, tagId, postId, webhookId, deliveryId, apiKeyId, revisionId, previewToken, manageToken };
}

const ID_BY_COLLECTION: Record<string, keyof Records> = {
  schedules: 'scheduleId',
  bookings: 'bookingId',
  'booking-series': 'seriesId',
  'event-types': 'eventTypeId',
  events: 'eventId',
  categories: 'categoryId',
  tags: 'tagId',
  posts: 'postId',
  webhooks: 'webhookId',
  'api-keys': 'apiKeyId',
  reservations: 'reservationId',
};
const ID_BY_NAME: Record<string, keyof Records> = {
  eventId: 'eventId',
  registrationId: 'registrationId',
  deliveryId: 'deliveryId',
  organizationId: 'orgId',
  revisionId: 'revisionId',
};
/** A `{token}` in an address: which secret, by the collection before it. */
const TOKEN_BY_COLLECTION: Record<string, keyof Records> = {
  previews: 'previewToken',
  bookings: 'manageToken',
};

/** The record a path parameter of a template names: `{id}` after `/bookings` is the booking. */
export function pathValues(template: string, records: Records): Record<string, string> {
  const values: Record<string, string> = {};
  const segments = template.split('/');
  segments.forEach((segment, index) => {
    const name = /^\{(.+)\}$/.exec(segment)?.[1];
    if (!name) return;
    const collection = segments[index - 1]!;
    const key = name === 'token' ? TOKEN_BY_COLLECTION[collection] : (ID_BY_NAME[name] ?? ID_BY_COLLECTION[collection]);
    if (!key) throw new Error(`no record for {${name}} in ${template}`);
    values[name] = records[key] as string;
  });
  return values;
}

export function fillPath(template: string, values: Record<string, string>): string {
  return template.replace(/\{([^}]+)\}/g, (_, name: string) => encodeURIComponent(values[name]!));
}

/** A request to an operation through the checked client, with the credentials its path takes. */
export function call(t: TestApp, operation: DocumentedOperation, path: string, records: Records): request.Test {
  const test = t.api[operation.method as 'get' | 'post' | 'put' | 'patch' | 'delete'](path);
  if (operation.path.startsWith('/api/v1/')) return test.set(records.auth);
  if (operation.path.startsWith('/api/')) return test.set('Cookie', records.cookie).set('Origin', ORIGIN);
  return test;
}

/** A body each operation that takes one accepts (made unique where the server wants unique values). */
export function validBody(operationId: string, records: Records): Record<string, unknown> {
  const n = unique();
  const bodies: Record<string, () => Record<string, unknown>> = {
    Auth_login: () => ({ email: 'nobody@example.com', password: 'wrong' }),
    Schedules_create: () => ({ name: `Schedule ${n}` }),
    Schedules_update: () => ({ name: `Renamed ${n}` }),
    Bookings_create: () => ({
      schedule_id: records.scheduleId,
      start_time: `2028-01-01T${String(n % 24).padStart(2, '0')}:00:00Z`,
      end_time: `2028-01-01T${String(n % 24).padStart(2, '0')}:30:00Z`,
      attendee: { name: 'Ada', email: 'ada@example.com' },
    }),
    Bookings_update: () => ({ title: `Call ${n}` }),
    // A slot of its own for each: every half hour of 2028-02 and after.
    Reservations_create: () => ({
      event_type_id: records.eventTypeId,
      schedule_id: records.scheduleId,
      start_time: new Date(Date.UTC(2028, 1, 1) + n * 1_800_000).toISOString(),
    }),
    EventTypes_create: () => ({ title: `Type ${n}`, duration: 45 }),
    EventTypes_update: () => ({ duration: 60 }),
    Events_create: () => ({ title: `Event ${n}`, start_date: '2027-07-01' }),
    Events_update: () => ({ location: `Room ${n}` }),
    Registrations_create: () => ({ name: 'Katherine', email: `k${n}@example.com` }),
    PostCategories_create: () => ({ name: `Category ${n}` }),
    PostCategories_update: () => ({ name: `Category ${n}` }),
    PostTags_create: () => ({ name: `Tag ${n}` }),
    PostTags_update: () => ({ name: `Tag ${n}` }),
    Posts_create: () => ({ title: `Post ${n}`, slug: `post-${n}` }),
    Posts_update: () => ({ excerpt: `Excerpt ${n}` }),
    Webhooks_create: () => ({ url: 'http://127.0.0.1:9/other', events: ['*'] }),
    Webhooks_update: () => ({ description: `Hook ${n}` }),
    CalendarIntegration_put: () => ({ provider: 'ics', url: 'http://127.0.0.1:9/feed.ics', schedule_id: records.scheduleId }),
    SyncExternal_sync: () => ({ organizationId: records.orgId }),
    AdminApiKeys_create: () => ({ name: `Key ${n}`, scopes: ['bookings:read'] }),
    PostPreviewLinks_create: () => ({ expires_in_minutes: 60 }),
    // The booking may be moved many times (to a time nobody holds) before a cancel, and cancelled again.
    PublicBookings_reschedule: () => ({ start_time: `2028-02-01T${String(n % 24).padStart(2, '0')}:00:00Z` }),
    PublicBookings_cancel: () => ({ reason: `Reason ${n}` }),
    AdminWebhooks_create: () => ({ url: 'http://127.0.0.1:9/console', events: ['*'] }),
    AdminWebhooks_update: () => ({ description: `Console hook ${n}` }),
    Erasures_erase: () => ({ email: `nobody${n}@example.com` }),
  };
  const make = bodies[operationId];
  if (!make) throw new Error(`no valid body for ${operationId}`);
  return make();
}
