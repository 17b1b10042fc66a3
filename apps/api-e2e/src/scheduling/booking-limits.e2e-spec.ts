import { ExternalBookingsService, ImportedBooking } from '@almanac/scheduling';
import { SqlClient } from '@almanac/shared';
import type { Response } from 'supertest';
import { createTestApp, Tenant, TestApp } from '../support/test-app';
import { bookingBody, createEventType, createSchedule, fieldsOf, SCHEDULING_TEST_CONFIG } from './scheduling-helpers';

const M = 60_000;
const ALL_DAY = [{ days: ['mon', 'tue', 'wed', 'thu', 'fri', 'sat', 'sun'], start: '00:00', end: '24:00' }];
const TYPE_LIMITS = ['max_bookings_per_week', 'max_bookings_per_month', 'max_booked_minutes_per_day', 'max_booked_minutes_per_week'];
const SCHEDULE_LIMITS = ['max_bookings_per_day', 'max_bookings_per_week', 'max_booked_minutes_per_day', 'max_booked_minutes_per_week'];

/**
 * Limits over periods: an event type's over its bookings on a schedule, a schedule's over all of
 * its bookings, in days, weeks from Monday and calendar months of the schedule's time zone.
 */
describe('limits over periods (e2e)', () => {
  let t: TestApp;
  let a: Tenant;

  beforeAll(async () => {
    t = await createTestApp({ config: SCHEDULING_TEST_CONFIG });
  });
  afterAll(async () => t.close());
  beforeEach(async () => {
    t.clock.set('2026-11-21T08:00:00.000Z');
    a = await t.tenant();
  });

  /** A booking of `minutes` from `start` (an instant), with the given event type or none. */
  function book(scheduleId: string, start: string, minutes = 30, eventTypeId: string | null = null) {
    const end = new Date(Date.parse(start) + minutes * M).toISOString();
    return t.api
      .post('/api/v1/bookings')
      .set(a.auth)
      .send(bookingBody(scheduleId, { start_time: start, end_time: end, ...(eventTypeId ? { event_type_id: eventTypeId } : {}) }));
  }

  function reschedule(id: string, start: string, minutes = 30) {
    const end = new Date(Date.parse(start) + minutes * M).toISOString();
    return t.api.patch(`/api/v1/bookings/${id}`).set(a.auth).send({ start_time: start, end_time: end });
  }

  function expectRefused(res: Response, reason: string): void {
    expect(res.status).toBe(409);
    expect(res.body).toMatchObject({ code: 'slot_unavailable', reason });
  }

  async function activeCount(scheduleId: string): Promise<number> {
    const [row] = await t.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM bookings WHERE schedule_id = $1 AND status IN ('PENDING', 'CONFIRMED')`,
      [scheduleId],
    );
    return row!.n;
  }

  async function slotStarts(scheduleId: string, eventTypeId: string, start: string, end: string): Promise<string[]> {
    const res = await t.api
      .get('/api/v1/slots')
      .query({ schedule_id: scheduleId, event_type_id: eventTypeId, start, end })
      .set(a.auth)
      .expect(200);
    return (res.body.data as { start_time: string }[]).map((s) => s.start_time);
  }

  /** A Paris schedule open around the clock every day (so an event type's limits apply). */
  function parisSchedule(extra: Record<string, unknown> = {}): Promise<string> {
    return createSchedule(t, a, { timezone: 'Europe/Paris', availability: ALL_DAY, ...extra });
  }

  describe('fields', () => {
    it('event types: null by default, set on create and PATCH (null clears), in every response, bounded', async () => {
      const created = await t.api.post('/api/v1/event-types').set(a.auth).send({ title: 'Call', duration: 30 }).expect(201);
      for (const field of TYPE_LIMITS) expect(created.body.data[field]).toBeNull();
      const limits = {
        max_bookings_per_week: 10000,
        max_bookings_per_month: 1,
        max_booked_minutes_per_day: 100000,
        max_booked_minutes_per_week: 1,
      };
      const id = created.body.data.id as string;
      const patched = await t.api.patch(`/api/v1/event-types/${id}`).set(a.auth).send(limits).expect(200);
      expect(patched.body.data).toMatchObject(limits);
      const got = await t.api.get(`/api/v1/event-types/${id}`).set(a.auth).expect(200);
      expect(got.body.data).toMatchObject(limits);
      const list = await t.api.get('/api/v1/event-types').set(a.auth).expect(200);
      expect(list.body.data[0]).toMatchObject(limits);
      const cleared = await t.api.patch(`/api/v1/event-types/${id}`).set(a.auth).send({ max_bookings_per_week: null }).expect(200);
      expect(cleared.body.data.max_bookings_per_week).toBeNull();
      const made = await t.api.post('/api/v1/event-types').set(a.auth).send({ title: 'Call', duration: 30, ...limits }).expect(201);
      expect(made.body.data).toMatchObject(limits);
      const [row] = await t.query<Record<string, number>>(
        `SELECT ${TYPE_LIMITS.join(', ')} FROM event_types WHERE id = $1`,
        [made.body.data.id],
      );
      expect(row).toEqual(limits);

      for (const [field, bad] of [
        ['max_bookings_per_week', 0],
        ['max_bookings_per_week', 10001],
        ['max_bookings_per_month', 10001],
        ['max_bookings_per_month', 1.5],
        ['max_booked_minutes_per_day', 100001],
        ['max_booked_minutes_per_week', 0],
        ['max_booked_minutes_per_week', '60'],
      ] as const) {
        const res = await t.api.post('/api/v1/event-types').set(a.auth).send({ title: 'Call', duration: 30, [field]: bad }).expect(400);
        expect(new Set(fieldsOf(res.body))).toEqual(new Set([field]));
        const patch = await t.api.patch(`/api/v1/event-types/${id}`).set(a.auth).send({ [field]: bad }).expect(400);
        expect(new Set(fieldsOf(patch.body))).toEqual(new Set([field]));
      }
    });

    it('schedules: null by default, set on create and PATCH (null clears), in every response, bounded', async () => {
      const created = await t.api.post('/api/v1/schedules').set(a.auth).send({ name: 'Room' }).expect(201);
      for (const field of SCHEDULE_LIMITS) expect(created.body.data[field]).toBeNull();
      const limits = {
        max_bookings_per_day: 10000,
        max_bookings_per_week: 1,
        max_booked_minutes_per_day: 1,
        max_booked_minutes_per_week: 100000,
      };
      const id = created.body.data.id as string;
      const patched = await t.api.patch(`/api/v1/schedules/${id}`).set(a.auth).send(limits).expect(200);
      expect(patched.body.data).toMatchObject({ ...limits, name: 'Room' });
      const got = await t.api.get(`/api/v1/schedules/${id}`).set(a.auth).expect(200);
      expect(got.body.data).toMatchObject(limits);
      const cleared = await t.api.patch(`/api/v1/schedules/${id}`).set(a.auth).send({ max_bookings_per_day: null }).expect(200);
      expect(cleared.body.data).toMatchObject({ max_bookings_per_day: null, max_bookings_per_week: 1 });
      const made = await t.api.post('/api/v1/schedules').set(a.auth).send({ name: 'Room', ...limits }).expect(201);
      const [row] = await t.query<Record<string, number>>(
        `SELECT ${SCHEDULE_LIMITS.join(', ')} FROM schedules WHERE id = $1`,
        [made.body.data.id],
      );
      expect(row).toEqual(limits);

      for (const [field, bad] of [
        ['max_bookings_per_day', 0],
        ['max_bookings_per_day', 10001],
        ['max_bookings_per_week', 2.5],
        ['max_booked_minutes_per_day', 100001],
        ['max_booked_minutes_per_week', -1],
      ] as const) {
        const res = await t.api.post('/api/v1/schedules').set(a.auth).send({ name: 'Room', [field]: bad }).expect(400);
        expect(new Set(fieldsOf(res.body))).toEqual(new Set([field]));
        const patch = await t.api.patch(`/api/v1/schedules/${id}`).set(a.auth).send({ [field]: bad }).expect(400);
        expect(new Set(fieldsOf(patch.body))).toEqual(new Set([field]));
      }
    });
  });

  describe('an event type', () => {
    it('weekly limit: weeks run from Monday 00:00 to Monday 00:00, local', async () => {
      const schedule = await parisSchedule();
      const type = await createEventType(t, a, { duration: 30, max_bookings_per_week: 2 });
      // Monday 2027-01-04 00:00 in Paris is 2027-01-03T23:00Z; the next Monday 00:00 is 2027-01-10T23:00Z.
      await book(schedule, '2027-01-03T23:00:00Z', 30, type).expect(201);
      await book(schedule, '2027-01-06T10:00:00Z', 30, type).expect(201);
      expectRefused(await book(schedule, '2027-01-10T22:30:00Z', 30, type), 'weekly_limit');
      // The Sunday before that Monday belongs to the week before.
      await book(schedule, '2027-01-03T22:30:00Z', 30, type).expect(201);
      await book(schedule, '2027-01-10T23:00:00Z', 30, type).expect(201);
      // Another event type, a booking without one: neither counts against this type.
      const other = await createEventType(t, a, { duration: 30 });
      await book(schedule, '2027-01-07T10:00:00Z', 30, other).expect(201);
      await book(schedule, '2027-01-07T12:00:00Z', 30).expect(201);
      expect(await activeCount(schedule)).toBe(6);
    });

    it('weekly limit in the weeks of the DST changes: the week ends at the local Monday midnight', async () => {
      const schedule = await parisSchedule();
      const type = await createEventType(t, a, { duration: 30, max_bookings_per_week: 1 });
      // Spring: the week of 2027-03-28 starts at 03-21T23:00Z (UTC+1) and ends at 03-28T22:00Z (UTC+2).
      await book(schedule, '2027-03-21T23:00:00Z', 30, type).expect(201);
      expectRefused(await book(schedule, '2027-03-28T21:30:00Z', 30, type), 'weekly_limit');
      await book(schedule, '2027-03-28T22:00:00Z', 30, type).expect(201);
      // Autumn: the week of 2027-10-31 starts at 10-24T22:00Z (UTC+2) and ends at 10-31T23:00Z (UTC+1).
      await book(schedule, '2027-10-24T22:00:00Z', 30, type).expect(201);
      expectRefused(await book(schedule, '2027-10-31T22:30:00Z', 30, type), 'weekly_limit');
      await book(schedule, '2027-10-31T23:00:00Z', 30, type).expect(201);
    });

    it('monthly limit: calendar months, local (a month may end at 22:00Z or 23:00Z)', async () => {
      const schedule = await parisSchedule();
      const type = await createEventType(t, a, { duration: 30, max_bookings_per_month: 1 });
      // February 1st 00:00 in Paris is 2027-01-31T23:00Z.
      await book(schedule, '2027-01-31T22:30:00Z', 30, type).expect(201);
      expectRefused(await book(schedule, '2027-01-01T08:00:00Z', 30, type), 'monthly_limit');
      await book(schedule, '2027-01-31T23:00:00Z', 30, type).expect(201);
      expectRefused(await book(schedule, '2027-02-28T22:00:00Z', 30, type), 'monthly_limit');
      // April 1st 00:00 in Paris (summer time) is 2027-03-31T22:00Z: 22:30Z is April there.
      await book(schedule, '2027-03-31T21:30:00Z', 30, type).expect(201);
      await book(schedule, '2027-03-31T22:30:00Z', 30, type).expect(201);
      expectRefused(await book(schedule, '2027-04-30T21:00:00Z', 30, type), 'monthly_limit');
    });

    it('minutes limits: the durations (without buffers) of the day and of the week', async () => {
      const schedule = await parisSchedule();
      const type = await createEventType(t, a, {
        duration: 30,
        buffer_before: 30,
        buffer_after: 30,
        max_booked_minutes_per_day: 90,
        max_booked_minutes_per_week: 150,
      });
      // Monday 2027-01-11 (Paris): 60 + 30 minutes fill the day exactly, buffers not counted.
      await book(schedule, '2027-01-11T08:00:00Z', 60, type).expect(201);
      await book(schedule, '2027-01-11T10:00:00Z', 30, type).expect(201);
      expectRefused(await book(schedule, '2027-01-11T12:00:00Z', 5, type), 'duration_limit');
      // Tuesday: 60 more is 150 in the week; one more minute goes past it.
      await book(schedule, '2027-01-12T08:00:00Z', 60, type).expect(201);
      expectRefused(await book(schedule, '2027-01-13T08:00:00Z', 1, type), 'duration_limit');
      // The next week is empty.
      await book(schedule, '2027-01-18T08:00:00Z', 90, type).expect(201);
    });

    it('applies on a schedule with availability only, like its other rules', async () => {
      const open = await createSchedule(t, a, { timezone: 'Europe/Paris' });
      const type = await createEventType(t, a, { duration: 30, max_bookings_per_week: 1 });
      await book(open, '2027-01-11T08:00:00Z', 30, type).expect(201);
      await book(open, '2027-01-12T08:00:00Z', 30, type).expect(201);
    });

    it('names the first reason: notice and window before availability, overlap before limits, daily before weekly', async () => {
      const schedule = await createSchedule(t, a, {
        timezone: 'Europe/Paris',
        availability: [{ days: ['mon', 'tue', 'wed', 'thu', 'fri'], start: '09:00', end: '17:00' }],
      });
      const notice = await createEventType(t, a, { duration: 30, minimum_notice: 60 * 24 * 30 });
      // Saturday, outside availability, and too soon: the notice is named.
      expectRefused(await book(schedule, '2026-11-28T08:00:00Z', 30, notice), 'minimum_notice');
      const window = await createEventType(t, a, { duration: 30, booking_window_days: 10 });
      expectRefused(await book(schedule, '2027-01-09T08:00:00Z', 30, window), 'booking_window');

      const type = await createEventType(t, a, { duration: 30, max_bookings_per_day: 1, max_bookings_per_week: 1 });
      await book(schedule, '2027-01-11T08:00:00Z', 30, type).expect(201);
      // Same time: the overlap, not the limit.
      const overlap = await book(schedule, '2027-01-11T08:00:00Z', 30, type).expect(409);
      expect(overlap.body.code).toBe('booking_overlap');
      expectRefused(await book(schedule, '2027-01-11T10:00:00Z', 30, type), 'daily_limit');
      expectRefused(await book(schedule, '2027-01-12T10:00:00Z', 30, type), 'weekly_limit');
    });
  });

  describe('a schedule', () => {
    it('counts every booking it holds, with or without an event type or availability', async () => {
      const schedule = await createSchedule(t, a, { timezone: 'Europe/Paris', max_bookings_per_day: 3 });
      const one = await createEventType(t, a, { duration: 30 });
      const two = await createEventType(t, a, { duration: 30 });
      // Tuesday 2027-01-12 in Paris: from 01-11T23:00Z to 01-12T23:00Z.
      await book(schedule, '2027-01-11T23:00:00Z', 30, one).expect(201);
      await book(schedule, '2027-01-12T10:00:00Z', 30, two).expect(201);
      await book(schedule, '2027-01-12T12:00:00Z', 30).expect(201);
      expectRefused(await book(schedule, '2027-01-12T22:30:00Z', 30), 'schedule_limit');
      expectRefused(await book(schedule, '2027-01-12T14:00:00Z', 30, one), 'schedule_limit');
      await book(schedule, '2027-01-12T23:00:00Z', 30).expect(201);
      await book(schedule, '2027-01-11T22:30:00Z', 30, two).expect(201);
      expect(await activeCount(schedule)).toBe(5);
    });

    it('weekly count and minutes limits, and a type limit named before the schedule one', async () => {
      const schedule = await parisSchedule({ max_bookings_per_week: 3, max_booked_minutes_per_week: 120, max_booked_minutes_per_day: 60 });
      const type = await createEventType(t, a, { duration: 30, max_bookings_per_week: 1 });
      await book(schedule, '2027-01-11T08:00:00Z', 60).expect(201);
      expectRefused(await book(schedule, '2027-01-11T10:00:00Z', 1), 'schedule_limit');
      await book(schedule, '2027-01-12T08:00:00Z', 30, type).expect(201);
      expectRefused(await book(schedule, '2027-01-13T08:00:00Z', 30, type), 'weekly_limit');
      await book(schedule, '2027-01-13T08:00:00Z', 30).expect(201);
      // Three bookings and 120 minutes: the schedule's week is full too; with the type, its own limit is named.
      expectRefused(await book(schedule, '2027-01-14T08:00:00Z', 1), 'schedule_limit');
      expectRefused(await book(schedule, '2027-01-14T08:00:00Z', 30, type), 'weekly_limit');
      await book(schedule, '2027-01-18T08:00:00Z', 60).expect(201);
    });

    it('counts imported bookings, which are never refused by a limit', async () => {
      const schedule = await createSchedule(t, a, { timezone: 'Europe/Paris', max_bookings_per_day: 2 });
      const occurrences = ['2027-01-12T08:00:00Z', '2027-01-12T10:00:00Z', '2027-01-12T12:00:00Z'].map((start, i) =>
        ImportedBooking.from(
          {
            uid: `import-${i}@example.com`,
            recurrenceId: null,
            title: 'Imported',
            location: null,
            start: new Date(start),
            end: new Date(Date.parse(start) + 30 * M),
            contact: { name: 'Organizer', email: null },
          },
          'External calendar',
        ),
      );
      const outcome = await t.app
        .get(ExternalBookingsService)
        .reconcileImported(a.orgId, schedule, { start: new Date('2027-01-01T00:00:00Z'), end: new Date('2027-02-01T00:00:00Z') }, occurrences);
      expect(outcome.synced).toBe(3);
      expect(await activeCount(schedule)).toBe(3);
      expectRefused(await book(schedule, '2027-01-12T15:00:00Z', 30), 'schedule_limit');
      const type = await createEventType(t, a, { duration: 30 });
      // Paris dates: the 12th (01-11T23:00Z to 01-12T23:00Z) is full, the 13th is not.
      const starts = await slotStarts(schedule, type, '2027-01-12', '2027-01-14');
      expect(starts.length).toBeGreaterThan(0);
      expect(starts.every((s) => s >= '2027-01-12T23:00:00.000Z')).toBe(true);
      await book(schedule, '2027-01-13T15:00:00Z', 30).expect(201);
    });

    it('may be lowered below what is booked: new bookings only are refused', async () => {
      const schedule = await createSchedule(t, a);
      await book(schedule, '2027-01-12T08:00:00Z').expect(201);
      await book(schedule, '2027-01-12T09:00:00Z').expect(201);
      await t.api.patch(`/api/v1/schedules/${schedule}`).set(a.auth).send({ max_bookings_per_day: 1 }).expect(200);
      expect(await activeCount(schedule)).toBe(2);
      expectRefused(await book(schedule, '2027-01-12T10:00:00Z'), 'schedule_limit');
    });
  });

  describe('a reschedule', () => {
    it('does not count the booking itself, and is refused into a full period', async () => {
      const schedule = await parisSchedule({ max_bookings_per_day: 1 });
      const type = await createEventType(t, a, { duration: 30, max_bookings_per_week: 1 });
      const made = await book(schedule, '2027-01-11T08:00:00Z', 30, type).expect(201);
      const id = made.body.data.id as string;
      // Within its own day and week: nothing else counts.
      await reschedule(id, '2027-01-11T09:00:00Z').expect(200);
      await reschedule(id, '2027-01-13T09:00:00Z').expect(200);
      await book(schedule, '2027-01-18T08:00:00Z', 30, type).expect(201);
      expectRefused(await reschedule(id, '2027-01-19T09:00:00Z'), 'weekly_limit');
      // A booking without an event type meets the schedule's limits.
      const plain = await book(schedule, '2027-01-20T08:00:00Z').expect(201);
      expectRefused(await reschedule(plain.body.data.id as string, '2027-01-13T12:00:00Z'), 'schedule_limit');
      const [row] = await t.query<{ start_time: Date }>('SELECT start_time FROM bookings WHERE id = $1', [plain.body.data.id]);
      expect(row!.start_time.toISOString()).toBe('2027-01-20T08:00:00.000Z');
    });
  });

  describe('slots', () => {
    it('hide the weeks and days a limit has filled, DST weeks included', async () => {
      const schedule = await createSchedule(t, a, {
        timezone: 'Europe/Paris',
        availability: [{ days: ['mon', 'tue', 'wed', 'thu', 'fri', 'sat', 'sun'], start: '09:00', end: '11:00' }],
      });
      const type = await createEventType(t, a, { duration: 60, max_bookings_per_week: 1 });
      // The week of the spring change: Monday 2027-03-22 to Sunday 2027-03-28.
      const before = await slotStarts(schedule, type, '2027-03-22', '2027-03-30');
      expect(before).toHaveLength(16);
      await book(schedule, '2027-03-28T07:00:00Z', 60, type).expect(201);
      // Sunday 09:00 is 07:00Z in summer time; the whole week goes, Monday 29th stays.
      expect(await slotStarts(schedule, type, '2027-03-22', '2027-03-30')).toEqual([
        '2027-03-29T07:00:00.000Z',
        '2027-03-29T08:00:00.000Z',
      ]);
      // A schedule limit hides slots of every type.
      await t.api.patch(`/api/v1/schedules/${schedule}`).set(a.auth).send({ max_booked_minutes_per_day: 60 }).expect(200);
      const other = await createEventType(t, a, { duration: 30 });
      await book(schedule, '2027-03-30T07:00:00Z', 60, other).expect(201);
      const starts = await slotStarts(schedule, other, '2027-03-29', '2027-04-01');
      expect(starts.filter((s) => s.startsWith('2027-03-30'))).toEqual([]);
      expect(starts.filter((s) => s.startsWith('2027-03-29'))).toHaveLength(4);
      expect(starts.filter((s) => s.startsWith('2027-03-31'))).toHaveLength(4);
    });

    it('hide a day whose minutes would be passed by the type duration, and offer what still fits', async () => {
      const schedule = await createSchedule(t, a, { timezone: 'UTC', max_booked_minutes_per_day: 90 });
      const long = await createEventType(t, a, { duration: 60 });
      const short = await createEventType(t, a, { duration: 30 });
      await book(schedule, '2027-02-01T08:00:00Z', 60).expect(201);
      expect(await slotStarts(schedule, long, '2027-02-01', '2027-02-02')).toEqual([]);
      expect(await slotStarts(schedule, short, '2027-02-01', '2027-02-02')).toHaveLength(46);
    });
  });

  describe('concurrency', () => {
    async function race(requests: () => Promise<Response>[], reason: string): Promise<void> {
      // The winner: a booking created (201) or moved (200); every other request refused by the limit.
      const results = await Promise.all(requests());
      expect(results.filter((r) => r.status === 201 || r.status === 200)).toHaveLength(1);
      for (const res of results.filter((r) => r.status !== 201 && r.status !== 200)) expectRefused(res, reason);
    }

    it("lets exactly one of 20 concurrent bookings take the last place of a schedule's weekly limit", async () => {
      const schedule = await createSchedule(t, a, { timezone: 'Europe/Paris', max_bookings_per_week: 3 });
      const types = [await createEventType(t, a, { duration: 10 }), await createEventType(t, a, { duration: 10 })];
      await book(schedule, '2027-01-11T08:00:00Z', 10).expect(201);
      await book(schedule, '2027-01-12T08:00:00Z', 10, types[0]!).expect(201);
      // Twenty different times of the same week, with two types or none: only the limit can refuse.
      await race(
        () =>
          Array.from({ length: 20 }, (_, i) =>
            book(schedule, new Date(Date.parse('2027-01-13T08:00:00Z') + i * 20 * M).toISOString(), 10, i % 3 === 2 ? null : types[i % 3]!),
          ),
        'schedule_limit',
      );
      expect(await activeCount(schedule)).toBe(3);
    });

    it("lets exactly one of 20 concurrent bookings and reschedules take the last place of a type's monthly limit", async () => {
      const schedule = await parisSchedule();
      const type = await createEventType(t, a, { duration: 10, max_bookings_per_month: 2 });
      await book(schedule, '2027-01-04T08:00:00Z', 10, type).expect(201);
      // Five bookings of February moving into January, and fifteen new ones there.
      const movers: string[] = [];
      for (let i = 0; i < 5; i++) {
        const res = await book(schedule, new Date(Date.parse('2027-02-02T08:00:00Z') + i * 20 * M).toISOString(), 10, type);
        if (i < 2) movers.push(res.body.data.id as string);
      }
      const freshStart = Date.parse('2027-01-20T08:00:00Z');
      await race(
        () => [
          ...movers.map((id, i) => reschedule(id, new Date(freshStart - (i + 1) * 60 * M).toISOString(), 10)),
          ...Array.from({ length: 18 }, (_, i) => book(schedule, new Date(freshStart + i * 20 * M).toISOString(), 10, type)),
        ],
        'monthly_limit',
      );
      const [row] = await t.query<{ n: number }>(
        `SELECT count(*)::int AS n FROM bookings WHERE schedule_id = $1 AND status IN ('PENDING', 'CONFIRMED')
           AND start_time >= '2026-12-31T23:00:00Z' AND start_time < '2027-01-31T23:00:00Z'`,
        [schedule],
      );
      expect(row!.n).toBe(2);
    });
  });

  describe('the count', () => {
    it('is one statement served by the partial index alone, whatever the bookings', async () => {
      const schedule = await createSchedule(t, a, { timezone: 'Europe/Paris', max_bookings_per_week: 10000 });
      const type = await createEventType(t, a, { duration: 30, max_bookings_per_month: 10000 });
      await t.query(
        `INSERT INTO bookings (id, organization_id, schedule_id, event_type_id, start_time, end_time, timezone, status,
                               title, attendee_name, created_at, updated_at)
         SELECT gen_random_uuid(), $1, $2, CASE WHEN g % 3 = 0 THEN $3::uuid END,
                timestamptz '2027-01-01' + g * interval '30 minutes', timestamptz '2027-01-01' + g * interval '30 minutes' + interval '20 minutes',
                'UTC', (ARRAY['PENDING','CONFIRMED','CANCELLED'])[1 + g % 3], 'Booking', 'n', now(), now()
           FROM generate_series(1, 5000) g`,
        [a.orgId, schedule, type],
      );
      await t.query('VACUUM ANALYZE bookings');
      const sqlClient = t.app.get(SqlClient);
      const thin = sqlClient.query.bind(sqlClient);
      const counts: { sql: string; params: unknown[] }[] = [];
      sqlClient.query = (async (sql: string, params?: unknown[]) => {
        if (/LEFT JOIN LATERAL/.test(sql)) counts.push({ sql, params: params ?? [] });
        return thin(sql, params);
      }) as typeof sqlClient.query;
      try {
        await slotStarts(schedule, type, '2027-01-01', '2027-03-04');
      } finally {
        sqlClient.query = thin;
      }
      expect(counts).toHaveLength(1);
      const plan = (
        await t.query<{ 'QUERY PLAN': string }>(`EXPLAIN (COSTS OFF) ${counts[0]!.sql}`, counts[0]!.params)
      )
        .map((r) => r['QUERY PLAN'])
        .join('\n');
      expect(plan).toMatch(/Index Only Scan using bookings_limits_idx/);
      expect(plan).not.toMatch(/Seq Scan on bookings/);
    });
  });
});
