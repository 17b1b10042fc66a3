import { ExternalBookingsService, ImportedBooking, ReservationsService } from '@almanac/scheduling';
import { createTestApp, Tenant, TestApp } from '../support/test-app';
import { createEventType, createSchedule, SCHEDULING_TEST_CONFIG, UNKNOWN_ID } from './scheduling-helpers';

const WEEKDAYS_9_TO_5 = [{ days: ['mon', 'tue', 'wed', 'thu', 'fri'], start: '09:00', end: '17:00' }];
/** A Saturday, 08:00 UTC; the Monday after is 2026-11-23. */
const NOW = '2026-11-21T08:00:00.000Z';
const MINUTE = 60_000;
const RESERVATION_FIELDS = ['created_at', 'end_time', 'event_type_id', 'expires_at', 'id', 'schedule_id', 'start_time'];

function at(iso: string, minutes = 0): string {
  return new Date(Date.parse(iso) + minutes * MINUTE).toISOString();
}

/**
 * Slot holds: a reservation is taken only on a slot offered now, holds its time (buffers included)
 * against every other writer until exactly its expires_at, and is consumed by the booking naming it.
 * The database decides overlaps, so concurrent writers of any kind leave one winner.
 */
describe('slot reservations and explained slots (e2e)', () => {
  let t: TestApp;
  let a: Tenant;
  let scheduleId: string;
  let typeId: string;

  beforeAll(async () => {
    t = await createTestApp({ config: SCHEDULING_TEST_CONFIG });
  });
  afterAll(async () => t.close());
  beforeEach(async () => {
    t.clock.set(NOW);
    a = await t.tenant();
    scheduleId = await createSchedule(t, a, { timezone: 'UTC', availability: WEEKDAYS_9_TO_5 });
    typeId = await createEventType(t, a, { duration: 30 });
  });

  function reserve(body: Record<string, unknown>, tenant = a) {
    return t.api.post('/api/v1/slots/reservations').set(tenant.auth).send({ event_type_id: typeId, schedule_id: scheduleId, ...body });
  }

  async function reserved(start: string, extra: Record<string, unknown> = {}): Promise<Record<string, any>> {
    const res = await reserve({ start_time: start, ...extra }).expect(201);
    return res.body.data as Record<string, any>;
  }

  function book(body: Record<string, unknown>) {
    return t.api
      .post('/api/v1/bookings')
      .set(a.auth)
      .send({ schedule_id: scheduleId, attendee: { name: 'Ada', email: 'ada@example.com' }, ...body });
  }

  function slots(query: Record<string, string> = {}) {
    return t.api
      .get('/api/v1/slots')
      .query({ event_type_id: typeId, schedule_id: scheduleId, start: '2026-11-23', end: '2026-11-24', ...query })
      .set(a.auth)
      .expect(200);
  }

  async function offered(query: Record<string, string> = {}): Promise<string[]> {
    return (await slots(query)).body.data.map((s: { start_time: string }) => s.start_time);
  }

  function blockedRows(schedule = scheduleId) {
    return t.query<{ kind: string; source_id: string; lower: Date; upper: Date }>(
      'SELECT kind, source_id, lower(during), upper(during) FROM schedule_blocked_times WHERE schedule_id = $1 ORDER BY lower(during), kind',
      [schedule],
    );
  }

  describe('create, get, release', () => {
    it('holds a slot for ttl_minutes (default 10): 201 with Location, readable until released', async () => {
      const res = await reserve({ start_time: '2026-11-23T10:00:00+00:00' }).expect(201);
      const r = res.body.data;
      expect(Object.keys(r).sort()).toEqual(RESERVATION_FIELDS);
      expect(r).toMatchObject({
        event_type_id: typeId,
        schedule_id: scheduleId,
        start_time: '2026-11-23T10:00:00.000Z',
        end_time: '2026-11-23T10:30:00.000Z',
        expires_at: at(NOW, 10),
        created_at: NOW,
      });
      expect(res.headers['location']).toBe(`/api/v1/slots/reservations/${r.id}`);
      expect((await t.api.get(`/api/v1/slots/reservations/${r.id}`).set(a.auth).expect(200)).body.data).toEqual(r);
      expect(await blockedRows()).toEqual([
        { kind: 'reservation', source_id: r.id, lower: new Date('2026-11-23T10:00:00Z'), upper: new Date('2026-11-23T10:30:00Z') },
      ]);

      const released = await t.api.delete(`/api/v1/slots/reservations/${r.id}`).set(a.auth).expect(200);
      expect(released.body.data).toEqual({ id: r.id, deleted: true });
      await t.api.get(`/api/v1/slots/reservations/${r.id}`).set(a.auth).expect(404);
      await t.api.delete(`/api/v1/slots/reservations/${r.id}`).set(a.auth).expect(404);
      expect(await blockedRows()).toEqual([]);
      expect(await offered()).toContain('2026-11-23T10:00:00.000Z');
    });

    it('takes ttl_minutes from 1 to 30', async () => {
      const r = await reserved('2026-11-23T10:00:00Z', { ttl_minutes: 30 });
      expect(r['expires_at']).toBe(at(NOW, 30));
      const one = await reserved('2026-11-23T11:00:00Z', { ttl_minutes: 1 });
      expect(one['expires_at']).toBe(at(NOW, 1));
    });

    it.each([
      [{ ttl_minutes: 0 }, 'ttl_minutes'],
      [{ ttl_minutes: 31 }, 'ttl_minutes'],
      [{ ttl_minutes: 1.5 }, 'ttl_minutes'],
      [{ ttl_minutes: '10' }, 'ttl_minutes'],
      [{ start_time: '2026-11-23T10:00:00' }, 'start_time'],
      [{ start_time: null }, 'start_time'],
      [{ end_time: '2026-11-23T10:30:00Z' }, 'end_time'],
    ])('refuses %j with 400 naming %s', async (body, field) => {
      const res = await reserve({ start_time: '2026-11-23T10:00:00Z', ...body }).expect(400);
      expect(res.body.code).toBe('validation_failed');
      expect(res.body.errors.map((e: { field: string }) => e.field)).toContain(field);
      expect(await blockedRows()).toEqual([]);
    });

    it('answers 422 invalid_reference for an unknown, malformed or foreign schedule or event type', async () => {
      const b = await t.tenant();
      const foreignType = await createEventType(t, b);
      for (const [body, fields] of [
        [{ schedule_id: UNKNOWN_ID }, ['schedule_id']],
        [{ event_type_id: 'nope' }, ['event_type_id']],
        [{ event_type_id: foreignType }, ['event_type_id']],
        [{ schedule_id: UNKNOWN_ID, event_type_id: UNKNOWN_ID }, ['schedule_id', 'event_type_id']],
      ] as const) {
        const res = await reserve({ start_time: '2026-11-23T10:00:00Z', ...body }).expect(422);
        expect(res.body.code).toBe('invalid_reference');
        expect(res.body.errors.map((e: { field: string }) => e.field)).toEqual(fields);
      }
    });

    it('is invisible to another organization and needs bookings:write to take', async () => {
      const r = await reserved('2026-11-23T10:00:00Z');
      const b = await t.tenant();
      await t.api.get(`/api/v1/slots/reservations/${r['id']}`).set(b.auth).expect(404);
      await t.api.delete(`/api/v1/slots/reservations/${r['id']}`).set(b.auth).expect(404);
      await t.api.get('/api/v1/slots/reservations/not-a-uuid').set(a.auth).expect(404);
      const reader = await t.tenant({ scopes: ['bookings:read'] });
      expect((await reserve({ start_time: '2026-11-23T10:00:00Z' }, reader).expect(403)).body.code).toBe('forbidden');
      await t.api.get(`/api/v1/slots/reservations/${r['id']}`).set(a.auth).expect(200);
    });
  });

  describe('the start must be a slot offered now', () => {
    async function refusal(start: string, extra: Record<string, unknown> = {}) {
      const res = await reserve({ start_time: start, ...extra }).expect(409);
      expect(res.body.code).toBe('slot_unavailable');
      return res.body;
    }

    it('names why: outside_availability, not_a_slot, minimum_notice, booking_window', async () => {
      expect((await refusal('2026-11-22T10:00:00Z')).reason).toBe('outside_availability');
      expect((await refusal('2026-11-23T08:30:00Z')).reason).toBe('outside_availability');
      // Inside the window but off the 30-minute grid, or a slot that would end after 17:00.
      expect((await refusal('2026-11-23T09:10:00Z')).reason).toBe('not_a_slot');
      expect((await refusal('2026-11-23T16:45:00Z')).reason).toBe('not_a_slot');
      const noticed = await createEventType(t, a, { duration: 30, minimum_notice: 3 * 24 * 60, booking_window_days: 10 });
      expect((await refusal('2026-11-23T10:00:00Z', { event_type_id: noticed })).reason).toBe('minimum_notice');
      // Notice comes before availability: a Sunday too soon is minimum_notice.
      expect((await refusal('2026-11-22T10:00:00Z', { event_type_id: noticed })).reason).toBe('minimum_notice');
      expect((await refusal('2026-12-02T10:00:00Z', { event_type_id: noticed })).reason).toBe('booking_window');
      await reserve({ start_time: '2026-11-24T10:00:00Z', event_type_id: noticed }).expect(201);
      expect(await blockedRows()).toHaveLength(1);
    });

    it('names the booking or reservation holding the time, buffers on both sides counted', async () => {
      const buffered = await createEventType(t, a, { duration: 30, buffer_before: 15, buffer_after: 15 });
      const booking = (await book({ start_time: '2026-11-23T10:00:00Z', end_time: '2026-11-23T10:30:00Z' }).expect(201)).body.data;
      // 10:30–11:00 with a 15-minute buffer before reaches back to 10:15.
      const taken = await refusal('2026-11-23T10:30:00Z', { event_type_id: buffered });
      expect(taken).toMatchObject({ reason: 'booked', booking_id: booking.id });
      const held = await reserved('2026-11-23T11:30:00Z', { event_type_id: buffered });
      // Its blocked time is 11:15–12:15: 11:00 (with no buffers) meets it, and so does 12:00.
      expect(await refusal('2026-11-23T11:00:00Z')).toMatchObject({ reason: 'reserved', reservation_id: held['id'] });
      expect(await refusal('2026-11-23T12:00:00Z')).toMatchObject({ reason: 'reserved', reservation_id: held['id'] });
      await reserve({ start_time: '2026-11-23T12:30:00Z' }).expect(201);
    });

    it('counts reservations toward the daily limit', async () => {
      const limited = await createEventType(t, a, { duration: 30, max_bookings_per_day: 1 });
      const held = await reserved('2026-11-23T10:00:00Z', { event_type_id: limited });
      expect((await refusal('2026-11-23T14:00:00Z', { event_type_id: limited })).reason).toBe('daily_limit');
      const bookingOnFullDay = await book({
        event_type_id: limited,
        start_time: '2026-11-23T15:00:00Z',
        end_time: '2026-11-23T15:30:00Z',
      }).expect(409);
      expect(bookingOnFullDay.body).toMatchObject({ code: 'slot_unavailable', reason: 'daily_limit' });
      // The booking that consumes the reservation takes its place in the count.
      await book({
        event_type_id: limited,
        reservation_id: held['id'],
        start_time: '2026-11-23T10:00:00Z',
        end_time: '2026-11-23T10:30:00Z',
      }).expect(201);
      await reserve({ start_time: '2026-11-24T10:00:00Z', event_type_id: limited }).expect(201);
    });

    it('counts unexpired reservations toward every limit: a weekly limit of 1 refuses a booking until the hold expires', async () => {
      const weekly = await createEventType(t, a, { duration: 30, max_bookings_per_week: 1 });
      const held = await reserved('2026-11-23T10:00:00Z', { event_type_id: weekly, ttl_minutes: 5 });
      const slot = { event_type_id: weekly, start_time: '2026-11-25T14:00:00Z', end_time: '2026-11-25T14:30:00Z' };
      const refused = await book(slot).expect(409);
      expect(refused.body).toMatchObject({ code: 'slot_unavailable', reason: 'weekly_limit' });
      expect((await refusal('2026-11-26T10:00:00Z', { event_type_id: weekly })).reason).toBe('weekly_limit');
      // The slots of that week say so; the next week is open.
      const explained = await slots({ event_type_id: weekly, start: '2026-11-25', end: '2026-11-26', explain: 'true' });
      expect(explained.body.data).toEqual([]);
      expect(new Set(explained.body.meta.unavailable.map((u: { reason: string }) => u.reason))).toEqual(new Set(['weekly_limit']));
      expect(await offered({ event_type_id: weekly, start: '2026-11-30', end: '2026-12-01' })).toHaveLength(16);
      expect(await t.query('SELECT id FROM bookings WHERE event_type_id = $1', [weekly])).toEqual([]);
      // From expires_at the hold counts no more, deleted or not.
      t.clock.set(held['expires_at']);
      const accepted = await book(slot).expect(201);
      expect(await t.query('SELECT id FROM bookings WHERE event_type_id = $1', [weekly])).toEqual([{ id: accepted.body.data.id }]);
      expect(await t.query('SELECT id FROM slot_reservations WHERE id = $1', [held['id']])).toHaveLength(1);
    });

    it("counts them toward the schedule's own limits, whatever their event type", async () => {
      await t.api.patch(`/api/v1/schedules/${scheduleId}`).set(a.auth).send({ max_bookings_per_day: 1 }).expect(200);
      await reserved('2026-11-23T10:00:00Z');
      const other = await createEventType(t, a, { duration: 30 });
      expect((await refusal('2026-11-23T14:00:00Z', { event_type_id: other })).reason).toBe('schedule_limit');
      const refused = await book({ start_time: '2026-11-23T15:00:00Z', end_time: '2026-11-23T15:30:00Z' }).expect(409);
      expect(refused.body).toMatchObject({ code: 'slot_unavailable', reason: 'schedule_limit' });
    });
  });

  describe('an unexpired reservation blocks its time', () => {
    it('for /slots, bookings with or without event type, reschedules and other reservations', async () => {
      const r = await reserved('2026-11-23T10:00:00Z');
      const id = r['id'] as string;
      expect(await offered()).not.toContain('2026-11-23T10:00:00.000Z');

      const plain = await book({ start_time: '2026-11-23T10:15:00Z', end_time: '2026-11-23T10:45:00Z' }).expect(409);
      expect(plain.body).toMatchObject({ code: 'slot_unavailable', reason: 'reserved', reservation_id: id });
      const typed = await book({ event_type_id: typeId, start_time: '2026-11-23T10:00:00Z', end_time: '2026-11-23T10:30:00Z' }).expect(409);
      expect(typed.body).toMatchObject({ code: 'slot_unavailable', reason: 'reserved', reservation_id: id });

      const other = (await book({ start_time: '2026-11-23T12:00:00Z', end_time: '2026-11-23T12:30:00Z' }).expect(201)).body.data;
      const moved = await t.api
        .patch(`/api/v1/bookings/${other.id}`)
        .set(a.auth)
        .send({ start_time: '2026-11-23T09:45:00Z', end_time: '2026-11-23T10:15:00Z' })
        .expect(409);
      expect(moved.body).toMatchObject({ code: 'slot_unavailable', reason: 'reserved', reservation_id: id });
      expect((await t.api.get(`/api/v1/bookings/${other.id}`).set(a.auth).expect(200)).body.data.start_time).toBe('2026-11-23T12:00:00.000Z');

      const again = await reserve({ start_time: '2026-11-23T10:00:00Z' }).expect(409);
      expect(again.body).toMatchObject({ code: 'slot_unavailable', reason: 'reserved', reservation_id: id });
      // Back to back is fine.
      await book({ start_time: '2026-11-23T10:30:00Z', end_time: '2026-11-23T11:00:00Z' }).expect(201);
      await book({ start_time: '2026-11-23T09:30:00Z', end_time: '2026-11-23T10:00:00Z' }).expect(201);
      const bookings = await t.query<{ n: number }>(
        "SELECT count(*)::int AS n FROM bookings WHERE schedule_id = $1 AND start_time < '2026-11-23T10:30:00Z' AND end_time > '2026-11-23T10:00:00Z'",
        [scheduleId],
      );
      expect(bookings[0]!.n).toBe(0);
    });

    it('for the calendar import, which skips the occurrence as a conflict', async () => {
      await reserved('2026-11-23T10:00:00Z');
      const service = t.app.get(ExternalBookingsService);
      const occurrence = (uid: string, start: string) =>
        ImportedBooking.from(
          { uid, recurrenceId: null, title: uid, location: null, start: new Date(start), end: new Date(Date.parse(start) + 30 * MINUTE), contact: { name: 'X', email: null } },
          'Feed',
        );
      const outcome = await service.reconcileImported(a.orgId, scheduleId, { start: new Date('2026-11-23T00:00:00Z'), end: new Date('2026-11-24T00:00:00Z') }, [
        occurrence('a', '2026-11-23T10:15:00Z'),
        occurrence('b', '2026-11-23T11:00:00Z'),
      ]);
      expect(outcome).toMatchObject({ synced: 1, conflict: 1 });
      expect((await blockedRows()).map((r) => [r.kind, r.lower.toISOString()])).toEqual([
        ['reservation', '2026-11-23T10:00:00.000Z'],
        ['booking', '2026-11-23T11:00:00.000Z'],
      ]);
    });

    it('until exactly expires_at, when it stops blocking without any clean-up', async () => {
      const r = await reserved('2026-11-23T10:00:00Z', { ttl_minutes: 1 });
      const id = r['id'] as string;
      const expiresAt = r['expires_at'] as string;
      t.clock.set(new Date(Date.parse(expiresAt) - 1));
      await t.api.get(`/api/v1/slots/reservations/${id}`).set(a.auth).expect(200);
      expect(await offered()).not.toContain('2026-11-23T10:00:00.000Z');
      expect((await book({ start_time: '2026-11-23T10:00:00Z', end_time: '2026-11-23T10:30:00Z' }).expect(409)).body.reason).toBe('reserved');

      t.clock.set(expiresAt);
      await t.api.get(`/api/v1/slots/reservations/${id}`).set(a.auth).expect(404);
      await t.api.delete(`/api/v1/slots/reservations/${id}`).set(a.auth).expect(404);
      expect(await offered()).toContain('2026-11-23T10:00:00.000Z');
      // Its row is still there (nothing swept it), yet a reservation and a booking take the time.
      expect(await t.query('SELECT id FROM slot_reservations WHERE id = $1', [id])).toHaveLength(1);
      const next = await reserved('2026-11-23T10:00:00Z');
      await t.api.delete(`/api/v1/slots/reservations/${next['id']}`).set(a.auth).expect(200);
      const booking = (await book({ start_time: '2026-11-23T10:00:00Z', end_time: '2026-11-23T10:30:00Z' }).expect(201)).body.data;
      expect((await blockedRows()).map((row) => [row.kind, row.source_id])).toEqual([['booking', booking.id]]);
    });

    it('expired reservations are swept in bounded batches', async () => {
      const schedules = await Promise.all([0, 1, 2, 3, 4].map(() => createSchedule(t, a, { timezone: 'UTC' })));
      const ids: string[] = [];
      for (const schedule of schedules) ids.push((await reserved('2026-11-23T10:00:00Z', { schedule_id: schedule, ttl_minutes: 1 }))['id']);
      const live = await reserved('2026-11-23T10:00:00Z', { ttl_minutes: 30 });
      const service = t.app.get(ReservationsService);
      const mine = async () =>
        (await t.query<{ id: string }>('SELECT id FROM slot_reservations WHERE organization_id = $1', [a.orgId])).map((r) => r.id).sort();
      // Nothing has expired yet.
      expect(await service.sweep(2, 3)).toBe(0);
      t.clock.advance(MINUTE);
      expect(await service.sweep(2, 2)).toBe(4);
      expect(await mine()).toHaveLength(2);
      expect(await service.sweep(2, 2)).toBe(1);
      expect(await mine()).toEqual([live['id']]);
      const blocked = await t.query<{ source_id: string }>(
        "SELECT source_id FROM schedule_blocked_times WHERE organization_id = $1 AND kind = 'reservation'",
        [a.orgId],
      );
      expect(blocked.map((row) => row.source_id)).toEqual([live['id']]);
    });
  });

  describe('a booking naming its reservation consumes it', () => {
    const SLOT = { start_time: '2026-11-23T10:00:00Z', end_time: '2026-11-23T10:30:00Z' };

    it('in its own transaction: the booking holds the time, the reservation is gone, a second use is reservation_expired', async () => {
      const r = await reserved(SLOT.start_time);
      const booking = (await book({ ...SLOT, event_type_id: typeId, reservation_id: r['id'] }).expect(201)).body.data;
      expect(booking).toMatchObject({ event_type_id: typeId, start_time: '2026-11-23T10:00:00.000Z', status: 'PENDING' });
      expect(booking).not.toHaveProperty('reservation_id');
      await t.api.get(`/api/v1/slots/reservations/${r['id']}`).set(a.auth).expect(404);
      expect(await t.query('SELECT id FROM slot_reservations WHERE id = $1', [r['id']])).toEqual([]);
      expect((await blockedRows()).map((row) => [row.kind, row.source_id])).toEqual([['booking', booking.id]]);
      const again = await book({ ...SLOT, event_type_id: typeId, reservation_id: r['id'] }).expect(409);
      expect(again.body.code).toBe('reservation_expired');
    });

    it('only when schedule, event type, start and end are the reservation\'s: 409 reservation_mismatch, nothing changed', async () => {
      const r = await reserved(SLOT.start_time);
      const otherSchedule = await createSchedule(t, a, { timezone: 'UTC' });
      const otherType = await createEventType(t, a, { duration: 30 });
      for (const [body, fields] of [
        [{ ...SLOT, end_time: '2026-11-23T10:45:00Z', event_type_id: typeId }, ['end_time']],
        [{ start_time: '2026-11-23T10:15:00Z', end_time: '2026-11-23T10:45:00Z', event_type_id: typeId }, ['start_time', 'end_time']],
        [{ ...SLOT, event_type_id: otherType }, ['event_type_id']],
        [{ ...SLOT }, ['event_type_id']],
        [{ ...SLOT, event_type_id: typeId, schedule_id: otherSchedule }, ['schedule_id']],
      ] as const) {
        const res = await book({ ...body, reservation_id: r['id'] }).expect(409);
        expect(res.body.code).toBe('reservation_mismatch');
        expect(res.body.errors.map((e: { field: string }) => e.field)).toEqual(fields);
      }
      await t.api.get(`/api/v1/slots/reservations/${r['id']}`).set(a.auth).expect(200);
      expect(await t.query('SELECT id FROM bookings WHERE organization_id = $1', [a.orgId])).toEqual([]);
    });

    it('unknown, malformed, released, foreign or expired: 409 reservation_expired', async () => {
      const released = await reserved(SLOT.start_time);
      await t.api.delete(`/api/v1/slots/reservations/${released['id']}`).set(a.auth).expect(200);
      const b = await t.tenant();
      const foreignSchedule = await createSchedule(t, b, { timezone: 'UTC' });
      const foreignType = await createEventType(t, b, { duration: 30 });
      const foreign = (await t.api.post('/api/v1/slots/reservations').set(b.auth).send({ event_type_id: foreignType, schedule_id: foreignSchedule, start_time: SLOT.start_time }).expect(201)).body.data;
      for (const id of [UNKNOWN_ID, 'not-a-uuid', released['id'], foreign.id]) {
        expect((await book({ ...SLOT, event_type_id: typeId, reservation_id: id }).expect(409)).body.code).toBe('reservation_expired');
      }
      const expiring = await reserved(SLOT.start_time, { ttl_minutes: 1 });
      t.clock.set(expiring['expires_at']);
      expect((await book({ ...SLOT, event_type_id: typeId, reservation_id: expiring['id'] }).expect(409)).body.code).toBe('reservation_expired');
      expect(await t.query('SELECT id FROM bookings WHERE organization_id = $1', [a.orgId])).toEqual([]);
    });

    it('of 10 concurrent bookings naming one reservation, one wins and the others get reservation_expired', async () => {
      const r = await reserved(SLOT.start_time);
      const answers = await Promise.all(
        Array.from({ length: 10 }, (_, i) =>
          book({ ...SLOT, event_type_id: typeId, reservation_id: r['id'], attendee: { name: `P${i}`, email: `p${i}@example.com` } }),
        ),
      );
      expect(answers.filter((res) => res.status === 201)).toHaveLength(1);
      expect(answers.filter((res) => res.status !== 201).map((res) => res.body.code)).toEqual(Array(9).fill('reservation_expired'));
      expect(await t.query('SELECT id FROM bookings WHERE organization_id = $1', [a.orgId])).toHaveLength(1);
    });
  });

  describe('GET /api/v1/slots?explain=true', () => {
    it('lists every candidate not offered with its first reason and holder; the offer is unchanged', async () => {
      const limited = await createEventType(t, a, { duration: 60, minimum_notice: 2 * 24 * 60 + 90, max_bookings_per_day: 3 });
      typeId = limited;
      // Notice: Monday before 09:30 is too soon (08:00 Saturday + 2 days 90 minutes).
      const booking = (await book({ event_type_id: limited, start_time: '2026-11-23T11:00:00Z', end_time: '2026-11-23T12:00:00Z' }).expect(201)).body.data;
      const held = await reserved('2026-11-23T13:00:00Z');
      await reserved('2026-11-23T15:00:00Z');

      const plain = await slots();
      const explained = await slots({ explain: 'true' });
      expect(explained.body.data).toEqual(plain.body.data);
      expect(plain.body.meta).not.toHaveProperty('unavailable');
      const { unavailable, ...meta } = explained.body.meta;
      expect(meta).toEqual(plain.body.meta);
      // Monday 09:00–17:00 has candidates 09:00 … 16:00: the day is full (one booking, two reservations).
      expect(plain.body.data).toEqual([]);
      expect(unavailable).toEqual([
        { start_time: '2026-11-23T09:00:00.000Z', end_time: '2026-11-23T10:00:00.000Z', reason: 'minimum_notice' },
        { start_time: '2026-11-23T10:00:00.000Z', end_time: '2026-11-23T11:00:00.000Z', reason: 'daily_limit' },
        { start_time: '2026-11-23T11:00:00.000Z', end_time: '2026-11-23T12:00:00.000Z', reason: 'booked', booking_id: booking.id },
        { start_time: '2026-11-23T12:00:00.000Z', end_time: '2026-11-23T13:00:00.000Z', reason: 'daily_limit' },
        { start_time: '2026-11-23T13:00:00.000Z', end_time: '2026-11-23T14:00:00.000Z', reason: 'reserved', reservation_id: held['id'] },
        { start_time: '2026-11-23T14:00:00.000Z', end_time: '2026-11-23T15:00:00.000Z', reason: 'daily_limit' },
        { start_time: '2026-11-23T15:00:00.000Z', end_time: '2026-11-23T16:00:00.000Z', reason: 'reserved', reservation_id: expect.any(String) },
        { start_time: '2026-11-23T16:00:00.000Z', end_time: '2026-11-23T17:00:00.000Z', reason: 'daily_limit' },
      ]);
      expect((await t.api.get('/api/v1/slots').query({ event_type_id: limited, schedule_id: scheduleId, explain: 'maybe' }).set(a.auth).expect(400)).body.code).toBe(
        'validation_failed',
      );
    });

    it('names the earliest-starting holder, and offers the same slots over 62 days', async () => {
      const first = (await book({ start_time: '2026-11-24T09:10:00Z', end_time: '2026-11-24T09:20:00Z' }).expect(201)).body.data;
      await book({ start_time: '2026-11-24T09:20:00Z', end_time: '2026-11-24T09:40:00Z' }).expect(201);
      const explained = await slots({ start: '2026-11-21', end: '2027-01-22', explain: '1' });
      const plain = await slots({ start: '2026-11-21', end: '2027-01-22' });
      expect(explained.body.data).toEqual(plain.body.data);
      const starts = explained.body.meta.unavailable.map((u: { start_time: string }) => u.start_time);
      expect([...starts].sort()).toEqual(starts);
      expect(explained.body.meta.unavailable).toEqual([
        { start_time: '2026-11-24T09:00:00.000Z', end_time: '2026-11-24T09:30:00.000Z', reason: 'booked', booking_id: first.id },
        { start_time: '2026-11-24T09:30:00.000Z', end_time: '2026-11-24T10:00:00.000Z', reason: 'booked', booking_id: expect.any(String) },
      ]);
    });
  });

  describe('races: the database lets one writer take overlapping time', () => {
    it('the last place of a weekly limit: of 20 parallel bookings and reservations at different times, one wins', async () => {
      const weekly = await createEventType(t, a, { duration: 30, max_bookings_per_week: 1 });
      const starts = Array.from({ length: 20 }, (_, i) => at('2026-11-23T09:00:00Z', 24 * 60 * Math.floor(i / 8) + 30 * (i % 8)));
      const answers = await Promise.all(
        starts.map((start, i) =>
          i % 2 === 0
            ? reserve({ start_time: start, event_type_id: weekly })
            : book({ start_time: start, end_time: at(start, 30), event_type_id: weekly, attendee: { name: `W${i}`, email: `w${i}@example.com` } }),
        ),
      );
      expect(answers.filter((res) => res.status === 201)).toHaveLength(1);
      for (const res of answers.filter((r) => r.status !== 201)) {
        expect(res.status).toBe(409);
        expect(res.body).toMatchObject({ code: 'slot_unavailable', reason: 'weekly_limit' });
      }
      const bookings = await t.query('SELECT id FROM bookings WHERE event_type_id = $1', [weekly]);
      const reservations = await t.query('SELECT id FROM slot_reservations WHERE event_type_id = $1', [weekly]);
      expect(bookings.length + reservations.length).toBe(1);
    });

    it('20 parallel reservations, bookings and reschedules over 10:00–10:30: exactly one wins', async () => {
      const movable: string[] = [];
      for (let i = 0; i < 6; i++) {
        const start = `2026-11-24T${String(9 + i).padStart(2, '0')}:00:00Z`;
        movable.push((await book({ start_time: start, end_time: at(start, 30) }).expect(201)).body.data.id);
      }
      const contested = { start_time: '2026-11-23T10:00:00Z', end_time: '2026-11-23T10:30:00Z' };
      const requests = [
        ...Array.from({ length: 7 }, () => reserve({ start_time: contested.start_time })),
        ...Array.from({ length: 4 }, (_, i) => book({ ...contested, attendee: { name: `B${i}`, email: `b${i}@example.com` } })),
        ...Array.from({ length: 3 }, (_, i) =>
          book({ ...contested, event_type_id: typeId, attendee: { name: `T${i}`, email: `t${i}@example.com` } }),
        ),
        ...movable.map((id) => t.api.patch(`/api/v1/bookings/${id}`).set(a.auth).send({ start_time: '2026-11-23T10:05:00Z', end_time: '2026-11-23T10:25:00Z' })),
      ];
      expect(requests).toHaveLength(20);
      const answers = await Promise.all(requests);
      const won = answers.filter((res) => res.status === 200 || res.status === 201);
      expect(won).toHaveLength(1);
      for (const res of answers.filter((r) => r.status !== 200 && r.status !== 201)) {
        expect(res.status).toBe(409);
        // write_conflict: PostgreSQL kept aborting the write as a deadlock with the others (the
        // exclusion checks wait on each other) and it was given up after five attempts, unapplied.
        expect(['booking_overlap', 'slot_unavailable', 'write_conflict']).toContain(res.body.code);
        if (res.body.code === 'write_conflict') continue;
        if (res.body.code === 'slot_unavailable') expect(['booked', 'reserved']).toContain(res.body.reason);
        const holderId = res.body.booking_id ?? res.body.reservation_id;
        expect(holderId).toBe(won[0]!.body.data.id);
      }
      const holding = await t.query<{ kind: string; source_id: string }>(
        `SELECT kind, source_id FROM schedule_blocked_times
          WHERE schedule_id = $1 AND during && tstzrange('2026-11-23T09:00:00Z', '2026-11-23T11:00:00Z')`,
        [scheduleId],
      );
      expect(holding.map((row) => row.source_id)).toEqual([won[0]!.body.data.id]);
      const active = await t.query<{ id: string }>(
        `SELECT id FROM bookings WHERE schedule_id = $1 AND status IN ('PENDING', 'CONFIRMED')
           AND start_time < '2026-11-23T11:00:00Z' AND end_time > '2026-11-23T09:00:00Z'`,
        [scheduleId],
      );
      const reservations = await t.query<{ id: string }>('SELECT id FROM slot_reservations WHERE schedule_id = $1', [scheduleId]);
      expect([...active, ...reservations].map((row) => row.id)).toEqual([won[0]!.body.data.id]);
      // The reschedules that lost kept their time.
      expect(
        await t.query<{ n: number }>(
          "SELECT count(*)::int AS n FROM bookings WHERE id = ANY($1::uuid[]) AND start_time >= '2026-11-24T00:00:00Z'",
          [movable],
        ),
      ).toEqual([{ n: movable.includes(won[0]!.body.data.id) ? 5 : 6 }]);
    });
  });
});
