'use strict';
// Events and registrations on the floor: libs/events' list query and registration use case, with
// the same statements, the same transaction and row lock, and the same representation.

const { Checks, knownQuery, isPlainObject } = require('./checks');
const { Problem, notFound, validationFailed } = require('./problem');
const {
  newId,
  isUuid,
  moneyFromDecimal,
  EVENT_STATUSES,
  toRegistrationResponse,
  eventListQuery,
  eventByIdQuery,
  registrationInsertQuery,
} = require('./domain');

const MAX_LIMIT = 100;

function slotsRemaining(row) {
  return row.slots === null ? null : Math.max(0, row.slots - row.registration_count);
}

function toListed(row, includeCounts) {
  const base = {
    id: row.id,
    title: row.title,
    description: row.description,
    start_date: row.start_date,
    start_time: row.start_time,
    end_time: row.end_time,
    timezone: row.timezone,
    location: row.location,
    cost: moneyFromDecimal(row.cost),
    slots: row.slots,
    status: row.status,
    site_id: row.site_id,
    waitlist_enabled: row.waitlist_enabled,
    created_at: row.created_at.toISOString(),
    updated_at: row.updated_at.toISOString(),
  };
  return includeCounts
    ? { ...base, registration_count: row.registration_count, slots_remaining: slotsRemaining(row), waitlist_count: row.waitlist_count }
    : base;
}

const LIST_PARAMS = [
  'limit',
  'offset',
  'site_id',
  'status',
  'upcoming',
  'past',
  'start_date',
  'end_date',
  'include_counts',
];

async function list({ pool, principal, query: raw }) {
  const query = knownQuery(raw, LIST_PARAMS);
  const c = new Checks();
  const limitIn = c.queryInt(query, 'limit', 1);
  const offsetIn = c.queryInt(query, 'offset', 0);
  const siteId = c.queryString(query, 'site_id', { max: 200 });
  const status = c.queryOneOf(query, 'status', EVENT_STATUSES);
  const upcoming = c.queryBool(query, 'upcoming');
  const past = c.queryBool(query, 'past');
  const startDate = c.queryDateOrDateTime(query, 'start_date');
  const endDate = c.queryDateOrDateTime(query, 'end_date');
  const includeCounts = c.queryBool(query, 'include_counts');
  if (!c.ok) throw validationFailed(c.errors);
  if (upcoming === true && past === true) {
    const message = 'upcoming=true and past=true cannot be combined';
    throw validationFailed([
      { field: 'upcoming', message },
      { field: 'past', message },
    ]);
  }
  const page = { limit: Math.min(limitIn ?? 50, MAX_LIMIT), offset: offsetIn ?? 0 };
  const now = new Date();

  // EventsService.list → EventsRepository.list: the statement from the API's own builder.
  const filter = {
    siteId,
    status,
    endsAfter: upcoming ? now : undefined,
    endedBy: past ? now : undefined,
    fromDate: startDate?.slice(0, 10),
    toDate: endDate?.slice(0, 10),
  };
  const sql = eventListQuery(principal.organizationId, filter, page);
  const result = await pool.query(sql.text, sql.values);
  const total = Number(result.rows[0]?.total ?? 0);
  const rows = result.rows.filter((row) => row.id !== null);
  const data = rows.map((row) => toListed(row, includeCounts === true));
  return {
    body: {
      data,
      meta: { total, limit: page.limit, offset: page.offset, hasMore: page.offset + data.length < total },
    },
  };
}

const REGISTRATION_FIELDS = ['name', 'email'];

async function register({ pool, principal, params, body }) {
  if (!isUuid(params.eventId)) throw notFound('Event');
  const c = new Checks();
  if (!isPlainObject(body)) throw validationFailed([{ field: 'body', message: 'must be an object' }]);
  c.onlyKnown(body, REGISTRATION_FIELDS);
  if (body.name === undefined || body.name === null) c.fail('name', 'is required');
  else {
    c.string(body, 'name', 'name', { min: 1, max: 300 });
    if (typeof body.name === 'string' && !/\S/.test(body.name)) c.fail('name', 'must not be blank');
  }
  if (body.email === undefined || body.email === null) c.fail('email', 'is required');
  else c.email(body, 'email', 'email', { required: true, max: 254 });
  if (!c.ok) throw validationFailed(c.errors);

  const organizationId = principal.organizationId;
  const eventId = params.eventId;
  const client = await pool.connect();
  let registration;
  try {
    await client.query('START TRANSACTION');
    try {
      const eventQuery = eventByIdQuery(organizationId, eventId, true);
      const { rows } = await client.query(eventQuery.text, eventQuery.values);
      const event = rows[0];
      if (!event) throw notFound('Event');
      moneyFromDecimal(event.cost);
      if (event.status !== 'published') {
        throw new Problem(
          409,
          'event_not_open',
          `Only published events accept registrations; this event is ${event.status}.`,
        );
      }
      if (slotsRemaining(event) === 0)
        throw new Problem(409, 'event_full', 'Every place of this event is taken.');
      registration = {
        id: newId(),
        organizationId,
        eventId,
        name: body.name,
        email: body.email,
        status: 'active',
        createdAt: new Date(),
        cancelledAt: null,
        position: null,
      };
      const insert = registrationInsertQuery(registration);
      try {
        await client.query(insert.text, insert.values);
      } catch (error) {
        if (error.code === '23505' && error.constraint === 'event_registrations_active_email_key') {
          throw new Problem(
            409,
            'already_registered',
            'This e-mail address is already registered for the event.',
          );
        }
        if (error.code === '23514' && error.constraint === 'events_registrations_within_slots') {
          throw new Problem(409, 'event_full', 'Every place of this event is taken.');
        }
        throw error;
      }
      await client.query('COMMIT');
    } catch (error) {
      await client.query('ROLLBACK');
      throw error;
    }
  } finally {
    client.release();
  }
  return {
    status: 201,
    location: `/api/v1/events/${eventId}/registrations/${registration.id}`,
    body: { data: toRegistrationResponse(registration) },
  };
}

module.exports = { list, register };
