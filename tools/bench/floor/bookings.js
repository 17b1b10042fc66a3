'use strict';
// Bookings on the floor: libs/scheduling's controller, service, repository and mapper, in one place,
// with the same statements (built by the API's own compiled booking-queries.js) and the same
// representation.

const { Checks, knownQuery, isPlainObject } = require('./checks');
const { Problem, notFound, validationFailed } = require('./problem');
const {
  newId,
  isUuid,
  parseDateOrDateTime,
  isDateTimeWithZone,
  canTransition,
  BOOKING_TRANSITIONS,
  BOOKING_STATUSES,
  isActiveBookingStatus,
  metadataProblems,
  isSupportedInstant,
  LOCATION_TYPES,
  bookingByIdQuery,
  bookingInsertQuery,
  bookingUpdateQuery,
  bookingListQueries,
  bookingReferencesQuery,
} = require('./domain');

const DAY_MS = 24 * 60 * 60 * 1000;
const MAX_LIMIT = 100;

function toResponse(row) {
  return {
    id: row.id,
    schedule_id: row.schedule_id,
    event_type_id: row.event_type_id,
    start_time: row.start_time.toISOString(),
    end_time: row.end_time.toISOString(),
    timezone: row.timezone,
    status: row.status,
    title: row.title,
    location: row.location,
    location_type: row.location_type,
    attendee_name: row.attendee_name,
    attendee_email: row.attendee_email,
    attendee_phone: row.attendee_phone,
    attendee_timezone: row.attendee_timezone,
    attendee_notes: row.attendee_notes,
    metadata: { ...row.metadata },
    buffer_before: row.buffer_before,
    buffer_after: row.buffer_after,
    created_at: row.created_at.toISOString(),
    updated_at: row.updated_at.toISOString(),
    cancelled_at: row.cancelled_at ? row.cancelled_at.toISOString() : null,
  };
}

function translateWriteError(error) {
  if (error.code === '23P01' && error.constraint === 'bookings_no_overlap') {
    return new Problem(409, 'booking_overlap', 'The time overlaps another booking of this schedule.');
  }
  if (error.code === '23503' && error.constraint === 'bookings_schedule_fkey') {
    return new Problem(422, 'invalid_reference', 'The request names a record that does not exist.', [
      { field: 'schedule_id', message: 'does not name a record of this organization' },
    ]);
  }
  return error;
}

async function findById(pool, organizationId, id) {
  const query = bookingByIdQuery(organizationId, id);
  const { rows } = await pool.query(query.text, query.values);
  return rows[0] ?? null;
}

async function get({ pool, principal, params }) {
  if (!isUuid(params.id)) throw notFound('Booking');
  const row = await findById(pool, principal.organizationId, params.id);
  if (!row) throw notFound('Booking');
  return { body: { data: toResponse(row) } };
}

const LIST_PARAMS = [
  'limit',
  'offset',
  'schedule_id',
  'event_type_id',
  'status',
  'upcoming',
  'start_date',
  'end_date',
  'attendee_email',
];

async function list({ pool, principal, query: raw }) {
  const query = knownQuery(raw, LIST_PARAMS);
  const c = new Checks();
  const limitIn = c.queryInt(query, 'limit', 1);
  const offsetIn = c.queryInt(query, 'offset', 0);
  const scheduleId = c.queryUuid(query, 'schedule_id');
  const eventTypeId = c.queryUuid(query, 'event_type_id');
  const status = c.queryOneOf(query, 'status', BOOKING_STATUSES);
  const upcoming = c.queryBool(query, 'upcoming');
  const startDate = c.queryDateOrDateTime(query, 'start_date');
  const endDate = c.queryDateOrDateTime(query, 'end_date');
  const attendeeEmail = c.queryString(query, 'attendee_email', { min: 1, max: 320 });
  if (!c.ok) throw validationFailed(c.errors);
  const page = { limit: Math.min(limitIn ?? 50, MAX_LIMIT), offset: offsetIn ?? 0 };

  // BookingsService.list: the filter, in the same order.
  const filter = {
    scheduleId,
    eventTypeId,
    status,
    startsAtOrAfter: [],
    attendeeEmailContains: attendeeEmail,
  };
  if (upcoming === true) filter.startsAtOrAfter.push(new Date());
  if (startDate !== undefined) filter.startsAtOrAfter.push(parseDateOrDateTime(startDate).instant);
  if (endDate !== undefined) {
    const end = parseDateOrDateTime(endDate);
    if (end.dateOnly) filter.startsBefore = new Date(end.instant.getTime() + DAY_MS);
    else filter.startsAtOrBefore = end.instant;
  }
  // BookingRepository.list through pageWithTotal.
  const queries = bookingListQueries(principal.organizationId, filter, page);
  const { rows } = await pool.query(queries.page.text, queries.page.values);
  let total = 0;
  if (rows.length > 0) total = Number(rows[0].total);
  else if (page.offset > 0) {
    const counted = await pool.query(queries.count.text, queries.count.values);
    total = Number(counted.rows[0]?.total ?? 0);
  }
  const data = rows.map(toResponse);
  return {
    body: {
      data,
      meta: { total, limit: page.limit, offset: page.offset, hasMore: page.offset + data.length < total },
    },
  };
}

const ATTENDEE_FIELDS = ['name', 'email', 'phone', 'timezone', 'notes'];

function checkAttendee(c, attendee, { create }) {
  c.onlyKnown(attendee, ATTENDEE_FIELDS, 'attendee.');
  const nameOrEmail = create ? { required: true } : {};
  if (create || attendee.name !== undefined)
    c.string(attendee, 'name', 'attendee.name', { ...nameOrEmail, max: 300, notBlank: true, required: true });
  if (create || attendee.email !== undefined)
    c.email(attendee, 'email', 'attendee.email', { required: true, max: 320 });
  c.string(attendee, 'phone', 'attendee.phone', { min: 1, max: 50 });
  c.timeZone(attendee, 'timezone', 'attendee.timezone');
  c.string(attendee, 'notes', 'attendee.notes', { max: 5000 });
}

function checkMetadata(c, body, { nullable }) {
  const value = body.metadata;
  if (value === undefined || (value === null && nullable)) return;
  const problems = metadataProblems(value);
  if (problems.length > 0) c.fail('metadata', problems.join('; '));
}

const CREATE_FIELDS = [
  'schedule_id',
  'start_time',
  'end_time',
  'attendee',
  'event_type_id',
  'timezone',
  'title',
  'location',
  'location_type',
  'metadata',
];

/** A zoned date-time whose instant lies in years 0001-9999 (IsSupportedInstant). */
function checkInstant(c, object, key) {
  const value = object[key];
  if (isDateTimeWithZone(value) && !isSupportedInstant(new Date(value))) {
    c.fail(key, 'must lie between 0001-01-01T00:00:00Z and 9999-12-31T23:59:59.999Z');
  }
}

async function create({ pool, principal, body }) {
  const c = new Checks();
  if (!isPlainObject(body)) throw validationFailed([{ field: 'body', message: 'must be an object' }]);
  c.onlyKnown(body, CREATE_FIELDS);
  c.string(body, 'schedule_id', 'schedule_id', { required: true });
  c.dateTimeWithZone(body, 'start_time', 'start_time', { required: true });
  c.dateTimeWithZone(body, 'end_time', 'end_time', { required: true });
  checkInstant(c, body, 'start_time');
  checkInstant(c, body, 'end_time');
  if (
    typeof body.start_time === 'string' &&
    typeof body.end_time === 'string' &&
    Date.parse(body.end_time) <= Date.parse(body.start_time)
  ) {
    c.fail('end_time', 'must be after start_time');
  }
  if (!isPlainObject(body.attendee)) c.fail('attendee', 'must be an object');
  else checkAttendee(c, body.attendee, { create: true });
  c.string(body, 'event_type_id', 'event_type_id');
  c.timeZone(body, 'timezone', 'timezone');
  c.string(body, 'title', 'title', { max: 300, notBlank: true });
  c.string(body, 'location', 'location', { max: 500 });
  c.oneOf(body, 'location_type', 'location_type', LOCATION_TYPES);
  checkMetadata(c, body, { nullable: true });
  if (!c.ok) throw validationFailed(c.errors);

  const organizationId = principal.organizationId;
  const eventTypeId = body.event_type_id ?? null;
  const missing = [];
  const noSchedule = { field: 'schedule_id', message: 'does not name a schedule of this organization' };
  const noEventType = { field: 'event_type_id', message: 'does not name an event type of this organization' };
  if (!isUuid(body.schedule_id)) missing.push(noSchedule);
  if (eventTypeId !== null && !isUuid(eventTypeId)) missing.push(noEventType);
  if (missing.length > 0)
    throw new Problem(422, 'invalid_reference', 'The request names a record that does not exist.', missing);

  const referencesQuery = bookingReferencesQuery(organizationId, body.schedule_id, eventTypeId);
  const refs = await pool.query(referencesQuery.text, referencesQuery.values);
  const ref = refs.rows[0];
  if (!ref?.schedule_timezone) missing.push(noSchedule);
  if (eventTypeId !== null && !ref?.event_type) missing.push(noEventType);
  if (missing.length > 0)
    throw new Problem(422, 'invalid_reference', 'The request names a record that does not exist.', missing);
  const eventType = eventTypeId !== null ? ref.event_type : null;

  const now = new Date();
  const attendee = body.attendee;
  let rows;
  try {
    const insert = bookingInsertQuery({
      id: newId(),
      organizationId,
      scheduleId: body.schedule_id,
      eventTypeId,
      startTime: new Date(body.start_time),
      endTime: new Date(body.end_time),
      timezone: body.timezone ?? ref.schedule_timezone,
      status: 'PENDING',
      title: body.title ?? eventType?.title ?? 'Booking',
      location: body.location ?? null,
      locationType: body.location_type ?? eventType?.location_type ?? null,
      attendeeName: attendee.name,
      attendeeEmail: attendee.email,
      attendeePhone: attendee.phone ?? null,
      attendeeTimezone: attendee.timezone ?? null,
      attendeeNotes: attendee.notes ?? null,
      metadata: body.metadata ?? {},
      bufferBefore: eventType?.buffer_before ?? 0,
      bufferAfter: eventType?.buffer_after ?? 0,
      createdAt: now,
      updatedAt: now,
      cancelledAt: null,
    });
    ({ rows } = await pool.query(insert.text, insert.values));
  } catch (error) {
    throw translateWriteError(error);
  }
  const booking = rows[0];
  return { status: 201, location: `/api/v1/bookings/${booking.id}`, body: { data: toResponse(booking) } };
}

const UPDATE_FIELDS = [
  'status',
  'start_time',
  'end_time',
  'title',
  'location',
  'location_type',
  'timezone',
  'metadata',
  'attendee',
];

async function update({ pool, principal, params, body }) {
  if (!isUuid(params.id)) throw notFound('Booking');
  const c = new Checks();
  const input = body ?? {};
  if (!isPlainObject(input)) throw validationFailed([{ field: 'body', message: 'must be an object' }]);
  c.onlyKnown(input, UPDATE_FIELDS);
  if (input.status !== undefined) c.oneOf(input, 'status', 'status', BOOKING_STATUSES, { nullable: false });
  if (input.start_time !== undefined || input.end_time !== undefined) {
    c.dateTimeWithZone(input, 'start_time', 'start_time', { required: true });
    c.dateTimeWithZone(input, 'end_time', 'end_time', { required: true });
    checkInstant(c, input, 'start_time');
    checkInstant(c, input, 'end_time');
  }
  if (input.title !== undefined)
    c.string(input, 'title', 'title', { required: true, max: 300, notBlank: true });
  c.string(input, 'location', 'location', { max: 500 });
  c.oneOf(input, 'location_type', 'location_type', LOCATION_TYPES);
  if (input.timezone !== undefined) {
    if (input.timezone === null) c.fail('timezone', 'must be an IANA time zone name such as Europe/Paris');
    else c.timeZone(input, 'timezone', 'timezone');
  }
  checkMetadata(c, input, { nullable: false });
  if (input.attendee !== undefined) {
    if (!isPlainObject(input.attendee)) c.fail('attendee', 'must be an object');
    else checkAttendee(c, input.attendee, { create: false });
  }
  if (!c.ok) throw validationFailed(c.errors);

  const organizationId = principal.organizationId;
  const current = await findById(pool, organizationId, params.id);
  if (!current) throw notFound('Booking');
  const now = new Date();
  const changes = { updatedAt: now };
  let expectedStatus;
  if (input.status !== undefined) {
    if (!canTransition(BOOKING_TRANSITIONS, current.status, input.status)) {
      throw new Problem(
        409,
        'invalid_transition',
        `A booking cannot move from ${current.status} to ${input.status}.`,
      );
    }
    changes.status = input.status;
    if (input.status === 'CANCELLED') changes.cancelledAt = now;
    expectedStatus = current.status;
  }
  if (input.start_time !== undefined) {
    if (!isActiveBookingStatus(current.status)) {
      throw new Problem(
        409,
        'invalid_transition',
        `A ${current.status} booking cannot be rescheduled; only PENDING or CONFIRMED bookings can.`,
      );
    }
    changes.startTime = new Date(input.start_time);
    changes.endTime = new Date(input.end_time);
    expectedStatus = current.status;
  }
  if (input.title !== undefined) changes.title = input.title;
  if (input.location !== undefined) changes.location = input.location;
  if (input.location_type !== undefined) changes.locationType = input.location_type;
  if (input.timezone !== undefined) changes.timezone = input.timezone;
  if (input.metadata !== undefined) changes.metadata = input.metadata;
  const attendee = input.attendee ?? {};
  if (attendee.name !== undefined) changes.attendeeName = attendee.name;
  if (attendee.email !== undefined) changes.attendeeEmail = attendee.email;
  if (attendee.phone !== undefined) changes.attendeePhone = attendee.phone;
  if (attendee.timezone !== undefined) changes.attendeeTimezone = attendee.timezone;
  if (attendee.notes !== undefined) changes.attendeeNotes = attendee.notes;
  if (Object.keys(changes).length === 1)
    throw validationFailed([{ field: 'body', message: 'must contain at least one field to update' }]);

  const updateQuery = bookingUpdateQuery(organizationId, params.id, changes, expectedStatus);
  let result;
  try {
    result = await pool.query(updateQuery.text, updateQuery.values);
  } catch (error) {
    throw translateWriteError(error);
  }
  if (result.rows[0]) return { body: { data: toResponse(result.rows[0]) } };
  const latest = await findById(pool, organizationId, params.id);
  if (!latest) throw notFound('Booking');
  if (input.status !== undefined) {
    throw new Problem(
      409,
      'invalid_transition',
      `A booking cannot move from ${latest.status} to ${input.status}.`,
    );
  }
  throw new Problem(
    409,
    'invalid_transition',
    `The booking became ${latest.status} meanwhile; it was not rescheduled.`,
  );
}

module.exports = { get, list, create, update };
