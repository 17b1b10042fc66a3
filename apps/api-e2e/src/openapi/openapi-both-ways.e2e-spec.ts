import { OpenApiSchemas } from '@almanac/shared/testing';
import { createTestApp, TestApp } from '../support/test-app';
import { call, createRecords, fillPath, pathValues, Records, unique, validBody } from './records';

type Json = Record<string, unknown>;
type Body = Record<string, unknown>;

interface BodyCase {
  operationId: string;
  why: string;
  body: (r: Records) => Body;
  /** The field the server's 400 names (errors[].field). */
  field: string;
}

const metadata = (keys: number, value: unknown = 1): Body => Object.fromEntries(Array.from({ length: keys }, (_, i) => [`key${i}`, value]));
const booking = (r: Records, extra: Body = {}, attendee: Body = {}): Body => ({
  schedule_id: r.scheduleId,
  start_time: '2029-01-01T10:00:00Z',
  end_time: '2029-01-01T11:00:00Z',
  attendee: { name: 'Ada', email: 'ada@example.com', ...attendee },
  ...extra,
});
const event = (extra: Body = {}): Body => ({ title: 'Event', start_date: '2027-08-01', ...extra });
const post = (extra: Body = {}): Body => ({ title: 'Post', slug: `refused-${unique()}`, ...extra });

/**
 * Bodies the server refuses with 400 `validation_failed`, each for one rule the document states: the
 * same body is sent to the server and validated against the document, and both must refuse it.
 */
const REFUSED: BodyCase[] = [
  { operationId: 'Schedules_create', why: 'a missing required field', body: () => ({}), field: 'name' },
  { operationId: 'Schedules_create', why: 'blank text', body: () => ({ name: '  \t ' }), field: 'name' },
  { operationId: 'Schedules_create', why: 'an unknown field', body: () => ({ name: 'A', colour: 'red' }), field: 'colour' },
  { operationId: 'Schedules_create', why: 'text over its length', body: () => ({ name: 'x'.repeat(301) }), field: 'name' },
  { operationId: 'Schedules_create', why: 'a time zone that is no IANA name', body: () => ({ name: 'A', timezone: 'UTC+1 summer' }), field: 'timezone' },
  { operationId: 'Schedules_create', why: 'an override date with month 34 and day 37', body: () => ({ name: 'A', date_overrides: [{ date: '0883-34-37', intervals: [] }] }), field: 'date_overrides' },
  { operationId: 'Schedules_create', why: 'an override on February 29 of a common year', body: () => ({ name: 'A', date_overrides: [{ date: '2027-02-29', intervals: [] }] }), field: 'date_overrides' },
  { operationId: 'Schedules_create', why: 'an override date in year 0', body: () => ({ name: 'A', date_overrides: [{ date: '0000-01-01', intervals: [] }] }), field: 'date_overrides' },
  { operationId: 'Schedules_update', why: 'null for a field that cannot be cleared', body: () => ({ name: null }), field: 'name' },
  { operationId: 'EventTypes_create', why: 'a fractional duration', body: () => ({ title: 'T', duration: 30.5 }), field: 'duration' },
  { operationId: 'EventTypes_create', why: 'a duration under 1', body: () => ({ title: 'T', duration: 0 }), field: 'duration' },
  { operationId: 'EventTypes_create', why: 'a duration over 1440', body: () => ({ title: 'T', duration: 1441 }), field: 'duration' },
  { operationId: 'EventTypes_create', why: 'a number sent as a string', body: () => ({ title: 'T', duration: '30' }), field: 'duration' },
  { operationId: 'EventTypes_create', why: 'a colour that is not hex', body: () => ({ title: 'T', duration: 30, color: 'blue' }), field: 'color' },
  { operationId: 'EventTypes_create', why: 'a slug with capitals', body: () => ({ title: 'T', duration: 30, slug: 'Intro-Call' }), field: 'slug' },
  { operationId: 'EventTypes_create', why: 'a slug with a double hyphen', body: () => ({ title: 'T', duration: 30, slug: 'intro--call' }), field: 'slug' },
  { operationId: 'EventTypes_create', why: 'empty text', body: () => ({ title: '', duration: 30 }), field: 'title' },
  { operationId: 'EventTypes_create', why: 'a null slug (absent generates one)', body: () => ({ title: 'T', duration: 30, slug: null }), field: 'slug' },
  { operationId: 'EventTypes_update', why: 'a location type not in the list', body: () => ({ location_type: 'carrier-pigeon' }), field: 'location_type' },
  { operationId: 'Bookings_create', why: 'a date-time without a zone', body: (r) => booking(r, { start_time: '2029-01-01T10:00:00' }), field: 'start_time' },
  { operationId: 'Bookings_create', why: 'a date-time without a time', body: (r) => booking(r, { end_time: '2029-01-01' }), field: 'end_time' },
  { operationId: 'Bookings_create', why: 'an unknown attendee field', body: (r) => booking(r, {}, { age: 36 }), field: 'attendee.age' },
  { operationId: 'Bookings_create', why: 'an attendee e-mail that is none', body: (r) => booking(r, {}, { email: 'ada at example' }), field: 'attendee.email' },
  { operationId: 'Bookings_create', why: 'a blank attendee name', body: (r) => booking(r, {}, { name: ' ' }), field: 'attendee.name' },
  { operationId: 'Bookings_create', why: 'an empty attendee phone', body: (r) => booking(r, {}, { phone: '' }), field: 'attendee.phone' },
  { operationId: 'Bookings_create', why: 'metadata with 51 keys', body: (r) => booking(r, { metadata: metadata(51) }), field: 'metadata' },
  { operationId: 'Bookings_create', why: 'a metadata key of 41 characters', body: (r) => booking(r, { metadata: { ['k'.repeat(41)]: 1 } }), field: 'metadata' },
  { operationId: 'Bookings_create', why: 'an empty metadata key', body: (r) => booking(r, { metadata: { '': 1 } }), field: 'metadata' },
  { operationId: 'Bookings_create', why: 'a metadata object value', body: (r) => booking(r, { metadata: { nested: { a: 1 } } }), field: 'metadata' },
  { operationId: 'Bookings_create', why: 'a series of 53', body: (r) => booking(r, { recurrence: { frequency: 'weekly', count: 53 } }), field: 'recurrence.count' },
  { operationId: 'Bookings_create', why: 'a series every 0 days', body: (r) => booking(r, { recurrence: { frequency: 'daily', interval: 0, count: 3 } }), field: 'recurrence.interval' },
  { operationId: 'Bookings_create', why: 'a yearly series', body: (r) => booking(r, { recurrence: { frequency: 'yearly', count: 3 } }), field: 'recurrence.frequency' },
  { operationId: 'Bookings_create', why: 'an unknown recurrence member', body: (r) => booking(r, { recurrence: { frequency: 'daily', count: 3, until: '2029-02-01' } }), field: 'recurrence.until' },
  { operationId: 'Bookings_create', why: 'on_conflict other than skip', body: (r) => booking(r, { recurrence: { frequency: 'daily', count: 3 }, on_conflict: 'fail' }), field: 'on_conflict' },
  { operationId: 'Bookings_create', why: 'on_conflict without recurrence', body: (r) => booking(r, { on_conflict: 'skip' }), field: 'on_conflict' },
  { operationId: 'Bookings_create', why: 'a metadata array value', body: (r) => booking(r, { metadata: { list: [1, 2] } }), field: 'metadata' },
  { operationId: 'Bookings_create', why: 'a metadata string of 501 characters', body: (r) => booking(r, { metadata: { note: 'x'.repeat(501) } }), field: 'metadata' },
  { operationId: 'Bookings_create', why: 'metadata that is an array', body: (r) => booking(r, { metadata: ['a'] }), field: 'metadata' },
  { operationId: 'Bookings_update', why: 'start_time without end_time', body: () => ({ start_time: '2029-02-01T10:00:00Z' }), field: 'end_time' },
  { operationId: 'Bookings_update', why: 'end_time without start_time', body: () => ({ end_time: '2029-02-01T10:00:00Z' }), field: 'start_time' },
  { operationId: 'Bookings_update', why: 'a status not in the list', body: () => ({ status: 'DONE' }), field: 'status' },
  { operationId: 'Bookings_update', why: 'null metadata', body: () => ({ metadata: null }), field: 'metadata' },
  { operationId: 'Events_create', why: 'a date that does not exist', body: () => event({ start_date: '2027-02-30' }), field: 'start_date' },
  { operationId: 'Events_create', why: 'a year before 1000', body: () => event({ start_date: '0999-12-01' }), field: 'start_date' },
  { operationId: 'Events_create', why: 'a time of 24:00', body: () => event({ start_time: '24:00' }), field: 'start_time' },
  { operationId: 'Events_create', why: 'an end time without a start time', body: () => event({ end_time: '18:00' }), field: 'end_time' },
  { operationId: 'Events_create', why: 'a negative cost', body: () => event({ cost: -1 }), field: 'cost' },
  { operationId: 'Events_create', why: 'a cost sent as a string', body: () => event({ cost: '19.99' }), field: 'cost' },
  { operationId: 'Events_create', why: 'a cost over the maximum', body: () => event({ cost: 10_000_000_000 }), field: 'cost' },
  { operationId: 'Events_create', why: 'zero slots', body: () => event({ slots: 0 }), field: 'slots' },
  { operationId: 'Events_create', why: 'fractional slots', body: () => event({ slots: 2.5 }), field: 'slots' },
  { operationId: 'Events_create', why: 'an empty site id', body: () => event({ site_id: '' }), field: 'site_id' },
  { operationId: 'Events_update', why: 'a null time zone', body: () => ({ timezone: null }), field: 'timezone' },
  { operationId: 'Events_update', why: 'a status not in the list', body: () => ({ status: 'archived' }), field: 'status' },
  { operationId: 'Registrations_create', why: 'an e-mail that is none', body: () => ({ name: 'Ada', email: 'not-an-email' }), field: 'email' },
  { operationId: 'Registrations_create', why: 'a blank name', body: () => ({ name: '   ', email: 'ada@example.com' }), field: 'name' },
  { operationId: 'Posts_create', why: 'a heading level of 7', body: () => post({ content: [{ type: 'heading', level: 7, text: 'Hi' }] }), field: 'content[0].level' },
  { operationId: 'Posts_create', why: 'an unknown field in a content block', body: () => post({ content: [{ type: 'paragraph', text: 'Hi', bold: true }] }), field: 'content[0].bold' },
  { operationId: 'Posts_create', why: 'an empty list block', body: () => post({ content: [{ type: 'list', items: [] }] }), field: 'content[0].items' },
  { operationId: 'Posts_create', why: 'an image URL that is not http(s)', body: () => post({ content: [{ type: 'image', url: 'ftp://cdn.example.com/a.png', alt: '' }] }), field: 'content[0].url' },
  { operationId: 'Posts_create', why: 'a relative featured image URL', body: () => post({ featured_image_url: '/cover.jpg' }), field: 'featured_image_url' },
  { operationId: 'Posts_create', why: 'a tag id that is no UUID', body: () => post({ tag_ids: ['engineering'] }), field: 'tag_ids' },
  { operationId: 'Posts_create', why: 'the same tag twice', body: (r) => post({ tag_ids: [r.tagId, r.tagId] }), field: 'tag_ids' },
  { operationId: 'Posts_create', why: 'scheduled without a publication date', body: () => post({ status: 'scheduled' }), field: 'published_at' },
  { operationId: 'Posts_create', why: 'null content', body: () => post({ content: null }), field: 'content' },
  { operationId: 'Posts_update', why: 'a slug with a trailing hyphen', body: () => ({ slug: 'hello-' }), field: 'slug' },
  { operationId: 'PostCategories_create', why: 'a slug with a space', body: () => ({ name: 'C', slug: 'a b' }), field: 'slug' },
  { operationId: 'PostTags_update', why: 'a blank name', body: () => ({ name: ' ' }), field: 'name' },
  { operationId: 'Webhooks_create', why: 'a URL that is none', body: () => ({ url: 'not a url', events: ['*'] }), field: 'url' },
  { operationId: 'Webhooks_create', why: 'no event', body: () => ({ url: 'http://127.0.0.1:9/x', events: [] }), field: 'events' },
  { operationId: 'Webhooks_create', why: 'an unknown event', body: () => ({ url: 'http://127.0.0.1:9/x', events: ['booking.exploded'] }), field: 'events' },
  { operationId: 'Webhooks_create', why: 'a description that is not text', body: () => ({ url: 'http://127.0.0.1:9/x', events: ['*'], description: { text: 'x' } }), field: 'description' },
  { operationId: 'Webhooks_update', why: 'enabled as a string', body: () => ({ enabled: 'yes' }), field: 'enabled' },
  { operationId: 'Auth_login', why: 'an empty e-mail', body: () => ({ email: '', password: 'x' }), field: 'email' },
  { operationId: 'Auth_login', why: 'an unknown field', body: () => ({ email: 'a@example.com', password: 'x', remember: true }), field: 'remember' },
  { operationId: 'CalendarIntegration_put', why: 'a provider not in the list', body: (r) => ({ provider: 'caldav', url: 'https://example.com/a.ics', schedule_id: r.scheduleId }), field: 'provider' },
  { operationId: 'CalendarIntegration_put', why: 'a schedule id that is no UUID', body: () => ({ provider: 'ics', url: 'https://example.com/a.ics', schedule_id: 'front-desk' }), field: 'schedule_id' },
  { operationId: 'SyncExternal_sync', why: 'a start date in words', body: (r) => ({ organizationId: r.orgId, startDate: 'next monday' }), field: 'startDate' },
  { operationId: 'SyncExternal_sync', why: 'an unknown field', body: (r) => ({ organizationId: r.orgId, dryRun: true }), field: 'dryRun' },
];

/** Bodies at the edges of the rules: the server takes them (2xx) and so does the document. */
const ACCEPTED: Array<Omit<BodyCase, 'field'>> = [
  { operationId: 'Events_create', why: 'cost 19.99 (what multipleOf: 0.01 refused)', body: () => event({ cost: 19.99 }) },
  { operationId: 'Events_create', why: 'cost 0.1', body: () => event({ cost: 0.1 }) },
  { operationId: 'Events_create', why: 'the largest cost', body: () => event({ cost: 9_999_999_999.99 }) },
  { operationId: 'Events_create', why: 'null for the fields that can be cleared', body: () => event({ description: null, start_time: null, end_time: null, location: null, slots: null, site_id: null }) },
  { operationId: 'Events_create', why: 'a start and an end time', body: () => event({ start_time: '18:00', end_time: '21:30', timezone: 'Europe/Paris' }) },
  { operationId: 'Bookings_create', why: 'a date-time to the minute, with a +hhmm offset', body: (r) => booking(r, { start_time: '2029-03-01T10:00+0100', end_time: '2029-03-01T10:30+01:00' }) },
  { operationId: 'Bookings_create', why: 'metadata at every limit', body: (r) => booking(r, { start_time: '2029-03-02T10:00:00Z', end_time: '2029-03-02T11:00:00Z', metadata: { ...metadata(46), ['k'.repeat(40)]: 'x'.repeat(500), none: null, yes: true, half: 0.5 } }) },
  { operationId: 'Bookings_create', why: 'null optional fields', body: (r) => booking(r, { start_time: '2029-03-03T10:00:00Z', end_time: '2029-03-03T11:00:00Z', event_type_id: null, timezone: null, title: null, location: null, location_type: null, metadata: null }) },
  { operationId: 'Bookings_create', why: 'null optional attendee fields', body: (r) => booking(r, { start_time: '2029-03-04T10:00:00Z', end_time: '2029-03-04T11:00:00Z' }, { phone: null, timezone: null, notes: null }) },
  { operationId: 'EventTypes_create', why: 'a #RGB colour, the longest duration and a 100-character slug', body: () => ({ title: 'T', duration: 1440, color: '#AbC', slug: `s${unique()}-${'a'.repeat(90)}`.slice(0, 100) }) },
  { operationId: 'Schedules_create', why: 'a name of 300 characters and a time zone', body: () => ({ name: 'x'.repeat(300), timezone: 'America/Argentina/Buenos_Aires' }) },
  { operationId: 'Schedules_create', why: 'an override on February 29 of a leap year', body: () => ({ name: 'Leap', date_overrides: [{ date: '2028-02-29', intervals: [] }] }) },
  { operationId: 'Posts_create', why: 'every kind of content block', body: () => post({ content: [{ type: 'heading', level: 6, text: 'H' }, { type: 'paragraph', text: '' }, { type: 'image', url: 'HTTPS://cdn.example.com/a.png', alt: '' }, { type: 'list', items: ['a'] }, { type: 'quote', text: 'Q', author: 'A' }] }) },
  { operationId: 'Posts_create', why: 'scheduled with a future date', body: () => post({ status: 'scheduled', published_at: '2099-01-01T00:00:00Z' }) },
  { operationId: 'Webhooks_create', why: 'a null description', body: () => ({ url: 'http://127.0.0.1:9/y', events: ['booking.created'], description: null }) },
  { operationId: 'Bookings_update', why: 'attendee fields cleared with null', body: () => ({ attendee: { phone: null, timezone: null, notes: null } }) },
  { operationId: 'Bookings_update', why: 'a reschedule with both times', body: () => ({ start_time: '2027-05-03T11:00:00Z', end_time: '2027-05-03T11:30:00Z' }) },
];

interface QueryCase {
  operationId: string;
  name: string;
  /** As a client would hold it; the URL carries String(value). */
  value: unknown;
}

const QUERY_REFUSED: QueryCase[] = [
  { operationId: 'Schedules_list', name: 'limit', value: 0 },
  { operationId: 'Schedules_list', name: 'limit', value: 1.5 },
  { operationId: 'Schedules_list', name: 'limit', value: 'ten' },
  { operationId: 'Schedules_list', name: 'offset', value: -1 },
  { operationId: 'Schedules_list', name: 'offset', value: 1_000_000_000_000_000 },
  { operationId: 'Bookings_list', name: 'start_date', value: '2027-13-01' },
  { operationId: 'Bookings_list', name: 'end_date', value: '2027-01-01T10:00:00' },
  { operationId: 'Bookings_list', name: 'schedule_id', value: 'front-desk' },
  { operationId: 'Bookings_list', name: 'status', value: 'DONE' },
  { operationId: 'Events_list', name: 'start_date', value: 'tomorrow' },
  { operationId: 'Posts_list', name: 'category', value: 'Engineering' },
  { operationId: 'Posts_list', name: 'tag', value: '-postgres' },
  { operationId: 'Posts_list', name: 'order_by', value: 'author' },
  { operationId: 'Posts_list', name: 'search', value: 'x'.repeat(501) },
  { operationId: 'Changes_page', name: 'limit', value: 0 },
  { operationId: 'Webhooks_deliveries', name: 'status', value: 'lost' },
  { operationId: 'Changes_page', name: 'after', value: 'not a cursor' },
  { operationId: 'Changes_page', name: 'after', value: '12.' },
  { operationId: 'Changes_page', name: 'after', value: '12345678901234567890.1' },
];

const QUERY_ACCEPTED: QueryCase[] = [
  { operationId: 'Schedules_list', name: 'limit', value: 999_999_999_999_999 },
  { operationId: 'Schedules_list', name: 'offset', value: 999_999_999_999_999 },
  { operationId: 'Bookings_list', name: 'start_date', value: '2027-01-01T10:00+0100' },
  { operationId: 'Posts_list', name: 'category', value: 'engineering-2' },
  { operationId: 'Changes_page', name: 'after', value: '1.0' },
  { operationId: 'Changes_page', name: 'after', value: '9999999999999999999.9999999999999999999' },
];

interface HeaderCase {
  operationId: string;
  name: string;
  value: string;
  /** What the server answers when it takes the value (not a 400). */
  taken: number;
}

/** Header values with a control character (C0, DEL or C1): refused by both. */
const HEADER_REFUSED: Array<Omit<HeaderCase, 'taken'>> = [
  { operationId: 'Schedules_create', name: 'Idempotency-Key', value: 'key\twith a tab' },
  { operationId: 'Schedules_create', name: 'Idempotency-Key', value: 'key\u0085next-line' },
  { operationId: 'Schedules_update', name: 'If-Match', value: '"a\tb"' },
  { operationId: 'Schedules_get', name: 'If-None-Match', value: '"\u0090"' },
];

/** Printable header values (Latin-1 included): taken by both (the server then answers as the header says). */
const HEADER_ACCEPTED: HeaderCase[] = [
  { operationId: 'Schedules_create', name: 'Idempotency-Key', value: 'order 42 / retry: ok', taken: 201 },
  { operationId: 'Schedules_update', name: 'If-Match', value: '"not-the-tag"', taken: 412 },
  { operationId: 'Schedules_get', name: 'If-None-Match', value: 'W/"x", "\u00e9\u00ff"', taken: 200 },
];

describe('OpenAPI document and server refuse and accept the same inputs (e2e)', () => {
  let t: TestApp;
  let schemas: OpenApiSchemas;
  let r: Records;

  beforeAll(async () => {
    t = await createTestApp({ config: { webhookAllowPrivateHosts: true, calendarAllowPrivateHosts: true, webhookDispatcher: false } });
    schemas = new OpenApiSchemas(t.document);
    r = await createRecords(t);
  });
  afterAll(async () => {
    await t.close();
  });

  const bodySchema = (operationId: string): Json => {
    const schema = schemas.requestBodySchema(schemas.operationById(operationId));
    if (!schema) throw new Error(`${operationId} documents no request body`);
    return schema;
  };
  const send = (operationId: string, body: unknown) => {
    const operation = schemas.operationById(operationId);
    return call(t, operation, fillPath(operation.path, pathValues(operation.path, r)), r).send(body as object);
  };
  /** The fields a problem names, each once (a value can break several rules of one field). */
  const fields = (body: unknown) => [...new Set(((body as { errors?: Array<{ field: string }> }).errors ?? []).map((e) => e.field))];

  describe('request bodies refused by both', () => {
    it.each(REFUSED)('$operationId: $why', async ({ operationId, body, field }) => {
      const value = body(r);
      const response = await send(operationId, value);
      expect([response.status, response.body.code]).toEqual([400, 'validation_failed']);
      expect(fields(response.body)).toContain(field);
      expect(schemas.validate(bodySchema(operationId), value)).not.toEqual([]);
    });
  });

  describe('request bodies accepted by both', () => {
    it.each(ACCEPTED)('$operationId: $why', async ({ operationId, body }) => {
      const value = body(r);
      const response = await send(operationId, value);
      expect([response.status, response.body.errors]).toEqual([operationId.endsWith('_create') ? 201 : 200, undefined]);
      expect(schemas.validate(bodySchema(operationId), value)).toEqual([]);
    });
  });

  it('every body property the document lets be null, the server takes as null', async () => {
    const nullable: string[] = [];
    for (const operation of schemas.operations()) {
      const schema = schemas.requestBodySchema(operation);
      const operationId = operation.operation['operationId'] as string;
      if (!schema || operationId === 'Auth_login' || operationId === 'SyncExternal_sync') continue;
      const ref = schema['$ref'] as string;
      const properties = ((t.document['components'] as Json)['schemas'] as Record<string, Json>)[ref.slice('#/components/schemas/'.length)]!['properties'] as Record<string, Json>;
      for (const [name, property] of Object.entries(properties)) {
        const types = ([] as unknown[]).concat(property['type'] ?? []);
        if (!types.includes('null')) continue;
        const body = { ...validBody(operationId, r), [name]: null };
        expect(schemas.validate(schema, body)).toEqual([]);
        const response = await call(t, operation, fillPath(operation.path, pathValues(operation.path, r)), r).send(body);
        expect([operationId, name, response.status < 300 ? 'taken' : response.body]).toEqual([operationId, name, 'taken']);
        nullable.push(`${operationId}.${name}`);
      }
    }
    expect(nullable.length).toBeGreaterThan(40);
  });

  it('every PATCH refuses an empty body, on the server and in the document', async () => {
    const patches = schemas.operations().filter((o) => o.method === 'patch');
    expect(patches.length).toBe(9);
    for (const patch of patches) {
      const response = await call(t, patch, fillPath(patch.path, pathValues(patch.path, r)), r).send({});
      expect([patch.path, response.status, fields(response.body)]).toEqual([patch.path, 400, ['body']]);
      expect(schemas.validate(schemas.requestBodySchema(patch)!, {})).not.toEqual([]);
      // …and takes one field.
      const one = validBody(patch.operation['operationId'] as string, r);
      expect(schemas.validate(schemas.requestBodySchema(patch)!, one)).toEqual([]);
      await call(t, patch, fillPath(patch.path, pathValues(patch.path, r)), r).send(one).expect(200);
    }
  });

  it('every path id that is not a UUID: 404 from the server, invalid in the document', async () => {
    let checked = 0;
    for (const operation of schemas.operations()) {
      for (const parameter of (operation.operation['parameters'] ?? []) as Json[]) {
        if (parameter['in'] !== 'path' || (parameter['schema'] as Json)['format'] !== 'uuid') continue;
        const name = parameter['name'] as string;
        const path = fillPath(operation.path, { ...pathValues(operation.path, r), [name]: 'not-a-uuid' });
        const request = call(t, operation, path, r);
        const takesBody = schemas.requestBodySchema(operation) !== undefined;
        const response = await (takesBody ? request.send(validBody(operation.operation['operationId'] as string, r)) : request);
        expect([operation.method, operation.path, name, response.status]).toEqual([operation.method, operation.path, name, 404]);
        expect(schemas.validate(parameter['schema'] as Json, 'not-a-uuid')).not.toEqual([]);
        checked += 1;
      }
    }
    expect(checked).toBeGreaterThan(40);
  });

  it('every GET answers a NUL character in the query string with the 400 it documents', async () => {
    const gets = schemas.operations().filter((o) => o.method === 'get');
    expect(gets.length).toBe(46);
    for (const operation of gets) {
      const path = operation.path === '/calendar/{file}' ? '/calendar/none.ics' : fillPath(operation.path, pathValues(operation.path, r));
      const response = await call(t, operation, `${path}?q=%00`, r);
      expect([operation.path, response.status, response.body.code]).toEqual([operation.path, 400, 'validation_failed']);
      expect(Object.keys(operation.operation['responses'] as Json)).toContain('400');
    }
  });

  describe('headers the server reads', () => {
    const request = (operationId: string, name: string, value: string) => {
      const operation = schemas.operationById(operationId);
      const test = call(t, operation, fillPath(operation.path, pathValues(operation.path, r)), r).set(name, value);
      return { operation, test: operation.method === 'get' ? test : test.send(validBody(operationId, r)) };
    };

    it.each(HEADER_REFUSED)('$operationId refuses $name: $value, and so does the document', async ({ operationId, name, value }) => {
      const { operation, test } = request(operationId, name, value);
      const response = await test;
      expect([response.status, fields(response.body)]).toEqual([400, [name]]);
      expect(schemas.validate(schemas.parameterSchema(operation, 'header', name), value)).not.toEqual([]);
    });

    it.each(HEADER_ACCEPTED)('$operationId takes $name: $value, and so does the document', async ({ operationId, name, value, taken }) => {
      const { operation, test } = request(operationId, name, value);
      expect((await test).status).toBe(taken);
      expect(schemas.validate(schemas.parameterSchema(operation, 'header', name), value)).toEqual([]);
    });
  });

  describe('query parameters', () => {
    const url = ({ operationId, name, value }: QueryCase) => {
      const operation = schemas.operationById(operationId);
      return { operation, path: `${fillPath(operation.path, pathValues(operation.path, r))}?${name}=${encodeURIComponent(String(value))}` };
    };

    it.each(QUERY_REFUSED)('$operationId refuses ?$name=$value, and so does the document', async (c) => {
      const { operation, path } = url(c);
      const response = await call(t, operation, path, r);
      expect([response.status, fields(response.body)]).toEqual([400, [c.name]]);
      expect(schemas.validate(schemas.parameterSchema(operation, 'query', c.name), c.value)).not.toEqual([]);
    });

    it.each(QUERY_ACCEPTED)('$operationId takes ?$name=$value, and so does the document', async (c) => {
      const { operation, path } = url(c);
      await call(t, operation, path, r).expect(200);
      expect(schemas.validate(schemas.parameterSchema(operation, 'query', c.name), c.value)).toEqual([]);
    });
  });
});
