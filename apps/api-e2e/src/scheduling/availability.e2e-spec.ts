import { createTestApp, Tenant, TestApp } from '../support/test-app';
import {
  bookingBody,
  createEventType,
  createSchedule,
  fieldsOf,
  SCHEDULING_TEST_CONFIG,
  UNKNOWN_ID,
} from './scheduling-helpers';

const WEEKDAYS_9_TO_5 = [{ days: ['mon', 'tue', 'wed', 'thu', 'fri'], start: '09:00', end: '17:00' }];

describe('availability and slots (e2e)', () => {
  let t: TestApp;
  let a: Tenant;

  beforeAll(async () => {
    t = await createTestApp({ config: SCHEDULING_TEST_CONFIG });
  });
  afterAll(async () => t.close());
  beforeEach(async () => {
    // A Saturday.
    t.clock.set('2026-11-21T08:00:00.000Z');
    a = await t.tenant();
  });

  function slots(query: Record<string, string>, expected = 200) {
    return t.api.get('/api/v1/slots').query(query).set(a.auth).expect(expected);
  }

  function book(scheduleId: string, extra: Record<string, unknown>) {
    return t.api.post('/api/v1/bookings').set(a.auth).send(bookingBody(scheduleId, extra));
  }

  describe('schedule availability', () => {
    it('is null and [] by default, accepted on create and PATCH, returned everywhere', async () => {
      const plain = await t.api.post('/api/v1/schedules').set(a.auth).send({ name: 'Room' }).expect(201);
      expect(plain.body.data).toMatchObject({ availability: null, date_overrides: [] });

      const overrides = [
        { date: '2026-12-24', intervals: [{ start: '09:00', end: '12:00' }] },
        { date: '2026-12-25', intervals: [] },
      ];
      const created = await t.api
        .post('/api/v1/schedules')
        .set(a.auth)
        .send({ name: 'Clinic', timezone: 'Europe/Paris', availability: WEEKDAYS_9_TO_5, date_overrides: overrides })
        .expect(201);
      expect(created.body.data).toMatchObject({ availability: WEEKDAYS_9_TO_5, date_overrides: overrides });
      const id = created.body.data.id as string;
      const got = await t.api.get(`/api/v1/schedules/${id}`).set(a.auth).expect(200);
      expect(got.body.data).toEqual(created.body.data);

      const night = [{ days: ['sat', 'sun'], start: '20:00', end: '24:00' }];
      const patched = await t.api.patch(`/api/v1/schedules/${id}`).set(a.auth).send({ availability: night }).expect(200);
      expect(patched.body.data).toMatchObject({ availability: night, date_overrides: overrides, name: 'Clinic' });
      const cleared = await t.api
        .patch(`/api/v1/schedules/${id}`)
        .set(a.auth)
        .send({ availability: null, date_overrides: [] })
        .expect(200);
      expect(cleared.body.data).toMatchObject({ availability: null, date_overrides: [] });
      const list = await t.api.get('/api/v1/schedules').set(a.auth).expect(200);
      expect(list.body.data.find((s: { id: string }) => s.id === id)).toMatchObject({ availability: null });
      const [row] = await t.query<{ availability: unknown }>('SELECT availability FROM schedules WHERE id = $1', [id]);
      expect(row!.availability).toBeNull();
    });

    it.each([
      [{ availability: [{ days: ['monday'], start: '09:00', end: '17:00' }] }, 'availability'],
      [{ availability: [{ days: ['mon'], start: '17:00', end: '09:00' }] }, 'availability'],
      [{ availability: [{ days: ['mon', 'mon'], start: '09:00', end: '10:00' }] }, 'availability'],
      [{ availability: Array.from({ length: 51 }, () => WEEKDAYS_9_TO_5[0]) }, 'availability'],
      [{ availability: {} }, 'availability'],
      [{ date_overrides: [{ date: '2026-12-24', intervals: [] }, { date: '2026-12-24', intervals: [] }] }, 'date_overrides'],
      [{ date_overrides: [{ date: '2026-13-01', intervals: [] }] }, 'date_overrides'],
      [{ date_overrides: null }, 'date_overrides'],
      // Unknown members are refused as in every body, at every depth.
      [{ availability: [{ days: ['mon'], start: '09:00', end: '17:00', timezone: 'UTC' }] }, 'availability'],
      [{ date_overrides: [{ date: '2026-12-24', intervals: [], note: 'x' }] }, 'date_overrides'],
      [{ date_overrides: [{ date: '2026-12-24', intervals: [{ start: '09:00', end: '10:00', label: 'x' }] }] }, 'date_overrides'],
    ])('refuses %j with 400 on create and PATCH', async (body, field) => {
      const res = await t.api.post('/api/v1/schedules').set(a.auth).send({ name: 'Room', ...body }).expect(400);
      expect(fieldsOf(res.body)).toEqual([field]);
      const id = await createSchedule(t, a);
      const patch = await t.api.patch(`/api/v1/schedules/${id}`).set(a.auth).send(body).expect(400);
      expect(fieldsOf(patch.body)).toEqual([field]);
    });
  });

  describe('event type booking rules', () => {
    it('have their defaults, are accepted on create and PATCH (null clears), and are bounded', async () => {
      const rules = {
        buffer_before: 10,
        buffer_after: 720,
        minimum_notice: 525600,
        slot_interval: 15,
        booking_window_days: 3650,
        max_bookings_per_day: 1000,
      };
      const created = await t.api
        .post('/api/v1/event-types')
        .set(a.auth)
        .send({ title: 'Consultation', duration: 30, ...rules })
        .expect(201);
      expect(created.body.data).toMatchObject(rules);
      const id = created.body.data.id as string;
      const patched = await t.api
        .patch(`/api/v1/event-types/${id}`)
        .set(a.auth)
        .send({ slot_interval: null, booking_window_days: null, max_bookings_per_day: null, buffer_before: 0 })
        .expect(200);
      expect(patched.body.data).toMatchObject({
        buffer_before: 0,
        buffer_after: 720,
        slot_interval: null,
        booking_window_days: null,
        max_bookings_per_day: null,
      });
      for (const bad of [
        { buffer_before: 721 },
        { buffer_after: -1 },
        { minimum_notice: 525601 },
        { slot_interval: 4 },
        { booking_window_days: 0 },
        { max_bookings_per_day: 1001 },
        { buffer_before: null },
      ]) {
        const res = await t.api.patch(`/api/v1/event-types/${id}`).set(a.auth).send(bad).expect(400);
        expect([...new Set(fieldsOf(res.body))]).toEqual(Object.keys(bad));
      }
    });
  });

  describe('GET /api/v1/slots', () => {
    let scheduleId: string;
    let eventTypeId: string;

    beforeEach(async () => {
      scheduleId = await createSchedule(t, a, { timezone: 'Europe/Paris', availability: WEEKDAYS_9_TO_5 });
      eventTypeId = await createEventType(t, a, { duration: 60 });
    });

    it('lists the slots of a winter and a summer day in UTC, with local dates and times and meta', async () => {
      const winter = await slots({ event_type_id: eventTypeId, schedule_id: scheduleId, start: '2027-01-11', end: '2027-01-12' });
      expect(winter.body.meta).toEqual({ total: 8, limit: 8, offset: 0, hasMore: false, timezone: 'Europe/Paris' });
      expect(winter.body.data[0]).toEqual({
        start_time: '2027-01-11T08:00:00.000Z',
        end_time: '2027-01-11T09:00:00.000Z',
        local_date: '2027-01-11',
        local_time: '09:00',
      });
      expect(winter.body.data[7].start_time).toBe('2027-01-11T15:00:00.000Z');
      const summer = await slots({ event_type_id: eventTypeId, schedule_id: scheduleId, start: '2027-07-12', end: '2027-07-13' });
      expect(summer.body.data.map((s: { start_time: string }) => s.start_time.slice(11, 16))).toEqual([
        '07:00', '08:00', '09:00', '10:00', '11:00', '12:00', '13:00', '14:00',
      ]);
    });

    it('covers the days of the DST change in the schedule time zone', async () => {
      // Sunday 2027-03-28 (02:00 → 03:00) and Sunday 2027-10-31 (03:00 → 02:00), opened by overrides.
      await t.api
        .patch(`/api/v1/schedules/${scheduleId}`)
        .set(a.auth)
        .send({
          date_overrides: [
            { date: '2027-03-28', intervals: [{ start: '01:00', end: '04:00' }] },
            { date: '2027-10-31', intervals: [{ start: '01:00', end: '04:00' }] },
          ],
        })
        .expect(200);
      const spring = await slots({ event_type_id: eventTypeId, schedule_id: scheduleId, start: '2027-03-28', end: '2027-03-29' });
      // 01:00 to 04:00 local is two real hours that day.
      expect(spring.body.data.map((s: { start_time: string; local_time: string }) => [s.start_time, s.local_time])).toEqual([
        ['2027-03-28T00:00:00.000Z', '01:00'],
        ['2027-03-28T01:00:00.000Z', '03:00'],
      ]);
      const autumn = await slots({ event_type_id: eventTypeId, schedule_id: scheduleId, start: '2027-10-31', end: '2027-11-01' });
      // ... and four real hours on the night back.
      expect(autumn.body.data.map((s: { start_time: string; local_time: string }) => [s.start_time, s.local_time])).toEqual([
        ['2027-10-30T23:00:00.000Z', '01:00'],
        ['2027-10-31T00:00:00.000Z', '02:00'],
        ['2027-10-31T01:00:00.000Z', '02:00'],
        ['2027-10-31T02:00:00.000Z', '03:00'],
      ]);
    });

    it('tells local times in the requested time zone and reads date-only bounds in it', async () => {
      const res = await slots({
        event_type_id: eventTypeId,
        schedule_id: scheduleId,
        start: '2027-01-11',
        end: '2027-01-12',
        timezone: 'America/New_York',
      });
      // 2027-01-11 in New York is 05:00Z to next day 05:00Z: Monday's 08:00Z–15:00Z slots.
      expect(res.body.meta.timezone).toBe('America/New_York');
      expect(res.body.data[0]).toMatchObject({ start_time: '2027-01-11T08:00:00.000Z', local_date: '2027-01-11', local_time: '03:00' });
      expect(res.body.data).toHaveLength(8);
    });

    it('defaults to the 7 days from now and honours slot_interval, notice and window', async () => {
      // Saturday 08:00Z: the next seven days hold five weekdays of eight slots.
      const all = await slots({ event_type_id: eventTypeId, schedule_id: scheduleId });
      expect(all.body.meta.total).toBe(40);
      expect(all.body.data[0].start_time).toBe('2026-11-23T08:00:00.000Z');
      const tuned = await createEventType(t, a, {
        duration: 60,
        slot_interval: 30,
        minimum_notice: 2 * 24 * 60 + 90,
        booking_window_days: 3,
      });
      // now + 2 days 90 min = Monday 09:30Z (10:30 Paris); now + 3 days = Tuesday 08:00Z (09:00 Paris) excluded.
      const res = await slots({ event_type_id: tuned, schedule_id: scheduleId });
      expect(res.body.data.map((s: { local_time: string }) => s.local_time)).toEqual([
        '10:30', '11:00', '11:30', '12:00', '12:30', '13:00', '13:30', '14:00', '14:30', '15:00', '15:30', '16:00',
      ]);
    });

    it('leaves out the blocked time of bookings, buffers of both sides included', async () => {
      const buffered = await createEventType(t, a, { duration: 60, buffer_after: 30 });
      await book(scheduleId, { event_type_id: buffered, start_time: '2027-01-11T10:00:00Z', end_time: '2027-01-11T11:00:00Z' }).expect(201);
      // Blocked 10:00Z–11:30Z: the 09:00Z slot ends where it starts (free), 11:00Z overlaps, 12:00Z is free.
      const res = await slots({ event_type_id: eventTypeId, schedule_id: scheduleId, start: '2027-01-11', end: '2027-01-12' });
      expect(res.body.data.map((s: { start_time: string }) => s.start_time.slice(11, 16))).toEqual([
        '08:00', '09:00', '12:00', '13:00', '14:00', '15:00',
      ]);
      // A slot's own buffer_before of 31 minutes reaches back into the booking's blocked time from
      // 12:00Z (11:29Z < 11:30Z), not from 09:00Z (it ends where the blocked time starts).
      const wide = await createEventType(t, a, { duration: 60, buffer_before: 31 });
      const res2 = await slots({ event_type_id: wide, schedule_id: scheduleId, start: '2027-01-11', end: '2027-01-12' });
      expect(res2.body.data.map((s: { start_time: string }) => s.start_time.slice(11, 16))).toEqual([
        '08:00', '09:00', '13:00', '14:00', '15:00',
      ]);
      // A cancelled booking blocks nothing.
      const [row] = await t.query<{ id: string }>('SELECT id FROM bookings WHERE schedule_id = $1', [scheduleId]);
      await t.api.delete(`/api/v1/bookings/${row!.id}`).set(a.auth).expect(200);
      const res3 = await slots({ event_type_id: eventTypeId, schedule_id: scheduleId, start: '2027-01-11', end: '2027-01-12' });
      expect(res3.body.meta.total).toBe(8);
    });

    it('offers no slot of a day that reached the daily limit', async () => {
      const limited = await createEventType(t, a, { duration: 60, max_bookings_per_day: 1 });
      await book(scheduleId, { event_type_id: limited, start_time: '2027-01-11T08:00:00Z', end_time: '2027-01-11T09:00:00Z' }).expect(201);
      const res = await slots({ event_type_id: limited, schedule_id: scheduleId, start: '2027-01-11', end: '2027-01-13' });
      expect(res.body.data.every((s: { local_date: string }) => s.local_date === '2027-01-12')).toBe(true);
      expect(res.body.meta.total).toBe(8);
    });

    it('opens the whole day without availability', async () => {
      const open = await createSchedule(t, a, { timezone: 'UTC' });
      const res = await slots({ event_type_id: eventTypeId, schedule_id: open, start: '2027-01-09', end: '2027-01-10' });
      expect(res.body.meta.total).toBe(24);
    });

    it('steps by at least 5 minutes: a 1-minute type over 62 always-open days answers with a bounded count', async () => {
      const open = await createSchedule(t, a, { timezone: 'UTC' });
      const minute = await createEventType(t, a, { duration: 1, slot_interval: null });
      const res = await slots({ event_type_id: minute, schedule_id: open, start: '2027-01-11', end: '2027-03-14' });
      // 62 days of 288 five-minute starts, not 89,280 one-minute ones.
      expect(res.body.meta).toMatchObject({ total: 62 * 288, hasMore: false });
      expect(res.body.data).toHaveLength(62 * 288);
      expect(res.body.data.slice(0, 3)).toEqual([
        { start_time: '2027-01-11T00:00:00.000Z', end_time: '2027-01-11T00:01:00.000Z', local_date: '2027-01-11', local_time: '00:00' },
        { start_time: '2027-01-11T00:05:00.000Z', end_time: '2027-01-11T00:06:00.000Z', local_date: '2027-01-11', local_time: '00:05' },
        { start_time: '2027-01-11T00:10:00.000Z', end_time: '2027-01-11T00:11:00.000Z', local_date: '2027-01-11', local_time: '00:10' },
      ]);
    });

    it.each([
      [{ end: '2027-01-11' }, 'end'],
      [{ end: '2027-01-10T23:00:00Z' }, 'end'],
      [{ end: '2027-03-15' }, 'end'],
      [{ end: 'soon' }, 'end'],
      [{ timezone: 'Mars/Olympus' }, 'timezone'],
    ])('refuses %j with 400', async (extra, field) => {
      const res = await slots({ event_type_id: eventTypeId, schedule_id: scheduleId, start: '2027-01-11', ...extra }, 400);
      expect(fieldsOf(res.body)).toEqual([field]);
    });

    it('accepts exactly 62 days, and needs both ids', async () => {
      await slots({ event_type_id: eventTypeId, schedule_id: scheduleId, start: '2027-01-11', end: '2027-03-14' });
      await slots({ schedule_id: scheduleId }, 400);
      await slots({ event_type_id: eventTypeId }, 400);
    });

    it('answers 404 for an unknown or foreign schedule or event type, and 403 without bookings:read', async () => {
      const b = await t.tenant();
      const foreignSchedule = await createSchedule(t, b);
      const foreignType = await createEventType(t, b);
      for (const query of [
        { event_type_id: eventTypeId, schedule_id: UNKNOWN_ID },
        { event_type_id: UNKNOWN_ID, schedule_id: scheduleId },
        { event_type_id: eventTypeId, schedule_id: foreignSchedule },
        { event_type_id: foreignType, schedule_id: scheduleId },
        { event_type_id: 'nope', schedule_id: scheduleId },
      ]) {
        const res = await slots(query, 404);
        expect(res.body.code).toBe('not_found');
      }
      const writer = await t.tenant({ scopes: ['bookings:write'] });
      await t.api
        .get('/api/v1/slots')
        .query({ event_type_id: eventTypeId, schedule_id: scheduleId })
        .set(writer.auth)
        .expect(403);
    });
  });

  describe('bookings against availability', () => {
    let scheduleId: string;

    beforeEach(async () => {
      scheduleId = await createSchedule(t, a, { timezone: 'Europe/Paris', availability: WEEKDAYS_9_TO_5 });
    });

    function expectUnavailable(res: { status: number; body: Record<string, unknown> }, reason: string): void {
      expect(res.status).toBe(409);
      expect(res.body).toMatchObject({ code: 'slot_unavailable', reason, status: 409 });
    }

    it('keeps the event type buffers on the booking (0 without one)', async () => {
      const type = await createEventType(t, a, { duration: 60, buffer_before: 5, buffer_after: 10 });
      const withType = await book(scheduleId, { event_type_id: type, start_time: '2027-01-11T08:00:00Z', end_time: '2027-01-11T09:00:00Z' }).expect(201);
      expect(withType.body.data).toMatchObject({ buffer_before: 5, buffer_after: 10 });
      // Changing the type later does not change the booking.
      await t.api.patch(`/api/v1/event-types/${type}`).set(a.auth).send({ buffer_after: 0 }).expect(200);
      const got = await t.api.get(`/api/v1/bookings/${withType.body.data.id}`).set(a.auth).expect(200);
      expect(got.body.data).toMatchObject({ buffer_before: 5, buffer_after: 10 });
      const without = await book(scheduleId, { start_time: '2027-01-11T12:00:00Z', end_time: '2027-01-11T13:00:00Z' }).expect(201);
      expect(without.body.data).toMatchObject({ buffer_before: 0, buffer_after: 0 });
    });

    it('refuses a booking outside every window with reason outside_availability; fits unaligned inside one', async () => {
      const type = await createEventType(t, a, { duration: 60 });
      // 17:30 Paris, after the window; Saturday; across the window's end.
      for (const [start, end] of [
        ['2027-01-11T16:30:00Z', '2027-01-11T17:30:00Z'],
        ['2027-01-09T09:00:00Z', '2027-01-09T10:00:00Z'],
        ['2027-01-11T15:30:00Z', '2027-01-11T16:30:00Z'],
      ]) {
        expectUnavailable(await book(scheduleId, { event_type_id: type, start_time: start, end_time: end }), 'outside_availability');
      }
      await book(scheduleId, { event_type_id: type, start_time: '2027-01-11T08:17:00Z', end_time: '2027-01-11T09:17:00Z' }).expect(201);
      // Without an event type only the overlap rule applies.
      await book(scheduleId, { start_time: '2027-01-09T09:00:00Z', end_time: '2027-01-09T10:00:00Z' }).expect(201);
      // A schedule without availability takes anything.
      const open = await createSchedule(t, a);
      await book(open, { event_type_id: type, start_time: '2027-01-09T03:00:00Z', end_time: '2027-01-09T04:00:00Z' }).expect(201);
    });

    it('refuses with minimum_notice, booking_window and daily_limit', async () => {
      const notice = await createEventType(t, a, { duration: 60, minimum_notice: 3 * 24 * 60 });
      // Monday 2026-11-23 09:00 Paris is less than 3 days after Saturday 08:00Z.
      expectUnavailable(
        await book(scheduleId, { event_type_id: notice, start_time: '2026-11-23T08:00:00Z', end_time: '2026-11-23T09:00:00Z' }),
        'minimum_notice',
      );
      await book(scheduleId, { event_type_id: notice, start_time: '2026-11-24T08:00:00Z', end_time: '2026-11-24T09:00:00Z' }).expect(201);
      const window = await createEventType(t, a, { duration: 60, booking_window_days: 30 });
      expectUnavailable(
        await book(scheduleId, { event_type_id: window, start_time: '2027-01-11T08:00:00Z', end_time: '2027-01-11T09:00:00Z' }),
        'booking_window',
      );
      const limited = await createEventType(t, a, { duration: 60, max_bookings_per_day: 2 });
      await book(scheduleId, { event_type_id: limited, start_time: '2027-01-11T08:00:00Z', end_time: '2027-01-11T09:00:00Z' }).expect(201);
      const second = await book(scheduleId, { event_type_id: limited, start_time: '2027-01-11T10:00:00Z', end_time: '2027-01-11T11:00:00Z' }).expect(201);
      expectUnavailable(
        await book(scheduleId, { event_type_id: limited, start_time: '2027-01-11T12:00:00Z', end_time: '2027-01-11T13:00:00Z' }),
        'daily_limit',
      );
      // Another type, another date, and a cancellation all free a place.
      await book(scheduleId, { event_type_id: window, start_time: '2026-12-01T12:00:00Z', end_time: '2026-12-01T13:00:00Z' }).expect(201);
      await book(scheduleId, { event_type_id: limited, start_time: '2027-01-12T12:00:00Z', end_time: '2027-01-12T13:00:00Z' }).expect(201);
      await t.api.delete(`/api/v1/bookings/${second.body.data.id}`).set(a.auth).expect(200);
      await book(scheduleId, { event_type_id: limited, start_time: '2027-01-11T12:00:00Z', end_time: '2027-01-11T13:00:00Z' }).expect(201);
    });

    it('checks a reschedule like a create, not counting the booking itself', async () => {
      const limited = await createEventType(t, a, { duration: 60, max_bookings_per_day: 1 });
      const made = await book(scheduleId, { event_type_id: limited, start_time: '2027-01-11T08:00:00Z', end_time: '2027-01-11T09:00:00Z' }).expect(201);
      const id = made.body.data.id as string;
      const out = await t.api
        .patch(`/api/v1/bookings/${id}`)
        .set(a.auth)
        .send({ start_time: '2027-01-11T17:00:00Z', end_time: '2027-01-11T18:00:00Z' });
      expectUnavailable(out, 'outside_availability');
      await t.api
        .patch(`/api/v1/bookings/${id}`)
        .set(a.auth)
        .send({ start_time: '2027-01-11T10:00:00Z', end_time: '2027-01-11T11:00:00Z' })
        .expect(200);
      await book(scheduleId, { event_type_id: limited, start_time: '2027-01-12T08:00:00Z', end_time: '2027-01-12T09:00:00Z' }).expect(201);
      const full = await t.api
        .patch(`/api/v1/bookings/${id}`)
        .set(a.auth)
        .send({ start_time: '2027-01-12T10:00:00Z', end_time: '2027-01-12T11:00:00Z' });
      expectUnavailable(full, 'daily_limit');
    });

    it('blocks the buffers in the database: overlap of blocked times is 409 booking_overlap', async () => {
      const buffered = await createEventType(t, a, { duration: 60, buffer_before: 15, buffer_after: 30 });
      await book(scheduleId, { event_type_id: buffered, start_time: '2027-01-11T10:00:00Z', end_time: '2027-01-11T11:00:00Z' }).expect(201);
      // Blocked 09:45Z–11:30Z. Bookings without a type have no buffers of their own.
      for (const [start, end] of [
        ['2027-01-11T11:00:00Z', '2027-01-11T11:30:00Z'],
        ['2027-01-11T09:15:00Z', '2027-01-11T09:46:00Z'],
      ]) {
        const res = await book(scheduleId, { start_time: start, end_time: end }).expect(409);
        expect(res.body.code).toBe('booking_overlap');
      }
      await book(scheduleId, { start_time: '2027-01-11T11:30:00Z', end_time: '2027-01-11T12:00:00Z' }).expect(201);
      await book(scheduleId, { start_time: '2027-01-11T09:00:00Z', end_time: '2027-01-11T09:45:00Z' }).expect(201);
      // The constraint itself refuses it, whatever the application checks.
      await expect(
        t.query(
          `INSERT INTO bookings (id, organization_id, schedule_id, start_time, end_time, timezone, status, title,
             attendee_name, created_at, updated_at, buffer_before)
           VALUES (gen_random_uuid(), $1, $2, '2027-01-11T12:30:00Z', '2027-01-11T13:00:00Z', 'UTC', 'PENDING', 'x', 'x', now(), now(), 31)`,
          [a.orgId, scheduleId],
        ),
      ).rejects.toThrow(/bookings_no_overlap/);
    });

    it('lets exactly one of 20 concurrent bookings take the last place of a daily limit', async () => {
      const limited = await createEventType(t, a, { duration: 10, max_bookings_per_day: 3 });
      await book(scheduleId, { event_type_id: limited, start_time: '2027-01-11T08:00:00Z', end_time: '2027-01-11T08:10:00Z' }).expect(201);
      await book(scheduleId, { event_type_id: limited, start_time: '2027-01-11T08:20:00Z', end_time: '2027-01-11T08:30:00Z' }).expect(201);
      // Twenty different, non-overlapping times of the same local date: only the daily limit can refuse.
      const results = await Promise.all(
        Array.from({ length: 20 }, (_, i) => {
          const start = Date.parse('2027-01-11T09:00:00Z') + i * 20 * 60_000;
          return book(scheduleId, {
            event_type_id: limited,
            start_time: new Date(start).toISOString(),
            end_time: new Date(start + 10 * 60_000).toISOString(),
          });
        }),
      );
      const statuses = results.map((r) => r.status).sort();
      expect(statuses.filter((s) => s === 201)).toHaveLength(1);
      for (const res of results.filter((r) => r.status !== 201)) {
        expect(res.status).toBe(409);
        expect(res.body).toMatchObject({ code: 'slot_unavailable', reason: 'daily_limit' });
      }
      const [count] = await t.query<{ n: number }>(
        `SELECT count(*)::int AS n FROM bookings WHERE schedule_id = $1 AND event_type_id = $2 AND status IN ('PENDING', 'CONFIRMED')`,
        [scheduleId, limited],
      );
      expect(count!.n).toBe(3);
    });
  });
});
