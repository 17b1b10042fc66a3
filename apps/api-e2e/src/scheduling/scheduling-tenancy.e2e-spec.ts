import { createTestApp, Tenant, TestApp } from '../support/test-app';
import { bookingBody, createBooking, createEventType, createSchedule, SCHEDULING_TEST_CONFIG, slot } from './scheduling-helpers';

describe('scheduling tenancy (e2e)', () => {
  let t: TestApp;
  let a: Tenant;
  let b: Tenant;
  let scheduleA: string;
  let eventTypeA: string;
  let bookingA: Record<string, any>;

  beforeAll(async () => {
    t = await createTestApp({ config: SCHEDULING_TEST_CONFIG });
    a = await t.tenant();
    b = await t.tenant();
    scheduleA = await createSchedule(t, a, { name: 'A only' });
    eventTypeA = await createEventType(t, a, { title: 'A type', slug: 'shared-slug' });
    bookingA = await createBooking(t, a, scheduleA, { event_type_id: eventTypeA, attendee: { name: 'A', email: 'a@tenant-a.test' } });
    // B has data of its own, so that its lists are not trivially empty.
    const scheduleB = await createSchedule(t, b, { name: 'B only' });
    await createEventType(t, b, { title: 'B type', slug: 'shared-slug' });
    await createBooking(t, b, scheduleB, { attendee: { name: 'B', email: 'b@tenant-b.test' } });
  });
  afterAll(async () => t.close());

  it("gives B 404 for A's booking, schedule and event type, on every operation", async () => {
    const probes = [
      t.api.get(`/api/v1/bookings/${bookingA.id}`),
      t.api.patch(`/api/v1/bookings/${bookingA.id}`).send({ status: 'CONFIRMED' }),
      t.api.patch(`/api/v1/bookings/${bookingA.id}`).send({ title: 'hijacked' }),
      t.api.delete(`/api/v1/bookings/${bookingA.id}`),
      t.api.get(`/api/v1/schedules/${scheduleA}`),
      t.api.patch(`/api/v1/schedules/${scheduleA}`).send({ name: 'hijacked' }),
      t.api.delete(`/api/v1/schedules/${scheduleA}`),
      t.api.get(`/api/v1/event-types/${eventTypeA}`),
      t.api.patch(`/api/v1/event-types/${eventTypeA}`).send({ title: 'hijacked' }),
      t.api.delete(`/api/v1/event-types/${eventTypeA}`),
    ];
    for (const probe of probes) {
      const res = await probe.set(b.auth);
      expect(res.status).toBe(404);
      expect(res.body.code).toBe('not_found');
    }
    const [booking] = await t.query('SELECT status, title FROM bookings WHERE id = $1', [bookingA.id]);
    expect(booking).toEqual({ status: 'PENDING', title: 'A type' });
    expect(await t.query('SELECT name FROM schedules WHERE id = $1', [scheduleA])).toEqual([{ name: 'A only' }]);
    expect(await t.query('SELECT title FROM event_types WHERE id = $1', [eventTypeA])).toEqual([{ title: 'A type' }]);
  });

  it("never shows A's records in B's lists, whatever the filter", async () => {
    const queries = [
      '/api/v1/bookings',
      `/api/v1/bookings?schedule_id=${scheduleA}`,
      `/api/v1/bookings?event_type_id=${eventTypeA}`,
      '/api/v1/bookings?attendee_email=tenant-a',
      '/api/v1/bookings?status=PENDING&start_date=2000-01-01',
      '/api/v1/schedules',
      '/api/v1/event-types',
      '/api/v1/event-types?active=false',
    ];
    const aIds = new Set([bookingA.id, scheduleA, eventTypeA]);
    for (const query of queries) {
      const res = await t.api.get(query).set(b.auth).expect(200);
      expect(res.body.data.filter((r: { id: string }) => aIds.has(r.id))).toEqual([]);
      expect(res.body.meta.total).toBe(res.body.data.length);
    }
    expect((await t.api.get(`/api/v1/bookings?schedule_id=${scheduleA}`).set(b.auth)).body.meta.total).toBe(0);
    expect((await t.api.get('/api/v1/bookings').set(a.auth)).body.data.map((r: { id: string }) => r.id)).toEqual([bookingA.id]);
  });

  it("does not let B book on A's schedule or with A's event type (422)", async () => {
    const onA = await t.api.post('/api/v1/bookings').set(b.auth).send(bookingBody(scheduleA, slot(40))).expect(422);
    expect(onA.body.code).toBe('invalid_reference');
    const scheduleB = await createSchedule(t, b);
    const withA = await t.api
      .post('/api/v1/bookings')
      .set(b.auth)
      .send(bookingBody(scheduleB, { ...slot(41), event_type_id: eventTypeA }))
      .expect(422);
    expect(withA.body.errors).toEqual([{ field: 'event_type_id', message: expect.any(String) }]);
    expect(await t.query('SELECT 1 FROM bookings WHERE schedule_id = $1', [scheduleA])).toHaveLength(1);
  });
});
