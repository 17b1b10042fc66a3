import { createTestApp, Tenant, TestApp } from '../support/test-app';
import {
  BOOKING_FIELDS,
  bookingBody,
  createBooking,
  createEventType,
  createSchedule,
  fieldsOf,
  SCHEDULING_TEST_CONFIG,
  UNKNOWN_ID,
  UUID,
} from './scheduling-helpers';

const ATTENDEE = { name: 'Ada Lovelace', email: 'ada@example.com' };
const WEEKDAYS_9_TO_5 = [{ days: ['mon', 'tue', 'wed', 'thu', 'fri'], start: '09:00', end: '17:00' }];

type Json = Record<string, any>;

describe('recurring bookings (e2e)', () => {
  let t: TestApp;
  let a: Tenant;

  beforeAll(async () => {
    t = await createTestApp({ config: SCHEDULING_TEST_CONFIG });
  });
  afterAll(async () => t.close());
  beforeEach(async () => {
    // A Monday.
    t.clock.set('2027-03-01T08:00:00.000Z');
    a = await t.tenant();
  });

  function series(scheduleId: string, extra: Json) {
    return t.api
      .post('/api/v1/bookings')
      .set(a.auth)
      .send({ schedule_id: scheduleId, attendee: ATTENDEE, ...extra });
  }

  async function rowsOfSchedule(scheduleId: string) {
    return t.query<{ id: string; series_id: string | null; status: string }>(
      'SELECT id, series_id, status FROM bookings WHERE schedule_id = $1 ORDER BY start_time',
      [scheduleId],
    );
  }

  async function eventsOf(type: string, ids: string[]) {
    return t.query<{ data: Json; previous_status: string | null; booking_id: string }>(
      `SELECT data, previous_status, data->>'id' AS booking_id FROM outbox_events
        WHERE organization_id = $1 AND type = $2 AND data->>'id' = ANY ($3::text[])`,
      [a.orgId, type, ids],
    );
  }

  describe('occurrences across DST', () => {
    it('keeps 09:00 Europe/Berlin across the March change: weekly, 201 with the series, Location, one event each', async () => {
      const scheduleId = await createSchedule(t, a, { timezone: 'UTC' });
      const res = await series(scheduleId, {
        start_time: '2027-03-15T09:00:00+01:00',
        end_time: '2027-03-15T09:45:00+01:00',
        timezone: 'Europe/Berlin',
        recurrence: { frequency: 'weekly', count: 4 },
      }).expect(201);
      const data = res.body.data as Json;
      expect(Object.keys(data).sort()).toEqual(['bookings', 'recurrence', 'series_id', 'skipped']);
      expect(data['series_id']).toMatch(UUID);
      expect(res.headers['location']).toBe(`/api/v1/booking-series/${data['series_id']}`);
      // The defaults filled in.
      expect(data['recurrence']).toEqual({ frequency: 'weekly', interval: 1, count: 4 });
      expect(data['skipped']).toEqual([]);
      const bookings = data['bookings'] as Json[];
      expect(bookings.map((b) => [b['start_time'], b['end_time']])).toEqual([
        ['2027-03-15T08:00:00.000Z', '2027-03-15T08:45:00.000Z'],
        ['2027-03-22T08:00:00.000Z', '2027-03-22T08:45:00.000Z'],
        // Summer time from 2027-03-28: still 09:00 in Berlin.
        ['2027-03-29T07:00:00.000Z', '2027-03-29T07:45:00.000Z'],
        ['2027-04-05T07:00:00.000Z', '2027-04-05T07:45:00.000Z'],
      ]);
      // Each occurrence, as a single create's answer, carries its own manage token (shown only here).
      for (const b of bookings) {
        expect(Object.keys(b).sort()).toEqual([...BOOKING_FIELDS, 'manage_token'].sort());
        expect(b).toMatchObject({ series_id: data['series_id'], status: 'PENDING', timezone: 'Europe/Berlin', attendee_email: 'ada@example.com' });
        expect(b['manage_token']).toMatch(/^bkt_[0-9A-Za-z]{32}$/);
      }
      expect(new Set(bookings.map((b) => b['manage_token'])).size).toBe(4);
      const view = await t.api.get(`/public/v1/bookings/${bookings[3]!['manage_token']}`).expect(200);
      expect(view.body.data).toMatchObject({ id: bookings[3]!['id'], start_time: '2027-04-05T07:00:00.000Z' });
      const { manage_token: _token, ...thirdAsRead } = bookings[2]!;

      const rows = await rowsOfSchedule(scheduleId);
      expect(rows.map((r) => r.id)).toEqual(bookings.map((b) => b['id']));
      expect(rows.every((r) => r.series_id === data['series_id'])).toBe(true);
      const created = await eventsOf('booking.created', rows.map((r) => r.id));
      expect(created).toHaveLength(4);
      for (const event of created) expect(event.data['series_id']).toBe(data['series_id']);

      // Every booking response carries series_id; the single GET and the list filter.
      const one = await t.api.get(`/api/v1/bookings/${bookings[2]!['id']}`).set(a.auth).expect(200);
      expect(one.body.data).toEqual(thirdAsRead);
      const single = await createBooking(t, a, scheduleId, { start_time: '2027-03-16T08:00:00Z', end_time: '2027-03-16T09:00:00Z' });
      expect(single['series_id']).toBeNull();
      const listed = await t.api.get('/api/v1/bookings').query({ series_id: data['series_id'] }).set(a.auth).expect(200);
      expect(listed.body.data.every((b: Json) => b['manage_token'] === undefined)).toBe(true);
      expect(listed.body.data.map((b: Json) => b['id'])).toEqual(bookings.map((b) => b['id']));
      expect(listed.body.meta.total).toBe(4);
      await t.api.get('/api/v1/bookings').query({ series_id: 'nope' }).set(a.auth).expect(400);

      const got = await t.api.get(res.headers['location'] as string).set(a.auth).expect(200);
      expect(got.body.data).toEqual({ id: data['series_id'], recurrence: data['recurrence'], bookings: listed.body.data });
      expect(got.body.data.bookings.map((b: Json) => b['id'])).toEqual(bookings.map((b) => b['id']));
    });

    it("keeps 09:00 America/New_York (the schedule's zone) across the November change: daily", async () => {
      t.clock.set('2026-10-20T08:00:00.000Z');
      const scheduleId = await createSchedule(t, a, { timezone: 'America/New_York' });
      const res = await series(scheduleId, {
        start_time: '2026-10-30T09:00:00-04:00',
        end_time: '2026-10-30T10:00:00-04:00',
        recurrence: { frequency: 'daily', interval: 1, count: 4 },
      }).expect(201);
      expect(res.body.data.bookings.map((b: Json) => b['start_time'])).toEqual([
        '2026-10-30T13:00:00.000Z',
        '2026-10-31T13:00:00.000Z',
        '2026-11-01T14:00:00.000Z',
        '2026-11-02T14:00:00.000Z',
      ]);
      expect(res.body.data.bookings.every((b: Json) => b['timezone'] === 'America/New_York')).toBe(true);
    });

    it('keeps 18:30 Europe/Berlin across the October change and 23:30 America/New_York across March: monthly and weekly', async () => {
      t.clock.set('2026-09-01T08:00:00.000Z');
      const scheduleId = await createSchedule(t, a);
      const monthly = await series(scheduleId, {
        start_time: '2026-09-10T18:30:00+02:00',
        end_time: '2026-09-10T19:00:00+02:00',
        timezone: 'Europe/Berlin',
        recurrence: { frequency: 'monthly', count: 3 },
      }).expect(201);
      expect(monthly.body.data.bookings.map((b: Json) => b['start_time'])).toEqual([
        '2026-09-10T16:30:00.000Z',
        '2026-10-10T16:30:00.000Z',
        '2026-11-10T17:30:00.000Z',
      ]);
      const weekly = await series(scheduleId, {
        start_time: '2027-03-07T23:30:00-05:00',
        end_time: '2027-03-08T00:30:00-05:00',
        timezone: 'America/New_York',
        recurrence: { frequency: 'weekly', interval: 1, count: 2 },
      }).expect(201);
      expect(weekly.body.data.bookings.map((b: Json) => b['start_time'])).toEqual(['2027-03-08T04:30:00.000Z', '2027-03-15T03:30:00.000Z']);
    });
  });

  describe('every occurrence meets every rule', () => {
    /**
     * A schedule in Paris open on weekdays 09:00–17:00, closed on Wednesday 2027-03-17; an event type
     * of one hour, at most 1 a day, bookable up to 20 days ahead; a booking of the type on 2027-03-10
     * and another booking over 10:00 on 2027-03-12. A daily series at 10:00 from Tuesday 2027-03-02
     * for 28 days meets every rule somewhere after its first occurrences.
     */
    async function setUp() {
      const scheduleId = await createSchedule(t, a, {
        timezone: 'Europe/Paris',
        availability: WEEKDAYS_9_TO_5,
        date_overrides: [{ date: '2027-03-17', intervals: [] }],
      });
      const eventTypeId = await createEventType(t, a, { duration: 60, booking_window_days: 20, max_bookings_per_day: 1 });
      await createBooking(t, a, scheduleId, {
        event_type_id: eventTypeId,
        start_time: '2027-03-10T14:00:00+01:00',
        end_time: '2027-03-10T15:00:00+01:00',
      });
      await createBooking(t, a, scheduleId, { start_time: '2027-03-12T09:30:00+01:00', end_time: '2027-03-12T10:30:00+01:00' });
      const body = {
        event_type_id: eventTypeId,
        start_time: '2027-03-02T10:00:00+01:00',
        end_time: '2027-03-02T11:00:00+01:00',
        recurrence: { frequency: 'daily', count: 28 },
      };
      return { scheduleId, eventTypeId, body };
    }

    /** Day of March of each occurrence index (the series starts on the 2nd). */
    const day = (index: number) => index + 2;
    const expectedReasons = (): Record<number, string> => {
      const reasons: Record<number, string> = {};
      for (let i = 0; i < 28; i++) {
        const d = day(i);
        const weekday = new Date(Date.UTC(2027, 2, d)).getUTCDay();
        // The booking window ends 2027-03-21 08:00 UTC: it comes before availability.
        if (d >= 21) reasons[i] = 'booking_window';
        else if (weekday === 0 || weekday === 6 || d === 17) reasons[i] = 'outside_availability';
        else if (d === 12) reasons[i] = 'booking_overlap';
        else if (d === 10) reasons[i] = 'daily_limit';
      }
      return reasons;
    };

    it('refuses the whole series with 409 recurrence_conflict naming every failing occurrence, and creates nothing', async () => {
      const { scheduleId, body } = await setUp();
      const res = await series(scheduleId, body).expect(409);
      expect(res.body).toMatchObject({ code: 'recurrence_conflict', status: 409 });
      const conflicts = res.body.conflicts as Json[];
      expect(Object.fromEntries(conflicts.map((c) => [c['index'], c['reason']]))).toEqual(expectedReasons());
      // Summer time in Paris from 2027-03-28: still 10:00 local.
      expect(conflicts.find((c) => c['index'] === 27)).toEqual({
        index: 27,
        start_time: '2027-03-29T08:00:00.000Z',
        end_time: '2027-03-29T09:00:00.000Z',
        reason: 'booking_window',
      });
      expect(conflicts.find((c) => c['index'] === 8)).toMatchObject({ start_time: '2027-03-10T09:00:00.000Z', reason: 'daily_limit' });
      expect(await rowsOfSchedule(scheduleId)).toHaveLength(2);
      expect(await t.query('SELECT 1 FROM booking_series WHERE organization_id = $1', [a.orgId])).toHaveLength(0);
    });

    it('with on_conflict skip creates the occurrences that fit and lists the others in skipped', async () => {
      const { scheduleId, body } = await setUp();
      const res = await series(scheduleId, { ...body, on_conflict: 'skip' }).expect(201);
      const reasons = expectedReasons();
      const skipped = res.body.data.skipped as Json[];
      expect(Object.fromEntries(skipped.map((c) => [c['index'], c['reason']]))).toEqual(reasons);
      const fitting = Array.from({ length: 28 }, (_, i) => i).filter((i) => reasons[i] === undefined);
      expect(res.body.data.bookings.map((b: Json) => b['start_time'])).toEqual(
        fitting.map((i) => new Date(Date.UTC(2027, 2, day(i), 9)).toISOString()),
      );
      expect(res.body.data.recurrence).toEqual({ frequency: 'daily', interval: 1, count: 28 });
      const rows = (await rowsOfSchedule(scheduleId)).filter((r) => r.series_id === res.body.data.series_id);
      expect(rows).toHaveLength(fitting.length);
      expect(await eventsOf('booking.created', rows.map((r) => r.id))).toHaveLength(fitting.length);
    });

    it('answers 409 in skip mode too when no occurrence fits', async () => {
      const { scheduleId, body } = await setUp();
      const res = await series(scheduleId, {
        ...body,
        start_time: '2027-03-06T10:00:00+01:00',
        end_time: '2027-03-06T11:00:00+01:00',
        recurrence: { frequency: 'weekly', count: 4 },
        on_conflict: 'skip',
      }).expect(409);
      expect(res.body.conflicts.map((c: Json) => c['reason'])).toEqual([
        'outside_availability',
        'outside_availability',
        'outside_availability',
        'booking_window',
      ]);
      expect(await rowsOfSchedule(scheduleId)).toHaveLength(2);
    });

    it('checks the minimum notice of every occurrence', async () => {
      const scheduleId = await createSchedule(t, a, { availability: [{ days: ['mon', 'tue', 'wed', 'thu', 'fri', 'sat', 'sun'], start: '00:00', end: '24:00' }] });
      const eventTypeId = await createEventType(t, a, { duration: 30, minimum_notice: 1501 });
      // Now is 2027-03-01 08:00Z; 1,501 minutes of notice reach 2027-03-02 09:01Z.
      const res = await series(scheduleId, {
        event_type_id: eventTypeId,
        start_time: '2027-03-01T09:00:00Z',
        end_time: '2027-03-01T09:30:00Z',
        recurrence: { frequency: 'daily', count: 4 },
      }).expect(409);
      expect(res.body.conflicts.map((c: Json) => [c['index'], c['reason']])).toEqual([
        [0, 'minimum_notice'],
        [1, 'minimum_notice'],
      ]);
    });

    it("counts buffers against other bookings and the series' own occurrences against each other", async () => {
      const scheduleId = await createSchedule(t, a);
      const buffered = await createEventType(t, a, { duration: 60, buffer_after: 30 });
      // 11:15 on the third Monday: inside the 30 minutes after a 10:00–11:00 occurrence.
      await createBooking(t, a, scheduleId, { start_time: '2027-03-15T11:15:00Z', end_time: '2027-03-15T11:45:00Z' });
      const res = await series(scheduleId, {
        event_type_id: buffered,
        start_time: '2027-03-01T10:00:00Z',
        end_time: '2027-03-01T11:00:00Z',
        recurrence: { frequency: 'weekly', count: 4 },
      }).expect(409);
      expect(res.body.conflicts.map((c: Json) => [c['index'], c['reason']])).toEqual([[2, 'booking_overlap']]);

      // Occurrences 25 hours long, a day apart: each overlaps the one before it.
      const own = await series(scheduleId, {
        start_time: '2027-06-01T10:00:00Z',
        end_time: '2027-06-02T11:00:00Z',
        recurrence: { frequency: 'daily', count: 3 },
        on_conflict: 'skip',
      }).expect(201);
      expect(own.body.data.bookings.map((b: Json) => b['start_time'])).toEqual(['2027-06-01T10:00:00.000Z', '2027-06-03T10:00:00.000Z']);
      expect(own.body.data.skipped).toEqual([
        { index: 1, start_time: '2027-06-02T10:00:00.000Z', end_time: '2027-06-03T11:00:00.000Z', reason: 'booking_overlap' },
      ]);
    });

    /**
     * A schedule in UTC open every day, an event type of at most 2 bookings a week (from Monday); a
     * booking of the type on Monday 2027-03-08 and one without a type over 10:00 on Friday
     * 2027-03-05. A daily series at 10:00 from Tuesday 2027-03-02 for 8 days: the week's first two
     * occurrences fit and fill it; the next week already holds one booking of the type.
     */
    async function weeklyLimitSetUp() {
      const scheduleId = await createSchedule(t, a, {
        timezone: 'UTC',
        availability: [{ days: ['mon', 'tue', 'wed', 'thu', 'fri', 'sat', 'sun'], start: '00:00', end: '24:00' }],
      });
      const eventTypeId = await createEventType(t, a, { duration: 60, max_bookings_per_week: 2 });
      await createBooking(t, a, scheduleId, { event_type_id: eventTypeId, start_time: '2027-03-08T14:00:00Z', end_time: '2027-03-08T15:00:00Z' });
      await createBooking(t, a, scheduleId, { start_time: '2027-03-05T09:30:00Z', end_time: '2027-03-05T10:30:00Z' });
      const body = {
        event_type_id: eventTypeId,
        start_time: '2027-03-02T10:00:00Z',
        end_time: '2027-03-02T11:00:00Z',
        recurrence: { frequency: 'daily', count: 8 },
      };
      return { scheduleId, eventTypeId, body };
    }
    // The overlap is named before the limit; a refused occurrence takes no place of the week.
    const weeklyReasons = [
      [2, 'weekly_limit'],
      [3, 'booking_overlap'],
      [4, 'weekly_limit'],
      [5, 'weekly_limit'],
      [7, 'weekly_limit'],
    ];

    it('counts every occurrence toward a weekly limit: 409 recurrence_conflict names the later ones that break it', async () => {
      const { scheduleId, body } = await weeklyLimitSetUp();
      const res = await series(scheduleId, body).expect(409);
      expect(res.body).toMatchObject({ code: 'recurrence_conflict', status: 409 });
      expect(res.body.conflicts.map((c: Json) => [c['index'], c['reason']])).toEqual(weeklyReasons);
      expect(res.body.conflicts.find((c: Json) => c['index'] === 7)).toEqual({
        index: 7,
        start_time: '2027-03-09T10:00:00.000Z',
        end_time: '2027-03-09T11:00:00.000Z',
        reason: 'weekly_limit',
      });
      expect(await rowsOfSchedule(scheduleId)).toHaveLength(2);
    });

    it('with on_conflict skip skips the occurrences over a weekly limit, and the week is then full for a single booking', async () => {
      const { scheduleId, eventTypeId, body } = await weeklyLimitSetUp();
      const res = await series(scheduleId, { ...body, on_conflict: 'skip' }).expect(201);
      expect(res.body.data.skipped.map((c: Json) => [c['index'], c['reason']])).toEqual(weeklyReasons);
      expect(res.body.data.bookings.map((b: Json) => b['start_time'])).toEqual([
        '2027-03-02T10:00:00.000Z',
        '2027-03-03T10:00:00.000Z',
        '2027-03-08T10:00:00.000Z',
      ]);
      const rows = (await rowsOfSchedule(scheduleId)).filter((r) => r.series_id === res.body.data.series_id);
      expect(rows).toHaveLength(3);
      const single = await t.api
        .post('/api/v1/bookings')
        .set(a.auth)
        .send({ ...bookingBody(scheduleId), event_type_id: eventTypeId, start_time: '2027-03-06T12:00:00Z', end_time: '2027-03-06T13:00:00Z' })
        .expect(409);
      expect(single.body).toMatchObject({ code: 'slot_unavailable', reason: 'weekly_limit' });
    });

    /**
     * A weekly series at 10:00 UTC from Tuesday 2027-03-02 on a schedule open on weekdays 09:00–17:00:
     * its 3rd occurrence's time is held by an unexpired reservation, its 4th by a published event of
     * the schedule, and its 5th by a reservation that expires before the series is sent.
     */
    async function heldTimeSetUp() {
      const scheduleId = await createSchedule(t, a, { timezone: 'UTC', availability: WEEKDAYS_9_TO_5 });
      const eventTypeId = await createEventType(t, a, { duration: 60 });
      const reserve = (start: string, extra: Json = {}) =>
        t.api
          .post('/api/v1/slots/reservations')
          .set(a.auth)
          .send({ schedule_id: scheduleId, event_type_id: eventTypeId, start_time: start, ...extra })
          .expect(201);
      const expiring = (await reserve('2027-03-30T10:00:00Z', { ttl_minutes: 1 })).body.data as Json;
      t.clock.set(expiring['expires_at'] as string);
      const reservation = (await reserve('2027-03-16T10:00:00Z')).body.data as Json;
      const event = (
        await t.api
          .post('/api/v1/events')
          .set(a.auth)
          .send({ title: 'Workshop', status: 'published', schedule_id: scheduleId, start_date: '2027-03-23', start_time: '09:30', end_time: '10:30', timezone: 'UTC' })
          .expect(201)
      ).body.data as Json;
      const body = {
        event_type_id: eventTypeId,
        start_time: '2027-03-02T10:00:00Z',
        end_time: '2027-03-02T11:00:00Z',
        recurrence: { frequency: 'weekly', count: 5 },
      };
      return { scheduleId, body, reservationId: reservation['id'] as string, eventId: event['id'] as string };
    }

    it('sees the time unexpired reservations and published events hold: 409 recurrence_conflict names both, skip creates the rest', async () => {
      const { scheduleId, body, reservationId, eventId } = await heldTimeSetUp();
      const res = await series(scheduleId, body).expect(409);
      expect(res.body).toMatchObject({ code: 'recurrence_conflict', status: 409 });
      expect(res.body.conflicts).toEqual([
        { index: 2, start_time: '2027-03-16T10:00:00.000Z', end_time: '2027-03-16T11:00:00.000Z', reason: 'reserved' },
        { index: 3, start_time: '2027-03-23T10:00:00.000Z', end_time: '2027-03-23T11:00:00.000Z', reason: 'event' },
      ]);
      expect(await rowsOfSchedule(scheduleId)).toHaveLength(0);

      const skipped = await series(scheduleId, { ...body, on_conflict: 'skip' }).expect(201);
      expect(skipped.body.data.skipped.map((c: Json) => [c['index'], c['reason']])).toEqual([
        [2, 'reserved'],
        [3, 'event'],
      ]);
      // The expired reservation held nothing: the 5th occurrence took its time.
      expect(skipped.body.data.bookings.map((b: Json) => b['start_time'])).toEqual([
        '2027-03-02T10:00:00.000Z',
        '2027-03-09T10:00:00.000Z',
        '2027-03-30T10:00:00.000Z',
      ]);
      expect(await rowsOfSchedule(scheduleId)).toHaveLength(3);
      const holders = await t.query<{ kind: string; source_id: string }>(
        'SELECT kind, source_id FROM schedule_blocked_times WHERE schedule_id = $1 ORDER BY lower(during)',
        [scheduleId],
      );
      expect(holders.map((h) => h.kind)).toEqual(['booking', 'booking', 'reservation', 'event', 'booking']);
      expect(holders[2]!.source_id).toBe(reservationId);
      expect(holders[3]!.source_id).toBe(eventId);
    });

    it('refuses an unknown schedule or event type with 422 as a single booking', async () => {
      const scheduleId = await createSchedule(t, a);
      const res = await series(UNKNOWN_ID, { ...bookingBody(scheduleId), schedule_id: UNKNOWN_ID, recurrence: { frequency: 'daily', count: 2 } }).expect(422);
      expect(fieldsOf(res.body)).toEqual(['schedule_id']);
      const typed = await series(scheduleId, { ...bookingBody(scheduleId), event_type_id: UNKNOWN_ID, recurrence: { frequency: 'daily', count: 2 } }).expect(422);
      expect(fieldsOf(typed.body)).toEqual(['event_type_id']);
    });
  });

  describe('bad input', () => {
    const start = { start_time: '2027-03-02T10:00:00Z', end_time: '2027-03-02T11:00:00Z' };
    it.each([
      [{ recurrence: { frequency: 'daily', count: 1 } }, 'recurrence.count'],
      [{ recurrence: { frequency: 'daily', count: 53 } }, 'recurrence.count'],
      [{ recurrence: { frequency: 'daily', count: 2.5 } }, 'recurrence.count'],
      [{ recurrence: { frequency: 'daily', count: '3' } }, 'recurrence.count'],
      [{ recurrence: { frequency: 'daily' } }, 'recurrence.count'],
      [{ recurrence: { frequency: 'daily', count: 3, interval: 0 } }, 'recurrence.interval'],
      [{ recurrence: { frequency: 'daily', count: 3, interval: 13 } }, 'recurrence.interval'],
      [{ recurrence: { frequency: 'daily', count: 3, interval: null } }, 'recurrence.interval'],
      [{ recurrence: { frequency: 'yearly', count: 3 } }, 'recurrence.frequency'],
      [{ recurrence: { count: 3 } }, 'recurrence.frequency'],
      [{ recurrence: { frequency: 'daily', count: 3, until: '2027-04-01' } }, 'recurrence.until'],
      [{ recurrence: null }, 'recurrence'],
      [{ recurrence: [] }, 'recurrence'],
      [{ recurrence: { frequency: 'daily', count: 3 }, on_conflict: 'fail' }, 'on_conflict'],
      [{ on_conflict: 'skip' }, 'on_conflict'],
      // A reservation holds one slot: a series cannot consume it.
      [{ recurrence: { frequency: 'daily', count: 3 }, reservation_id: UNKNOWN_ID }, 'reservation_id'],
      [{ start_time: '2027-03-29T10:00:00Z', end_time: '2027-03-29T11:00:00Z', recurrence: { frequency: 'monthly', count: 3 } }, 'start_time'],
      // The 28th at 23:30 UTC is the 29th in Tokyo, the booking's zone.
      [
        { start_time: '2027-03-28T23:30:00Z', end_time: '2027-03-29T00:30:00Z', timezone: 'Asia/Tokyo', recurrence: { frequency: 'monthly', count: 3 } },
        'start_time',
      ],
    ])('refuses %j with 400 naming the field', async (extra, field) => {
      const scheduleId = await createSchedule(t, a);
      const res = await series(scheduleId, { ...start, ...extra }).expect(400);
      expect(res.body.code).toBe('validation_failed');
      expect([...new Set(fieldsOf(res.body))]).toEqual([field]);
      expect(await rowsOfSchedule(scheduleId)).toHaveLength(0);
    });
  });

  describe('a series: its GET and its cancellation', () => {
    async function weekly(scheduleId: string, count = 5): Promise<{ id: string; bookings: Json[] }> {
      const res = await series(scheduleId, {
        start_time: '2027-03-02T10:00:00Z',
        end_time: '2027-03-02T11:00:00Z',
        recurrence: { frequency: 'weekly', count },
      }).expect(201);
      return { id: res.body.data.series_id, bookings: res.body.data.bookings };
    }

    it('cancels from an occurrence on: that one and the later PENDING/CONFIRMED ones, one booking.cancelled each', async () => {
      const scheduleId = await createSchedule(t, a);
      const s = await weekly(scheduleId);
      const ids = s.bookings.map((b) => b['id'] as string);
      await t.api.patch(`/api/v1/bookings/${ids[3]}`).set(a.auth).send({ status: 'CONFIRMED' }).expect(200);
      await t.api.delete(`/api/v1/bookings/${ids[2]}`).set(a.auth).expect(200);
      await t.api.patch(`/api/v1/bookings/${ids[0]}`).set(a.auth).send({ status: 'CONFIRMED' }).expect(200);

      const res = await t.api.delete(`/api/v1/booking-series/${s.id}`).query({ from: ids[1] }).set(a.auth).expect(200);
      // 1, 3 and 4 (2 was cancelled already).
      expect(res.body.data).toEqual({ id: s.id, cancelled: 3 });
      const got = await t.api.get(`/api/v1/booking-series/${s.id}`).set(a.auth).expect(200);
      expect(got.body.data.bookings.map((b: Json) => b['status'])).toEqual(['CONFIRMED', 'CANCELLED', 'CANCELLED', 'CANCELLED', 'CANCELLED']);
      expect(got.body.data.bookings.every((b: Json, i: number) => i === 0 || b['cancelled_at'] !== null)).toBe(true);
      const events = await eventsOf('booking.cancelled', [ids[1]!, ids[3]!, ids[4]!]);
      expect(events.map((e) => [e.booking_id, e.previous_status, e.data['status']]).sort()).toEqual(
        [
          [ids[1], 'PENDING', 'CANCELLED'],
          [ids[3], 'CONFIRMED', 'CANCELLED'],
          [ids[4], 'PENDING', 'CANCELLED'],
        ].sort(),
      );
      // ids[2]'s own cancellation announced once, not again.
      expect(await eventsOf('booking.cancelled', [ids[2]!])).toHaveLength(1);

      // Without from: the rest (the first, CONFIRMED). Again: nothing left.
      const rest = await t.api.delete(`/api/v1/booking-series/${s.id}`).set(a.auth).expect(200);
      expect(rest.body.data).toEqual({ id: s.id, cancelled: 1 });
      const again = await t.api.delete(`/api/v1/booking-series/${s.id}`).set(a.auth).expect(200);
      expect(again.body.data).toEqual({ id: s.id, cancelled: 0 });
      expect((await rowsOfSchedule(scheduleId)).every((r) => r.status === 'CANCELLED')).toBe(true);
      // The time is free again.
      await weekly(scheduleId);
    });

    it('answers 400 for a from that is not a UUID, 404 for one that is not an occurrence, an unknown or foreign series', async () => {
      const scheduleId = await createSchedule(t, a);
      const s = await weekly(scheduleId, 2);
      const other = await weekly(await createSchedule(t, a), 2);
      const single = await createBooking(t, a, scheduleId, { start_time: '2027-05-01T10:00:00Z', end_time: '2027-05-01T11:00:00Z' });
      const bad = await t.api.delete(`/api/v1/booking-series/${s.id}`).query({ from: 'first' }).set(a.auth).expect(400);
      expect(fieldsOf(bad.body)).toEqual(['from']);
      for (const from of [UNKNOWN_ID, other.bookings[0]!['id'], single['id']]) {
        await t.api.delete(`/api/v1/booking-series/${s.id}`).query({ from }).set(a.auth).expect(404);
      }
      await t.api.get(`/api/v1/booking-series/${UNKNOWN_ID}`).set(a.auth).expect(404);
      await t.api.delete(`/api/v1/booking-series/${UNKNOWN_ID}`).set(a.auth).expect(404);
      await t.api.get('/api/v1/booking-series/not-a-uuid').set(a.auth).expect(404);
      const b = await t.tenant();
      await t.api.get(`/api/v1/booking-series/${s.id}`).set(b.auth).expect(404);
      await t.api.delete(`/api/v1/booking-series/${s.id}`).set(b.auth).expect(404);
      expect((await rowsOfSchedule(scheduleId)).map((r) => r.status)).toEqual(['PENDING', 'PENDING', 'PENDING']);
    });
  });

  it('replays a series for the same Idempotency-Key: one series, the same body and Location', async () => {
    const scheduleId = await createSchedule(t, a);
    const body = {
      schedule_id: scheduleId,
      attendee: ATTENDEE,
      start_time: '2027-03-02T10:00:00Z',
      end_time: '2027-03-02T11:00:00Z',
      recurrence: { frequency: 'daily', count: 5 },
    };
    const headers = { ...a.auth, 'Idempotency-Key': 'series-1' };
    const first = await t.api.post('/api/v1/bookings').set(headers).send(body).expect(201);
    const second = await t.api.post('/api/v1/bookings').set(headers).send(body).expect(201);
    expect(second.body).toEqual(first.body);
    expect(second.headers['location']).toBe(first.headers['location']);
    expect(await rowsOfSchedule(scheduleId)).toHaveLength(5);
    expect(await t.query('SELECT 1 FROM booking_series WHERE organization_id = $1', [a.orgId])).toHaveLength(1);
    await t.api.post('/api/v1/bookings').set(headers).send({ ...body, recurrence: { frequency: 'daily', count: 6 } }).expect(422);
  });

  describe('concurrency', () => {
    it('overlapping series sent together: each all or nothing, and no two bookings overlap afterwards', async () => {
      const scheduleId = await createSchedule(t, a);
      // Twelve weekly series of ten: two of each start, the starts 30 minutes apart, each an hour long,
      // so every series overlaps its twin and its neighbours; single bookings in between.
      const requests = Array.from({ length: 12 }, (_, i) => {
        const start = Date.UTC(2027, 3, 5, 9) + Math.floor(i / 2) * 30 * 60_000;
        return series(scheduleId, {
          start_time: new Date(start).toISOString(),
          end_time: new Date(start + 3_600_000).toISOString(),
          recurrence: { frequency: 'weekly', count: 10 },
        });
      });
      const singles = Array.from({ length: 4 }, (_, i) =>
        t.api
          .post('/api/v1/bookings')
          .set(a.auth)
          .send(bookingBody(scheduleId, { start_time: `2027-05-${10 + 7 * i}T10:15:00Z`, end_time: `2027-05-${10 + 7 * i}T10:45:00Z` })),
      );
      const answers = await Promise.all([...requests, ...singles]);
      const seriesAnswers = answers.slice(0, 12);
      expect(seriesAnswers.every((r) => r.status === 201 || r.status === 409)).toBe(true);
      expect(answers.slice(12).every((r) => r.status === 201 || r.status === 409)).toBe(true);
      const won = seriesAnswers.filter((r) => r.status === 201);
      expect(won.length).toBeGreaterThanOrEqual(1);
      for (const r of seriesAnswers.filter((r) => r.status === 409)) expect(r.body.code).toMatch(/^(recurrence_conflict|booking_overlap)$/);
      const perSeries = await t.query<{ series_id: string; n: number }>(
        'SELECT series_id, count(*)::int AS n FROM bookings WHERE schedule_id = $1 AND series_id IS NOT NULL GROUP BY series_id',
        [scheduleId],
      );
      expect(perSeries.map((r) => r.n)).toEqual(won.map(() => 10));
      expect(perSeries.map((r) => r.series_id).sort()).toEqual(won.map((r) => r.body.data.series_id).sort());
      const overlaps = await t.query(
        `SELECT 1 FROM bookings x JOIN bookings y ON x.schedule_id = y.schedule_id AND x.id < y.id
          WHERE x.schedule_id = $1 AND x.status IN ('PENDING', 'CONFIRMED') AND y.status IN ('PENDING', 'CONFIRMED')
            AND tstzrange(x.start_time, x.end_time) && tstzrange(y.start_time, y.end_time)`,
        [scheduleId],
      );
      expect(overlaps).toEqual([]);
    });

    it('series and reservations of their times sent together: never a 5xx, and nothing of one schedule overlaps afterwards', async () => {
      const scheduleId = await createSchedule(t, a, { timezone: 'UTC', availability: WEEKDAYS_9_TO_5 });
      const eventTypeId = await createEventType(t, a, { duration: 60 });
      // Four weekly series at 10:00 from Tuesday 2027-03-02 and a reservation of each of their times,
      // interleaved so that some reservations land between a series' check and its insert.
      const seriesRequest = () =>
        series(scheduleId, {
          event_type_id: eventTypeId,
          start_time: '2027-03-02T10:00:00Z',
          end_time: '2027-03-02T11:00:00Z',
          recurrence: { frequency: 'weekly', count: 6 },
        });
      const reservationRequest = (week: number) =>
        t.api
          .post('/api/v1/slots/reservations')
          .set(a.auth)
          .send({ schedule_id: scheduleId, event_type_id: eventTypeId, start_time: new Date(Date.UTC(2027, 2, 2 + 7 * week, 10)).toISOString() });
      const kinds = ['series', 'reservation', 'series', 'reservation', 'reservation', 'series', 'reservation', 'reservation', 'series', 'reservation'];
      let week = 0;
      const answers = await Promise.all(kinds.map((kind) => (kind === 'series' ? seriesRequest() : reservationRequest(week++))));
      expect(answers.map((r) => r.status).filter((status) => status !== 201 && status !== 409)).toEqual([]);
      const seriesAnswers = answers.filter((_, i) => kinds[i] === 'series');
      const seriesWon = seriesAnswers.filter((r) => r.status === 201);
      const reservationsWon = answers.filter((r, i) => kinds[i] === 'reservation' && r.status === 201);
      for (const r of seriesAnswers.filter((r) => r.status === 409)) expect(r.body.code).toMatch(/^(recurrence_conflict|booking_overlap)$/);
      // At most one series, all of it, and then no reservation (they are of its times).
      expect(seriesWon.length).toBeLessThanOrEqual(1);
      if (seriesWon.length === 1) expect(reservationsWon).toHaveLength(0);
      const held = await t.query<{ kind: string; n: number }>(
        'SELECT kind, count(*)::int AS n FROM schedule_blocked_times WHERE schedule_id = $1 GROUP BY kind ORDER BY kind',
        [scheduleId],
      );
      expect(held).toEqual(seriesWon.length === 1 ? [{ kind: 'booking', n: 6 }] : [{ kind: 'reservation', n: reservationsWon.length }]);
      const overlaps = await t.query(
        `SELECT 1 FROM schedule_blocked_times x JOIN schedule_blocked_times y
            ON x.schedule_id = y.schedule_id AND (x.kind, x.source_id) < (y.kind, y.source_id) AND x.during && y.during
          WHERE x.schedule_id = $1`,
        [scheduleId],
      );
      expect(overlaps).toEqual([]);
    });

    it('series racing for the last place of a daily limit: one wins', async () => {
      const scheduleId = await createSchedule(t, a, { availability: WEEKDAYS_9_TO_5 });
      const eventTypeId = await createEventType(t, a, { duration: 30, max_bookings_per_day: 1 });
      // Eight weekly series at different hours of the same days: only the daily limit separates them.
      const answers = await Promise.all(
        Array.from({ length: 8 }, (_, i) =>
          series(scheduleId, {
            event_type_id: eventTypeId,
            start_time: `2027-03-02T${String(9 + i).padStart(2, '0')}:00:00Z`,
            end_time: `2027-03-02T${String(9 + i).padStart(2, '0')}:30:00Z`,
            recurrence: { frequency: 'weekly', count: 4 },
          }),
        ),
      );
      expect(answers.map((r) => r.status).sort()).toEqual([201, 409, 409, 409, 409, 409, 409, 409]);
      for (const r of answers.filter((r) => r.status === 409)) {
        expect(r.body.conflicts.map((c: Json) => c['reason'])).toEqual(['daily_limit', 'daily_limit', 'daily_limit', 'daily_limit']);
      }
      expect(await rowsOfSchedule(scheduleId)).toHaveLength(4);
    });
  });
});
