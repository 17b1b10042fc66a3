'use strict';
// Slots on the floor: libs/scheduling's SlotsController and SlotsService in one place, with the same
// statements (the API's compiled booking-queries.js) and the same computation (its compiled domain).

const { Checks, knownQuery } = require('./checks');
const { notFound, validationFailed } = require('./problem');
const {
  isUuid,
  isCalendarDate,
  PlainDate,
  Instant,
  availableSlots,
  localDateOf,
  bookingReferencesQuery,
  busyBookingsQuery,
} = require('./domain');

const PARAMS = ['event_type_id', 'schedule_id', 'start', 'end', 'timezone'];

const instantOf = (value, timeZone) =>
  isCalendarDate(value) ? PlainDate.from(value).toZonedDateTime({ timeZone }).epochMilliseconds : Date.parse(value);
const addDays = (instant, days, timeZone) =>
  Instant.fromEpochMilliseconds(instant).toZonedDateTimeISO(timeZone).add({ days }).epochMilliseconds;

async function list({ pool, principal, query: raw }) {
  const query = knownQuery(raw, PARAMS);
  const c = new Checks();
  const eventTypeId = c.queryString(query, 'event_type_id', { max: Infinity });
  const scheduleId = c.queryString(query, 'schedule_id', { max: Infinity });
  if (eventTypeId === undefined) c.fail('event_type_id', 'must be a string');
  if (scheduleId === undefined) c.fail('schedule_id', 'must be a string');
  const start = c.queryDateOrDateTime(query, 'start');
  const end = c.queryDateOrDateTime(query, 'end');
  c.timeZone(query, 'timezone', 'timezone');
  if (!c.ok) throw validationFailed(c.errors);
  if (!isUuid(scheduleId)) throw notFound('Schedule');
  if (!isUuid(eventTypeId)) throw notFound('Event type');

  const organizationId = principal.organizationId;
  const refsQuery = bookingReferencesQuery(organizationId, scheduleId, eventTypeId);
  const ref = (await pool.query(refsQuery.text, refsQuery.values)).rows[0];
  if (!ref?.schedule) throw notFound('Schedule');
  if (!ref?.event_type) throw notFound('Event type');
  const schedule = ref.schedule;
  const e = ref.event_type;
  const rules = {
    duration: e.duration,
    bufferBefore: e.buffer_before,
    bufferAfter: e.buffer_after,
    minimumNotice: e.minimum_notice,
    slotInterval: e.slot_interval,
    bookingWindowDays: e.booking_window_days,
    maxBookingsPerDay: e.max_bookings_per_day,
  };

  const timezone = query.timezone ?? schedule.timezone;
  const now = Date.now();
  const from = start === undefined ? now : instantOf(start, timezone);
  const to = end === undefined ? addDays(from, 7, timezone) : instantOf(end, timezone);
  if (to <= from) throw validationFailed([{ field: 'end', message: 'must be after start' }]);
  if (to > addDays(from, 62, timezone)) throw validationFailed([{ field: 'end', message: 'must be at most 62 days after start' }]);

  const tz = schedule.timezone;
  const firstDate = localDateOf(from, tz).subtract({ days: 1 });
  const lastDate = localDateOf(to, tz).add({ days: 2 });
  const busyQuery = busyBookingsQuery(
    organizationId,
    scheduleId,
    eventTypeId,
    new Date(Math.min(from - rules.bufferBefore * 60_000, firstDate.toZonedDateTime({ timeZone: tz }).epochMilliseconds)),
    new Date(Math.max(to + (rules.duration + rules.bufferAfter) * 60_000, lastDate.toZonedDateTime({ timeZone: tz }).epochMilliseconds)),
  );
  const busy = (await pool.query(busyQuery.text, busyQuery.values)).rows.map((r) => ({
    start: r.start_ms,
    end: r.end_ms,
    bufferBefore: r.buffer_before,
    bufferAfter: r.buffer_after,
    sameEventType: r.same_type,
  }));
  const slots = availableSlots({
    availability: { weekly: schedule.availability, overrides: schedule.date_overrides },
    scheduleTimeZone: tz,
    timeZone: timezone,
    rules,
    from,
    to,
    now,
    busy,
  });
  const data = slots.map((s) => ({
    start_time: new Date(s.start).toISOString(),
    end_time: new Date(s.end).toISOString(),
    local_date: s.localDate,
    local_time: s.localTime,
  }));
  return { body: { data, meta: { total: data.length, limit: data.length, offset: 0, hasMore: false, timezone } } };
}

module.exports = { list };
