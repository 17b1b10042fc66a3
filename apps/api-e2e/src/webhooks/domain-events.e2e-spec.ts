import { bookingBody, createSchedule, slot } from '../scheduling/scheduling-helpers';
import { createTestApp, Tenant, TestApp } from '../support/test-app';

/**
 * Every change announced exactly once through the outbox, in its own transaction; a change that fails
 * announces nothing. Read straight from `outbox_events`.
 */
describe('domain events of bookings, events and registrations (e2e)', () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await createTestApp({ config: { webhookDispatcher: false } });
  });
  afterAll(() => t.close());

  const events = (orgId: string) =>
    t.query<{ type: string; previous_status: string | null; data: Record<string, any> }>(
      'SELECT type, previous_status, data FROM outbox_events WHERE organization_id = $1 ORDER BY seq',
      [orgId],
    );

  it('bookings: one event per change (created, updated, each status move with previous_status, cancel), none for a refused one', async () => {
    const a: Tenant = await t.tenant();
    const scheduleId = await createSchedule(t, a);
    const created = (
      await t.api
        .post('/api/v1/bookings')
        .set(a.auth)
        .send(bookingBody(scheduleId, slot(1)))
        .expect(201)
    ).body.data;
    await t.api
      .post('/api/v1/bookings')
      .set(a.auth)
      .send(bookingBody(scheduleId, slot(1)))
      .expect(409); // overlap
    await t.api.patch(`/api/v1/bookings/${created.id}`).set(a.auth).send({ title: 'Renamed' }).expect(200);
    await t.api.patch(`/api/v1/bookings/${created.id}`).set(a.auth).send({ status: 'CONFIRMED' }).expect(200);
    await t.api.patch(`/api/v1/bookings/${created.id}`).set(a.auth).send({ status: 'PENDING' }).expect(409); // invalid transition
    const second = (
      await t.api
        .post('/api/v1/bookings')
        .set(a.auth)
        .send(bookingBody(scheduleId, slot(3)))
        .expect(201)
    ).body.data;
    await t.api
      .patch(`/api/v1/bookings/${second.id}`)
      .set(a.auth)
      .send({ ...slot(5) })
      .expect(200); // reschedule
    await t.api.delete(`/api/v1/bookings/${second.id}`).set(a.auth).expect(200);
    await t.api.delete(`/api/v1/bookings/${second.id}`).set(a.auth).expect(200); // already cancelled: nothing new
    await t.api.patch(`/api/v1/bookings/${created.id}`).set(a.auth).send({ status: 'COMPLETED' }).expect(200);

    const got = await events(a.orgId);
    expect(got.map((e) => [e.type, e.previous_status])).toEqual([
      ['booking.created', null],
      ['booking.updated', null],
      ['booking.confirmed', 'PENDING'],
      ['booking.created', null],
      ['booking.updated', null],
      ['booking.cancelled', 'PENDING'],
      ['booking.completed', 'CONFIRMED'],
    ]);
    const current = (await t.api.get(`/api/v1/bookings/${created.id}`).set(a.auth).expect(200)).body.data;
    expect(got[6]!.data).toEqual(current);
  });

  it('events and registrations: created, updated, deleted; registration created and cancelled; none for refusals', async () => {
    const a: Tenant = await t.tenant();
    const event = (
      await t.api
        .post('/api/v1/events')
        .set(a.auth)
        .send({ title: 'Talk', start_date: '2030-01-01', status: 'published', slots: 1 })
        .expect(201)
    ).body.data;
    const reg = (
      await t.api
        .post(`/api/v1/events/${event.id}/registrations`)
        .set(a.auth)
        .send({ name: 'Ada', email: 'ada@example.com' })
        .expect(201)
    ).body.data;
    await t.api
      .post(`/api/v1/events/${event.id}/registrations`)
      .set(a.auth)
      .send({ name: 'Bob', email: 'bob@example.com' })
      .expect(409); // full
    await t.api.patch(`/api/v1/events/${event.id}`).set(a.auth).send({ slots: 0 }).expect(400);
    await t.api.patch(`/api/v1/events/${event.id}`).set(a.auth).send({ title: 'Talk 2' }).expect(200);
    await t.api.delete(`/api/v1/events/${event.id}/registrations/${reg.id}`).set(a.auth).expect(200);
    await t.api.delete(`/api/v1/events/${event.id}/registrations/${reg.id}`).set(a.auth).expect(200); // already cancelled
    await t.api.delete(`/api/v1/events/${event.id}`).set(a.auth).expect(200);

    const got = await events(a.orgId);
    expect(got.map((e) => e.type)).toEqual([
      'event.created',
      'registration.created',
      'event.updated',
      'registration.cancelled',
      'event.deleted',
    ]);
    expect(got[1]!.data).toMatchObject({ id: reg.id, status: 'active' });
    expect(got[3]!.data).toMatchObject({ id: reg.id, status: 'cancelled' });
    expect(got[4]!.data).toEqual({ id: event.id, deleted: true });
  });
});
