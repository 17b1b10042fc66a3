import { createTestApp, Tenant, TestApp } from '../support/test-app';
import {
  createBooking,
  createEventType,
  createSchedule,
  fieldsOf,
  SCHEDULING_TEST_CONFIG,
  UNKNOWN_ID,
  UUID,
} from './scheduling-helpers';

describe('event types (e2e)', () => {
  let t: TestApp;
  let a: Tenant;

  beforeAll(async () => {
    t = await createTestApp({ config: SCHEDULING_TEST_CONFIG });
    t.clock.set('2026-11-21T08:00:00.000Z');
  });
  afterAll(async () => t.close());
  beforeEach(async () => {
    a = await t.tenant();
  });

  it('creates with the defaults of 4.2 and a generated slug', async () => {
    const res = await t.api.post('/api/v1/event-types').set(a.auth).send({ title: 'Café Crème: 30 min!', duration: 30 }).expect(201);
    expect(res.body).toEqual({
      data: {
        id: expect.stringMatching(UUID),
        title: 'Café Crème: 30 min!',
        slug: 'cafe-creme-30-min',
        description: null,
        duration: 30,
        location_type: 'video',
        location_details: null,
        color: null,
        requires_approval: false,
        is_active: true,
        buffer_before: 0,
        buffer_after: 0,
        minimum_notice: 0,
        slot_interval: null,
        booking_window_days: null,
        max_bookings_per_day: null,
        max_bookings_per_week: null,
        max_bookings_per_month: null,
        max_booked_minutes_per_day: null,
        max_booked_minutes_per_week: null,
        attendee_can_cancel: true,
        attendee_can_reschedule: true,
        cancel_notice_minutes: 0,
        reschedule_notice_minutes: 0,
        created_at: '2026-11-21T08:00:00.000Z',
        updated_at: '2026-11-21T08:00:00.000Z',
      },
    });
    expect(res.headers.location).toBe(`/api/v1/event-types/${res.body.data.id}`);
    const [row] = await t.query('SELECT organization_id, slug, location_type, is_active FROM event_types WHERE id = $1', [res.body.data.id]);
    expect(row).toEqual({ organization_id: a.orgId, slug: 'cafe-creme-30-min', location_type: 'video', is_active: true });
  });

  it('keeps every field it is given', async () => {
    const body = {
      title: 'Site visit',
      slug: 'site-visit',
      description: 'We come to you.',
      duration: 1440,
      location_type: 'in_person',
      location_details: '12 Rue de Rivoli, Paris',
      color: '#0Af',
      requires_approval: true,
      is_active: false,
    };
    const res = await t.api.post('/api/v1/event-types').set(a.auth).send(body).expect(201);
    expect(res.body.data).toMatchObject(body);
    const got = await t.api.get(`/api/v1/event-types/${res.body.data.id}`).set(a.auth).expect(200);
    expect(got.body.data).toEqual(res.body.data);
  });

  it('makes generated slugs unique with -2, -3 and refuses a supplied slug that is taken', async () => {
    const slugs: string[] = [];
    for (let i = 0; i < 3; i++) {
      const res = await t.api.post('/api/v1/event-types').set(a.auth).send({ title: 'Intro Call', duration: 15 }).expect(201);
      slugs.push(res.body.data.slug);
    }
    expect(slugs).toEqual(['intro-call', 'intro-call-2', 'intro-call-3']);
    const taken = await t.api.post('/api/v1/event-types').set(a.auth).send({ title: 'Other', duration: 15, slug: 'intro-call-2' }).expect(409);
    expect(taken.body).toMatchObject({ code: 'slug_taken', status: 409 });
    expect(fieldsOf(taken.body)).toEqual(['slug']);
    // Another organization has its own slugs.
    const b = await t.tenant();
    const other = await t.api.post('/api/v1/event-types').set(b.auth).send({ title: 'Intro Call', duration: 15 }).expect(201);
    expect(other.body.data.slug).toBe('intro-call');
    const free = await t.api.post('/api/v1/event-types').set(b.auth).send({ title: 'x', duration: 15, slug: 'intro-call-2' }).expect(201);
    expect(free.body.data.slug).toBe('intro-call-2');
  });

  it('gives 12 parallel creates of one title 12 distinct slugs', async () => {
    const results = await Promise.all(
      Array.from({ length: 12 }, () => t.api.post('/api/v1/event-types').set(a.auth).send({ title: 'Rush hour', duration: 10 })),
    );
    expect(results.map((r) => r.status)).toEqual(Array(12).fill(201));
    const rows = await t.query<{ slug: string }>('SELECT slug FROM event_types WHERE organization_id = $1', [a.orgId]);
    expect(new Set(rows.map((r) => r.slug)).size).toBe(12);
    expect(rows.map((r) => r.slug)).toContain('rush-hour');
    expect(rows.map((r) => r.slug)).toContain('rush-hour-12');
  });

  it('answers 12 parallel creates with one supplied slug with one 201 and 11 × 409', async () => {
    const results = await Promise.all(
      Array.from({ length: 12 }, () => t.api.post('/api/v1/event-types').set(a.auth).send({ title: 'Same', duration: 10, slug: 'same' })),
    );
    expect(results.filter((r) => r.status === 201)).toHaveLength(1);
    expect(results.filter((r) => r.status === 409 && r.body.code === 'slug_taken')).toHaveLength(11);
    expect(await t.query('SELECT 1 FROM event_types WHERE organization_id = $1', [a.orgId])).toHaveLength(1);
  });

  it.each([
    [{ duration: 30 }, 'title'],
    [{ title: 'x' }, 'duration'],
    [{ title: 'x', duration: 0 }, 'duration'],
    [{ title: 'x', duration: 1441 }, 'duration'],
    [{ title: 'x', duration: 30.5 }, 'duration'],
    [{ title: 'x', duration: '30' }, 'duration'],
    [{ title: 'x', duration: 1e300 }, 'duration'],
    [{ title: 'x'.repeat(301), duration: 30 }, 'title'],
    [{ title: 'x', duration: 30, slug: 'Not A Slug' }, 'slug'],
    [{ title: 'x', duration: 30, slug: 'a--b' }, 'slug'],
    [{ title: 'x', duration: 30, slug: 'a'.repeat(101) }, 'slug'],
    [{ title: 'x', duration: 30, location_type: 'zoom' }, 'location_type'],
    [{ title: 'x', duration: 30, color: 'blue' }, 'color'],
    [{ title: 'x', duration: 30, color: '#12345' }, 'color'],
    [{ title: 'x', duration: 30, color: '#GGG' }, 'color'],
    [{ title: 'x', duration: 30, requires_approval: 'true' }, 'requires_approval'],
    [{ title: 'x', duration: 30, is_active: 1 }, 'is_active'],
    [{ title: 'x', duration: 30, description: 'd'.repeat(5001) }, 'description'],
    [{ title: 'x', duration: 30, organization_id: UNKNOWN_ID }, 'organization_id'],
  ])('refuses %j with 400 on %s', async (body, field) => {
    const res = await t.api.post('/api/v1/event-types').set(a.auth).send(body).expect(400);
    expect(res.body.code).toBe('validation_failed');
    expect(fieldsOf(res.body)).toContain(field);
    expect(await t.query('SELECT 1 FROM event_types WHERE organization_id = $1', [a.orgId])).toHaveLength(0);
  });

  it('refuses a NUL byte in a title with 400', async () => {
    const res = await t.api.post('/api/v1/event-types').set(a.auth).send({ title: 'a\u0000b', duration: 30 }).expect(400);
    expect(fieldsOf(res.body)).toContain('title');
  });

  describe('list', () => {
    it('lists active types by default, inactive ones with active=false, in creation order', async () => {
      const ids: Record<string, string> = {};
      for (const [title, isActive] of [
        ['A', true],
        ['B', false],
        ['C', true],
        ['D', false],
      ] as const) {
        t.clock.advance(1000);
        ids[title] = await createEventType(t, a, { title, is_active: isActive });
      }
      const active = await t.api.get('/api/v1/event-types').set(a.auth).expect(200);
      expect(active.body.data.map((e: { id: string }) => e.id)).toEqual([ids['A'], ids['C']]);
      expect(active.body.meta).toEqual({ total: 2, limit: 50, offset: 0, hasMore: false });
      const explicit = await t.api.get('/api/v1/event-types?active=true').set(a.auth).expect(200);
      expect(explicit.body.data).toEqual(active.body.data);
      for (const q of ['active=false', 'active=0']) {
        const inactive = await t.api.get(`/api/v1/event-types?${q}`).set(a.auth).expect(200);
        expect(inactive.body.data.map((e: { id: string }) => e.id)).toEqual([ids['B'], ids['D']]);
        expect(inactive.body.data.every((e: { is_active: boolean }) => !e.is_active)).toBe(true);
      }
      const bad = await t.api.get('/api/v1/event-types?active=yes').set(a.auth).expect(400);
      expect(fieldsOf(bad.body)).toEqual(['active']);
    });

    it('has correct meta on an empty list, the last page, limit over 100 and an offset past the end', async () => {
      expect((await t.api.get('/api/v1/event-types').set(a.auth).expect(200)).body).toEqual({
        data: [],
        meta: { total: 0, limit: 50, offset: 0, hasMore: false },
      });
      for (let i = 0; i < 3; i++) await createEventType(t, a, { title: `T${i}` });
      const page = await t.api.get('/api/v1/event-types?limit=2&offset=2').set(a.auth).expect(200);
      expect(page.body.data).toHaveLength(1);
      expect(page.body.meta).toEqual({ total: 3, limit: 2, offset: 2, hasMore: false });
      const first = await t.api.get('/api/v1/event-types?limit=2').set(a.auth).expect(200);
      expect(first.body.meta).toEqual({ total: 3, limit: 2, offset: 0, hasMore: true });
      const clamped = await t.api.get('/api/v1/event-types?limit=500').set(a.auth).expect(200);
      expect(clamped.body.meta).toEqual({ total: 3, limit: 100, offset: 0, hasMore: false });
      const past = await t.api.get('/api/v1/event-types?offset=10').set(a.auth).expect(200);
      expect(past.body).toEqual({ data: [], meta: { total: 3, limit: 50, offset: 10, hasMore: false } });
    });
  });

  describe('update', () => {
    it('changes fields, sets updated_at, keeps the slug when the title changes, clears nullable fields', async () => {
      const id = await createEventType(t, a, { title: 'Old', description: 'desc', color: '#fff', location_details: 'Room 1' });
      t.clock.set('2026-12-01T09:05:00.000Z');
      const res = await t.api
        .patch(`/api/v1/event-types/${id}`)
        .set(a.auth)
        .send({ title: 'New', duration: 45, location_type: 'phone', description: null, color: null, location_details: null, requires_approval: true })
        .expect(200);
      expect(res.body.data).toMatchObject({
        id,
        title: 'New',
        slug: 'old',
        duration: 45,
        location_type: 'phone',
        description: null,
        color: null,
        location_details: null,
        requires_approval: true,
        is_active: true,
        updated_at: '2026-12-01T09:05:00.000Z',
      });
      const [row] = await t.query('SELECT title, duration, description FROM event_types WHERE id = $1', [id]);
      expect(row).toEqual({ title: 'New', duration: 45, description: null });
    });

    it('refuses an empty body, a taken slug, nulls for required fields and read-only fields', async () => {
      const id = await createEventType(t, a, { title: 'One' });
      await createEventType(t, a, { title: 'Two' });
      expect(fieldsOf((await t.api.patch(`/api/v1/event-types/${id}`).set(a.auth).send({}).expect(400)).body)).toEqual(['body']);
      const taken = await t.api.patch(`/api/v1/event-types/${id}`).set(a.auth).send({ slug: 'two' }).expect(409);
      expect(taken.body.code).toBe('slug_taken');
      for (const field of ['title', 'duration', 'slug', 'location_type', 'requires_approval', 'is_active']) {
        const res = await t.api.patch(`/api/v1/event-types/${id}`).set(a.auth).send({ [field]: null }).expect(400);
        expect(fieldsOf(res.body)).toContain(field);
      }
      for (const field of ['id', 'created_at']) {
        const res = await t.api.patch(`/api/v1/event-types/${id}`).set(a.auth).send({ [field]: 'x' }).expect(400);
        expect(fieldsOf(res.body)).toContain(field);
      }
      const [row] = await t.query('SELECT slug, title FROM event_types WHERE id = $1', [id]);
      expect(row).toEqual({ slug: 'one', title: 'One' });
    });

    it('answers 404 for unknown and non-UUID ids', async () => {
      await t.api.get(`/api/v1/event-types/${UNKNOWN_ID}`).set(a.auth).expect(404);
      await t.api.get('/api/v1/event-types/nope').set(a.auth).expect(404);
      await t.api.patch(`/api/v1/event-types/${UNKNOWN_ID}`).set(a.auth).send({ title: 'x' }).expect(404);
      await t.api.delete(`/api/v1/event-types/${UNKNOWN_ID}`).set(a.auth).expect(404);
    });
  });

  it('deletes an event type; its bookings keep their history with event_type_id null', async () => {
    const eventTypeId = await createEventType(t, a, { title: 'Consultation', location_type: 'phone' });
    const scheduleId = await createSchedule(t, a);
    const booking = await createBooking(t, a, scheduleId, { event_type_id: eventTypeId });
    expect(booking).toMatchObject({ event_type_id: eventTypeId, title: 'Consultation', location_type: 'phone' });

    const res = await t.api.delete(`/api/v1/event-types/${eventTypeId}`).set(a.auth).expect(200);
    expect(res.body).toEqual({ data: { id: eventTypeId, deleted: true } });
    await t.api.get(`/api/v1/event-types/${eventTypeId}`).set(a.auth).expect(404);
    await t.api.delete(`/api/v1/event-types/${eventTypeId}`).set(a.auth).expect(404);
    const kept = await t.api.get(`/api/v1/bookings/${booking.id}`).set(a.auth).expect(200);
    expect(kept.body.data).toMatchObject({ id: booking.id, event_type_id: null, title: 'Consultation', status: 'PENDING' });
    const [row] = await t.query('SELECT event_type_id, schedule_id FROM bookings WHERE id = $1', [booking.id]);
    expect(row).toEqual({ event_type_id: null, schedule_id: scheduleId });
  });

  it('needs bookings:read / bookings:write', async () => {
    const reader = await t.tenant({ scopes: ['bookings:read'] });
    const eventsOnly = await t.tenant({ scopes: ['events:read', 'events:write'] });
    await t.api.get('/api/v1/event-types').set(reader.auth).expect(200);
    await t.api.post('/api/v1/event-types').set(reader.auth).send({ title: 'x', duration: 5 }).expect(403);
    await t.api.get('/api/v1/event-types').set(eventsOnly.auth).expect(403);
    const id = await createEventType(t, a);
    await t.api.patch(`/api/v1/event-types/${id}`).set(reader.auth).send({ title: 'x' }).expect(403);
    await t.api.delete(`/api/v1/event-types/${id}`).set(reader.auth).expect(403);
  });
});
