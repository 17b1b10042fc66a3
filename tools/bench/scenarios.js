'use strict';
// The routes under load. Each scenario makes autocannon requests; writes never repeat themselves:
// every request of every run gets its own slot, booking or e-mail address.

const SLOT_MINUTES = 30;
/** Bookings made under load start here, far past every seeded booking. */
const FIRST_BENCH_SLOT = Date.parse('2031-01-06T00:00:00.000Z');
/** Reservations made under load start here, on a schedule and event type of their own. */
const FIRST_RESERVATION_SLOT = Date.parse('2061-01-03T00:00:00.000Z');
const RESERVATION_SCHEDULE = '01930000-0000-7000-8000-00000000be01';
const RESERVATION_EVENT_TYPE = '01930000-0000-7000-8000-00000000be02';

/**
 * Searches of every kind: common words (in most posts), rarer ones, two-word queries, a prefix
 * (`schedul`), a name, and a word no post has. The report lists how many posts each one matches.
 */
const SEARCHES = [
  'calendar',
  'deployment pipeline',
  'schedul',
  'hackathon',
  'remote meeting',
  'keynote speaker',
  'lovelace',
  'firewall outage',
  'quarterly budget',
  'yoga',
  'postgres',
  'onboarding checklist',
];

function cycle(items) {
  let i = 0;
  return () => items[i++ % items.length];
}

/**
 * @param {object} fixtures what the seed returned
 * @param {{ query: (sql: string, values?: unknown[]) => Promise<unknown> }} db the harness's connection
 */
function buildScenarios(fixtures, db) {
  const auth = { authorization: `Bearer ${fixtures.apiKey}` };
  const json = { ...auth, 'content-type': 'application/json' };
  // A distinct run number for every run of a write scenario (warm-ups and the parity check included).
  let postRun = 0;
  let reservationRun = 0;
  let registrationRun = 0;

  return [
    {
      id: 'booking-get',
      label: 'GET /api/v1/bookings/{id}',
      kind: 'read',
      requests() {
        const next = cycle(fixtures.bookingSample);
        return [
          {
            method: 'GET',
            headers: auth,
            setupRequest: (req) => ({ ...req, path: `/api/v1/bookings/${next()}` }),
          },
        ];
      },
    },
    {
      id: 'booking-list',
      label: 'GET /api/v1/bookings?schedule_id=…&limit=50',
      kind: 'read',
      requests() {
        const next = cycle(fixtures.schedules);
        return [
          {
            method: 'GET',
            headers: auth,
            setupRequest: (req) => ({ ...req, path: `/api/v1/bookings?schedule_id=${next()}&limit=50` }),
          },
        ];
      },
    },
    {
      id: 'slots',
      label: 'GET /api/v1/slots (62 days, 5,000 bookings)',
      kind: 'read',
      note: 'a schedule open on weekdays 08:00–20:00 (Paris) with 5,000 bookings and a weekly limit of booked minutes; 10-minute type, 5-minute interval, daily limit',
      requests() {
        const { scheduleId, eventTypeId, start, end } = fixtures.slots;
        return [
          {
            method: 'GET',
            headers: auth,
            path: `/api/v1/slots?event_type_id=${eventTypeId}&schedule_id=${scheduleId}&start=${encodeURIComponent(start)}&end=${encodeURIComponent(end)}`,
          },
        ];
      },
    },
    {
      id: 'slots-explain',
      label: 'GET /api/v1/slots?explain=true (62 days, 5,000 bookings)',
      kind: 'read',
      note: 'the slots case, listing every candidate not offered with its reason and the booking holding it',
      requests() {
        const { scheduleId, eventTypeId, start, end } = fixtures.slots;
        return [
          {
            method: 'GET',
            headers: auth,
            path: `/api/v1/slots?event_type_id=${eventTypeId}&schedule_id=${scheduleId}&start=${encodeURIComponent(start)}&end=${encodeURIComponent(end)}&explain=true`,
          },
        ];
      },
    },
    {
      id: 'reservation-create',
      label: 'POST /api/v1/slots/reservations',
      kind: 'write',
      note: 'each request holds a new 30-minute slot (a UTC schedule open around the clock); each run far from the others',
      async prepare() {
        const { organizationId } = fixtures;
        const now = new Date();
        await db.query(
          `INSERT INTO schedules (id, organization_id, name, timezone, created_at, updated_at)
           VALUES ($1, $2, 'Reservations bench', 'UTC', $3, $3) ON CONFLICT DO NOTHING`,
          [RESERVATION_SCHEDULE, organizationId, now],
        );
        await db.query(
          `INSERT INTO event_types (id, organization_id, title, slug, duration, created_at, updated_at)
           VALUES ($1, $2, 'Reservations bench call', 'reservations-bench-call', 30, $3, $3) ON CONFLICT DO NOTHING`,
          [RESERVATION_EVENT_TYPE, organizationId, now],
        );
      },
      requests() {
        const run = reservationRun++;
        const base = FIRST_RESERVATION_SLOT + run * 3 * 365 * 24 * 3600_000;
        let i = 0;
        return [
          {
            method: 'POST',
            path: '/api/v1/slots/reservations',
            headers: json,
            setupRequest: (req) => {
              const start = base + i++ * SLOT_MINUTES * 60_000;
              return {
                ...req,
                body: JSON.stringify({
                  event_type_id: RESERVATION_EVENT_TYPE,
                  schedule_id: RESERVATION_SCHEDULE,
                  start_time: new Date(start).toISOString(),
                  ttl_minutes: 10,
                }),
              };
            },
          },
        ];
      },
    },
    {
      id: 'booking-create',
      label: 'POST /api/v1/bookings',
      kind: 'write',
      note: 'each request a new 30-minute slot; each run its own schedule',
      requests() {
        const run = postRun++;
        const scheduleId = fixtures.schedules[run % fixtures.schedules.length];
        const eventTypeId = fixtures.eventTypes[run % fixtures.eventTypes.length];
        // A run on a schedule another run used would meet its slots: far apart per run as well.
        const base = FIRST_BENCH_SLOT + run * 3 * 365 * 24 * 3600_000;
        let i = 0;
        return [
          {
            method: 'POST',
            path: '/api/v1/bookings',
            headers: json,
            setupRequest: (req) => {
              const n = i++;
              const start = base + n * SLOT_MINUTES * 60_000;
              return {
                ...req,
                body: JSON.stringify({
                  schedule_id: scheduleId,
                  event_type_id: eventTypeId,
                  start_time: new Date(start).toISOString(),
                  end_time: new Date(start + SLOT_MINUTES * 60_000).toISOString(),
                  attendee: {
                    name: 'Ada Lovelace',
                    email: `ada.${run}.${n}@example.com`,
                    phone: '+44 20 7946 0958',
                  },
                  metadata: { source: 'bench', run },
                }),
              };
            },
          },
        ];
      },
    },
    {
      id: 'booking-status',
      label: 'PATCH /api/v1/bookings/{id} (status)',
      kind: 'write',
      note: 'PENDING→CONFIRMED over a pool of PENDING bookings, then CONFIRMED→COMPLETED; the pool is reset before each run',
      async prepare() {
        await db.query(
          "UPDATE bookings SET status = 'PENDING', cancelled_at = NULL WHERE id = ANY($1::uuid[]) AND status <> 'PENDING'",
          [fixtures.patchPool],
        );
        await db.query('VACUUM (ANALYZE) bookings');
      },
      requests() {
        const pool = fixtures.patchPool;
        let i = 0;
        return [
          {
            method: 'PATCH',
            headers: json,
            setupRequest: (req) => {
              const n = i++;
              const status = Math.floor(n / pool.length) === 0 ? 'CONFIRMED' : 'COMPLETED';
              return {
                ...req,
                path: `/api/v1/bookings/${pool[n % pool.length]}`,
                body: JSON.stringify({ status }),
              };
            },
          },
        ];
      },
    },
    {
      id: 'events-upcoming',
      label: 'GET /api/v1/events?upcoming=true&include_counts=true',
      kind: 'read',
      requests() {
        return [{ method: 'GET', headers: auth, path: '/api/v1/events?upcoming=true&include_counts=true' }];
      },
    },
    {
      id: 'posts-search',
      label: 'GET /api/v1/posts?search=…',
      kind: 'read',
      requests() {
        const next = cycle(SEARCHES);
        return [
          {
            method: 'GET',
            headers: auth,
            setupRequest: (req) => ({ ...req, path: `/api/v1/posts?search=${encodeURIComponent(next())}` }),
          },
        ];
      },
    },
    {
      id: 'posts-tag',
      label: 'GET /api/v1/posts?tag=…&order_by=published_at',
      kind: 'read',
      requests() {
        const next = cycle(fixtures.tagSlugs);
        return [
          {
            method: 'GET',
            headers: auth,
            setupRequest: (req) => ({ ...req, path: `/api/v1/posts?tag=${next()}&order_by=published_at` }),
          },
        ];
      },
    },
    {
      id: 'registration-create',
      label: 'POST /api/v1/events/{id}/registrations',
      kind: 'write',
      note: 'distinct e-mails, published events with unlimited places, spread over many events',
      requests() {
        const run = registrationRun++;
        const events = fixtures.registrationEvents;
        let i = 0;
        return [
          {
            method: 'POST',
            headers: json,
            setupRequest: (req) => {
              const n = i++;
              return {
                ...req,
                path: `/api/v1/events/${events[n % events.length]}/registrations`,
                body: JSON.stringify({ name: 'Grace Hopper', email: `grace.${run}.${n}@example.com` }),
              };
            },
          },
        ];
      },
    },
  ];
}

/**
 * Requests the benchmarked routes refuse, one per kind of refusal, for the parity check: both
 * servers must send the same problem (status, headers, body; for a refused input, the same fields).
 * `setup` runs first, against the API, to make the refusal happen (a booking to overlap).
 * @param {object} fixtures what the seed returned
 * @param {{ query: (sql: string, values?: unknown[]) => Promise<{ rows: any[] }> }} db the harness's connection
 */
async function problemRequests(fixtures, db) {
  const auth = { authorization: `Bearer ${fixtures.apiKey}` };
  const json = { ...auth, 'content-type': 'application/json' };
  const unknownId = '00000000-0000-4000-8000-000000000000';
  const [scheduleId] = fixtures.schedules;
  const overlapped = { start: '2040-01-02T10:00:00.000Z', end: '2040-01-02T11:00:00.000Z' };
  const booking = (fields) =>
    JSON.stringify({
      schedule_id: scheduleId,
      start_time: overlapped.start,
      end_time: overlapped.end,
      attendee: { name: 'Ada Lovelace', email: 'ada@example.com' },
      ...fields,
    });
  const completed = (await db.query("SELECT id FROM bookings WHERE organization_id = $1 AND status = 'COMPLETED' LIMIT 1", [fixtures.organizationId])).rows[0]?.id;
  const requests = [
    { label: 'unknown booking', method: 'GET', path: `/api/v1/bookings/${unknownId}`, headers: auth },
    { label: 'malformed booking id', method: 'GET', path: '/api/v1/bookings/not-a-uuid', headers: auth },
    { label: 'no key', method: 'GET', path: '/api/v1/bookings', headers: {} },
    { label: 'unknown key', method: 'GET', path: '/api/v1/bookings', headers: { authorization: 'Bearer alm_live_nope' } },
    { label: 'unknown route', method: 'GET', path: '/api/v1/nothing-here', headers: auth },
    { label: 'bad list query', method: 'GET', path: '/api/v1/bookings?limit=0&offset=-1&status=LATE&schedule_id=x&upcoming=maybe', headers: auth },
    { label: 'empty booking', method: 'POST', path: '/api/v1/bookings', headers: json, body: '{}' },
    { label: 'array body', method: 'POST', path: '/api/v1/bookings', headers: json, body: '[1,2]' },
    {
      label: 'bad booking fields',
      method: 'POST',
      path: '/api/v1/bookings',
      headers: json,
      body: booking({ colour: 'red', end_time: 'tomorrow', attendee: { name: '', email: 'not-an-address', shoe_size: 9 } }),
    },
    { label: 'not JSON', method: 'POST', path: '/api/v1/bookings', headers: json, body: '{"schedule_id":' },
    { label: 'not a JSON type', method: 'POST', path: '/api/v1/bookings', headers: { ...auth, 'content-type': 'text/plain' }, body: 'hello' },
    { label: 'NUL in the body', method: 'POST', path: '/api/v1/bookings', headers: json, body: booking({ title: 'a\u0000b' }) },
    { label: 'unknown schedule', method: 'POST', path: '/api/v1/bookings', headers: json, body: booking({ schedule_id: unknownId }) },
    { label: 'overlap', method: 'POST', path: '/api/v1/bookings', headers: json, body: booking({}), setup: { method: 'POST', path: '/api/v1/bookings', headers: json, body: booking({}) } },
    { label: 'empty PATCH', method: 'PATCH', path: `/api/v1/bookings/${fixtures.patchPool[0]}`, headers: json, body: '{}' },
    { label: 'stale If-Match', method: 'PATCH', path: `/api/v1/bookings/${fixtures.patchPool[0]}`, headers: { ...json, 'if-match': '"stale"' }, body: '{"title":"x"}' },
    { label: 'unknown event', method: 'POST', path: `/api/v1/events/${unknownId}/registrations`, headers: json, body: '{"name":"Grace Hopper","email":"grace@example.com"}' },
    { label: 'bad registration', method: 'POST', path: `/api/v1/events/${fixtures.registrationEvents[0]}/registrations`, headers: json, body: '{"email":"nope"}' },
    { label: 'slots without a range', method: 'GET', path: `/api/v1/slots?schedule_id=${scheduleId}`, headers: auth },
    { label: 'bad post order', method: 'GET', path: '/api/v1/posts?order_by=colour&tag=Not%20A%20Slug', headers: auth },
    { label: 'bad events query', method: 'GET', path: '/api/v1/events?limit=abc&upcoming=2', headers: auth },
  ];
  if (completed) {
    requests.push({ label: 'invalid transition', method: 'PATCH', path: `/api/v1/bookings/${completed}`, headers: json, body: '{"status":"CONFIRMED"}' });
  }
  return requests;
}

module.exports = { buildScenarios, problemRequests, SEARCHES };
