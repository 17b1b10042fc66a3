import { createTestApp, Tenant, TestApp } from '../support/test-app';
import { createBooking, createSchedule, fieldsOf, SCHEDULING_TEST_CONFIG, slot, UNKNOWN_ID, UUID } from './scheduling-helpers';

describe('schedules (e2e)', () => {
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

  it('creates a schedule with the default time zone UTC, and a Location', async () => {
    const res = await t.api.post('/api/v1/schedules').set(a.auth).send({ name: 'Dr. Rivera' }).expect(201);
    expect(res.body).toEqual({
      data: {
        id: expect.stringMatching(UUID),
        name: 'Dr. Rivera',
        timezone: 'UTC',
        availability: null,
        date_overrides: [],
        max_bookings_per_day: null,
        max_bookings_per_week: null,
        max_booked_minutes_per_day: null,
        max_booked_minutes_per_week: null,
        created_at: '2026-11-21T08:00:00.000Z',
        updated_at: '2026-11-21T08:00:00.000Z',
      },
    });
    expect(res.headers.location).toBe(`/api/v1/schedules/${res.body.data.id}`);
    const [row] = await t.query('SELECT organization_id, name, timezone FROM schedules WHERE id = $1', [res.body.data.id]);
    expect(row).toEqual({ organization_id: a.orgId, name: 'Dr. Rivera', timezone: 'UTC' });
  });

  it('keeps a given IANA time zone and reads it back', async () => {
    const id = await createSchedule(t, a, { name: 'Paris desk', timezone: 'Europe/Paris' });
    const res = await t.api.get(`/api/v1/schedules/${id}`).set(a.auth).expect(200);
    expect(res.body.data).toMatchObject({ id, name: 'Paris desk', timezone: 'Europe/Paris' });
  });

  it.each([
    [{}, 'name'],
    [{ name: '' }, 'name'],
    [{ name: '   ' }, 'name'],
    [{ name: 'x'.repeat(301) }, 'name'],
    [{ name: 42 }, 'name'],
    [{ name: 'A', timezone: 'Mars/Olympus' }, 'timezone'],
    [{ name: 'A', timezone: 'CET+1' }, 'timezone'],
    [{ name: 'A', id: UNKNOWN_ID }, 'id'],
  ])('refuses %j with 400 on %s', async (body, field) => {
    const res = await t.api.post('/api/v1/schedules').set(a.auth).send(body).expect(400);
    expect(res.body.code).toBe('validation_failed');
    expect(fieldsOf(res.body)).toContain(field);
    expect(await t.query('SELECT 1 FROM schedules WHERE organization_id = $1', [a.orgId])).toHaveLength(0);
  });

  it('stores text with quotes, markup and any Unicode exactly', async () => {
    const name = `O'Brien "<b>x</b>" ; DROP TABLE schedules; -- 日本語 🎉`;
    const id = await createSchedule(t, a, { name });
    expect((await t.api.get(`/api/v1/schedules/${id}`).set(a.auth).expect(200)).body.data.name).toBe(name);
  });

  it('updates name and time zone, setting updated_at; an empty body is 400', async () => {
    const id = await createSchedule(t, a);
    t.clock.advance(60_000);
    const res = await t.api.patch(`/api/v1/schedules/${id}`).set(a.auth).send({ timezone: 'Asia/Tokyo' }).expect(200);
    expect(res.body.data).toMatchObject({ id, name: 'Room', timezone: 'Asia/Tokyo', updated_at: '2026-11-21T08:01:00.000Z' });
    expect(res.body.data.created_at).not.toBe(res.body.data.updated_at);
    const empty = await t.api.patch(`/api/v1/schedules/${id}`).set(a.auth).send({}).expect(400);
    expect(fieldsOf(empty.body)).toEqual(['body']);
    const nul = await t.api.patch(`/api/v1/schedules/${id}`).set(a.auth).send({ name: null }).expect(400);
    expect(fieldsOf(nul.body)).toContain('name');
    const readOnly = await t.api.patch(`/api/v1/schedules/${id}`).set(a.auth).send({ created_at: '2020-01-01T00:00:00Z' }).expect(400);
    expect(fieldsOf(readOnly.body)).toContain('created_at');
  });

  it('answers 404 for an unknown id and for a path id that is not a UUID', async () => {
    for (const id of [UNKNOWN_ID, 'not-a-uuid']) {
      await t.api.get(`/api/v1/schedules/${id}`).set(a.auth).expect(404);
      await t.api.patch(`/api/v1/schedules/${id}`).set(a.auth).send({ name: 'x' }).expect(404);
      const res = await t.api.delete(`/api/v1/schedules/${id}`).set(a.auth).expect(404);
      expect(res.body.code).toBe('not_found');
    }
  });

  describe('list', () => {
    it('is empty with meta for a new organization', async () => {
      const res = await t.api.get('/api/v1/schedules').set(a.auth).expect(200);
      expect(res.body).toEqual({ data: [], meta: { total: 0, limit: 50, offset: 0, hasMore: false } });
    });

    it('orders by created_at and pages with correct meta at the edges', async () => {
      const ids: string[] = [];
      for (let i = 0; i < 5; i++) {
        t.clock.advance(1000);
        ids.push(await createSchedule(t, a, { name: `S${i}` }));
      }
      const first = await t.api.get('/api/v1/schedules?limit=2').set(a.auth).expect(200);
      expect(first.body.data.map((s: { id: string }) => s.id)).toEqual(ids.slice(0, 2));
      expect(first.body.meta).toEqual({ total: 5, limit: 2, offset: 0, hasMore: true });
      const last = await t.api.get('/api/v1/schedules?limit=2&offset=4').set(a.auth).expect(200);
      expect(last.body.data.map((s: { id: string }) => s.id)).toEqual(ids.slice(4));
      expect(last.body.meta).toEqual({ total: 5, limit: 2, offset: 4, hasMore: false });
      const past = await t.api.get('/api/v1/schedules?offset=50').set(a.auth).expect(200);
      expect(past.body).toEqual({ data: [], meta: { total: 5, limit: 50, offset: 50, hasMore: false } });
      const clamped = await t.api.get('/api/v1/schedules?limit=500&utm_source=newsletter').set(a.auth).expect(200);
      expect(clamped.body.meta).toEqual({ total: 5, limit: 100, offset: 0, hasMore: false });
    });

    it.each(['limit=0', 'limit=-1', 'limit=abc', 'offset=-1', 'limit=1.5'])('refuses %s with 400', async (q) => {
      const res = await t.api.get(`/api/v1/schedules?${q}`).set(a.auth).expect(400);
      expect(fieldsOf(res.body)).toContain(q.split('=')[0]);
    });
  });

  describe('delete', () => {
    it('deletes a schedule without bookings', async () => {
      const id = await createSchedule(t, a);
      const res = await t.api.delete(`/api/v1/schedules/${id}`).set(a.auth).expect(200);
      expect(res.body).toEqual({ data: { id, deleted: true } });
      expect(await t.query('SELECT 1 FROM schedules WHERE id = $1', [id])).toHaveLength(0);
      await t.api.get(`/api/v1/schedules/${id}`).set(a.auth).expect(404);
    });

    it.each(['PENDING', 'CONFIRMED'])('refuses with 409 schedule_in_use while a booking is %s', async (status) => {
      const id = await createSchedule(t, a);
      const booking = await createBooking(t, a, id);
      if (status === 'CONFIRMED') {
        await t.api.patch(`/api/v1/bookings/${booking.id}`).set(a.auth).send({ status: 'CONFIRMED' }).expect(200);
      }
      const res = await t.api.delete(`/api/v1/schedules/${id}`).set(a.auth).expect(409);
      expect(res.body.code).toBe('schedule_in_use');
      expect(await t.query('SELECT 1 FROM schedules WHERE id = $1', [id])).toHaveLength(1);
      expect(await t.query('SELECT 1 FROM bookings WHERE id = $1', [booking.id])).toHaveLength(1);
    });

    it('never deletes a schedule under a booking created at the same moment', async () => {
      for (let i = 0; i < 10; i++) {
        const id = await createSchedule(t, a);
        const [post, del] = await Promise.all([
          t.api.post('/api/v1/bookings').set(a.auth).send({ schedule_id: id, ...slot(i), attendee: { name: 'A', email: 'a@example.com' } }),
          t.api.delete(`/api/v1/schedules/${id}`).set(a.auth),
        ]);
        const bookings = await t.query('SELECT 1 FROM bookings WHERE schedule_id = $1', [id]);
        const schedules = await t.query('SELECT 1 FROM schedules WHERE id = $1', [id]);
        if (del.status === 200) {
          expect(post.status).toBe(422);
          expect(post.body.code).toBe('invalid_reference');
          expect([bookings.length, schedules.length]).toEqual([0, 0]);
        } else {
          expect([del.status, del.body.code, post.status]).toEqual([409, 'schedule_in_use', 201]);
          expect([bookings.length, schedules.length]).toEqual([1, 1]);
        }
      }
    });

    it('deletes the bookings with it when they are all over or cancelled', async () => {
      const id = await createSchedule(t, a);
      const cancelled = await createBooking(t, a, id, slot(1));
      const completed = await createBooking(t, a, id, slot(2));
      const noShow = await createBooking(t, a, id, slot(3));
      await t.api.delete(`/api/v1/bookings/${cancelled.id}`).set(a.auth).expect(200);
      for (const [b, end] of [
        [completed, 'COMPLETED'],
        [noShow, 'NO_SHOW'],
      ] as const) {
        await t.api.patch(`/api/v1/bookings/${b.id}`).set(a.auth).send({ status: 'CONFIRMED' }).expect(200);
        await t.api.patch(`/api/v1/bookings/${b.id}`).set(a.auth).send({ status: end }).expect(200);
      }
      const other = await createSchedule(t, a);
      const kept = await createBooking(t, a, other, slot(1));

      await t.api.delete(`/api/v1/schedules/${id}`).set(a.auth).expect(200);
      const left = await t.query<{ id: string }>('SELECT id FROM bookings WHERE organization_id = $1', [a.orgId]);
      expect(left.map((r) => r.id)).toEqual([kept.id]);
    });
  });

  it('needs bookings:read to read and bookings:write to write', async () => {
    const reader = await t.tenant({ scopes: ['bookings:read'] });
    const writer = await t.tenant({ scopes: ['bookings:write'] });
    await t.api.get('/api/v1/schedules').set(reader.auth).expect(200);
    const denied = await t.api.post('/api/v1/schedules').set(reader.auth).send({ name: 'x' }).expect(403);
    expect(denied.body.code).toBe('forbidden');
    await t.api.get('/api/v1/schedules').set(writer.auth).expect(403);
    const id = await createSchedule(t, writer);
    await t.api.get(`/api/v1/schedules/${id}`).set(writer.auth).expect(403);
    await t.api.patch(`/api/v1/schedules/${id}`).set(reader.auth).send({ name: 'y' }).expect(403);
    await t.api.delete(`/api/v1/schedules/${id}`).set(reader.auth).expect(403);
    await t.api.get('/api/v1/schedules').expect(401);
  });
});
