import { createTestApp, Tenant, TestApp } from '../support/test-app';
import {
  BOOKING_FIELDS,
  bookingBody,
  createBooking,
  createEventType,
  createSchedule,
  fieldsOf,
  SCHEDULING_TEST_CONFIG,
  slot,
  UNKNOWN_ID,
  UUID,
} from './scheduling-helpers';

describe('bookings (e2e)', () => {
  let t: TestApp;
  let a: Tenant;
  let scheduleId: string;

  beforeAll(async () => {
    t = await createTestApp({ config: SCHEDULING_TEST_CONFIG });
    t.clock.set('2026-11-21T08:00:00.000Z');
  });
  afterAll(async () => t.close());
  beforeEach(async () => {
    a = await t.tenant();
    scheduleId = await createSchedule(t, a, { timezone: 'Europe/Paris' });
  });

  describe('create', () => {
    it('returns the full representation, PENDING, with the defaults', async () => {
      const res = await t.api
        .post('/api/v1/bookings')
        .set(a.auth)
        .send({
          schedule_id: scheduleId,
          start_time: '2027-03-01T10:00:00+01:00',
          end_time: '2027-03-01T10:30:00.000+01:00',
          attendee: { name: 'Ada Lovelace', email: 'ada@example.com' },
        })
        .expect(201);
      expect(res.body).toEqual({
        data: {
          id: expect.stringMatching(UUID),
          schedule_id: scheduleId,
          event_type_id: null,
          series_id: null,
          start_time: '2027-03-01T09:00:00.000Z',
          end_time: '2027-03-01T09:30:00.000Z',
          timezone: 'Europe/Paris',
          status: 'PENDING',
          title: 'Booking',
          location: null,
          location_type: null,
          attendee_name: 'Ada Lovelace',
          attendee_email: 'ada@example.com',
          attendee_phone: null,
          attendee_timezone: null,
          attendee_notes: null,
          metadata: {},
          buffer_before: 0,
          buffer_after: 0,
          created_at: '2026-11-21T08:00:00.000Z',
          updated_at: '2026-11-21T08:00:00.000Z',
          cancelled_at: null,
          cancellation_reason: null,
          cancelled_by: null,
          manage_token: expect.stringMatching(/^bkt_[0-9A-Za-z]{32}$/),
        },
      });
      expect(res.headers.location).toBe(`/api/v1/bookings/${res.body.data.id}`);
      const [row] = await t.query(
        'SELECT organization_id, schedule_id, status, start_time, end_time, attendee_email, metadata FROM bookings WHERE id = $1',
        [res.body.data.id],
      );
      expect(row).toEqual({
        organization_id: a.orgId,
        schedule_id: scheduleId,
        status: 'PENDING',
        start_time: new Date('2027-03-01T09:00:00Z'),
        end_time: new Date('2027-03-01T09:30:00Z'),
        attendee_email: 'ada@example.com',
        metadata: {},
      });
      // The GET shows the same booking, without the token.
      const got = await t.api.get(`/api/v1/bookings/${res.body.data.id}`).set(a.auth).expect(200);
      const { manage_token: _token, ...shown } = res.body.data;
      expect(got.body).toEqual({ data: shown });
    });

    it('keeps every optional field it is given', async () => {
      const eventTypeId = await createEventType(t, a, { title: 'Consultation', requires_approval: true });
      const res = await t.api
        .post('/api/v1/bookings')
        .set(a.auth)
        .send(
          bookingBody(scheduleId, {
            event_type_id: eventTypeId,
            timezone: 'America/New_York',
            title: 'Ada × Charles',
            location: 'https://meet.example.com/abc',
            location_type: 'custom',
            attendee: { name: 'Ada', email: 'Ada@Example.com', phone: '+44 20 7946 0958', timezone: 'Europe/London', notes: 'Bring "notes" <b>' },
            metadata: { source: 'web', visits: 3, vip: true, ref: null, ratio: 0.5 },
          }),
        )
        .expect(201);
      // The create answer alone adds the manage token.
      expect(Object.keys(res.body.data).sort()).toEqual([...BOOKING_FIELDS, 'manage_token'].sort());
      expect(res.body.data).toMatchObject({
        event_type_id: eventTypeId,
        timezone: 'America/New_York',
        title: 'Ada × Charles',
        location: 'https://meet.example.com/abc',
        location_type: 'custom',
        attendee_name: 'Ada',
        attendee_email: 'Ada@Example.com',
        attendee_phone: '+44 20 7946 0958',
        attendee_timezone: 'Europe/London',
        attendee_notes: 'Bring "notes" <b>',
        metadata: { source: 'web', visits: 3, vip: true, ref: null, ratio: 0.5 },
        // requires_approval does not change the initial status: every new booking is PENDING.
        status: 'PENDING',
      });
    });

    it("takes title and location_type from the event type when absent", async () => {
      const eventTypeId = await createEventType(t, a, { title: 'Phone screen', location_type: 'phone' });
      const booking = await createBooking(t, a, scheduleId, { event_type_id: eventTypeId });
      expect(booking).toMatchObject({ title: 'Phone screen', location_type: 'phone', event_type_id: eventTypeId });
    });

    it('allows back-to-back bookings and refuses an overlapping one with 409 booking_overlap', async () => {
      await createBooking(t, a, scheduleId, slot(10));
      await createBooking(t, a, scheduleId, slot(11));
      await createBooking(t, a, scheduleId, slot(9));
      const res = await t.api
        .post('/api/v1/bookings')
        .set(a.auth)
        .send(bookingBody(scheduleId, slot(10.5)))
        .expect(409);
      expect(res.body).toMatchObject({ code: 'booking_overlap', status: 409 });
      // Another schedule is free at that time.
      const other = await createSchedule(t, a);
      await createBooking(t, a, other, slot(10.5));
      expect(await t.query('SELECT 1 FROM bookings WHERE schedule_id = $1', [scheduleId])).toHaveLength(3);
    });

    it('frees the time of a cancelled booking', async () => {
      const first = await createBooking(t, a, scheduleId, slot(1));
      await t.api.delete(`/api/v1/bookings/${first.id}`).set(a.auth).expect(200);
      await createBooking(t, a, scheduleId, slot(1));
    });

    it('answers 422 invalid_reference for a schedule or event type that does not exist in the organization', async () => {
      const b = await t.tenant();
      const foreignSchedule = await createSchedule(t, b);
      const foreignEventType = await createEventType(t, b);
      for (const [body, field] of [
        [{ schedule_id: UNKNOWN_ID }, 'schedule_id'],
        [{ schedule_id: 'not-a-uuid' }, 'schedule_id'],
        [{ schedule_id: foreignSchedule }, 'schedule_id'],
        [{ event_type_id: UNKNOWN_ID }, 'event_type_id'],
        [{ event_type_id: foreignEventType }, 'event_type_id'],
      ] as const) {
        const res = await t.api.post('/api/v1/bookings').set(a.auth).send(bookingBody(scheduleId, body)).expect(422);
        expect(res.body).toMatchObject({ code: 'invalid_reference', status: 422 });
        expect(fieldsOf(res.body)).toEqual([field]);
      }
      const both = await t.api
        .post('/api/v1/bookings')
        .set(a.auth)
        .send(bookingBody(UNKNOWN_ID, { event_type_id: UNKNOWN_ID }))
        .expect(422);
      expect(fieldsOf(both.body).sort()).toEqual(['event_type_id', 'schedule_id']);
      expect(await t.query('SELECT 1 FROM bookings WHERE organization_id = $1', [a.orgId])).toHaveLength(0);
    });

    const manyKeys = (n: number) => Object.fromEntries(Array.from({ length: n }, (_, i) => [`key${i}`, i]));

    it.each<[string, Record<string, unknown>, string]>([
      ['missing attendee', { attendee: undefined }, 'attendee'],
      ['attendee not an object', { attendee: 'Ada' }, 'attendee'],
      ['missing attendee name', { attendee: { email: 'a@example.com' } }, 'attendee.name'],
      ['missing attendee email', { attendee: { name: 'Ada' } }, 'attendee.email'],
      ['bad attendee email', { attendee: { name: 'Ada', email: 'not-an-email' } }, 'attendee.email'],
      ['bad attendee timezone', { attendee: { name: 'Ada', email: 'a@example.com', timezone: 'Nowhere/City' } }, 'attendee.timezone'],
      ['unknown attendee field', { attendee: { name: 'Ada', email: 'a@example.com', age: 3 } }, 'attendee.age'],
      ['naive start_time', { start_time: '2027-03-01T10:00:00' }, 'start_time'],
      ['naive end_time', { end_time: '2027-03-01T11:00:00' }, 'end_time'],
      ['impossible date', { start_time: '2027-02-30T10:00:00Z' }, 'start_time'],
      ['date without time', { start_time: '2027-03-01' }, 'start_time'],
      ['end before start', { start_time: '2027-03-01T11:00:00Z', end_time: '2027-03-01T10:00:00Z' }, 'end_time'],
      ['end equal to start', { start_time: '2027-03-01T10:00:00Z', end_time: '2027-03-01T11:00:00+01:00' }, 'end_time'],
      ['missing schedule_id', { schedule_id: undefined }, 'schedule_id'],
      ['schedule_id not a string', { schedule_id: 42 }, 'schedule_id'],
      ['bad status on create', { status: 'CONFIRMED' }, 'status'],
      ['unknown field', { colour: 'red' }, 'colour'],
      ['NUL byte in title', { title: 'Intro\u0000call' }, 'title'],
      ['title too long', { title: 'x'.repeat(301) }, 'title'],
      ['bad timezone', { timezone: 'Europe/Atlantis' }, 'timezone'],
      ['bad location_type', { location_type: 'zoom' }, 'location_type'],
      ['51 metadata keys', { metadata: manyKeys(51) }, 'metadata'],
      ['metadata key over 40 characters', { metadata: { ['k'.repeat(41)]: 1 } }, 'metadata'],
      ['metadata string over 500', { metadata: { note: 'x'.repeat(501) } }, 'metadata'],
      ['nested metadata', { metadata: { nested: { a: 1 } } }, 'metadata'],
      ['metadata array value', { metadata: { list: [1] } }, 'metadata'],
      ['metadata not an object', { metadata: ['a'] }, 'metadata'],
      ['metadata key __proto__', { metadata: JSON.parse('{"__proto__": {"polluted": true}}') }, 'metadata'],
      ['metadata key constructor', { metadata: { constructor: 'x' } }, 'metadata'],
      ['metadata key prototype', { metadata: { prototype: 1 } }, 'metadata'],
      ['end_time past year 9999', { start_time: '9999-12-31T22:00:00Z', end_time: '9999-12-31T23:00:00-05:00' }, 'end_time'],
      ['start_time before year 1', { start_time: '0001-01-01T00:00:00+01:00', end_time: '0001-01-01T02:00:00Z' }, 'start_time'],
    ])('%s → 400 on %s', async (_name, override, field) => {
      const body: Record<string, unknown> = { ...bookingBody(scheduleId), ...override };
      for (const key of Object.keys(body)) if (body[key] === undefined) delete body[key];
      const res = await t.api.post('/api/v1/bookings').set(a.auth).send(body).expect(400);
      expect(res.body).toMatchObject({ code: 'validation_failed', status: 400 });
      expect(fieldsOf(res.body)).toContain(field);
      expect(await t.query('SELECT 1 FROM bookings WHERE organization_id = $1', [a.orgId])).toHaveLength(0);
    });

    it('accepts exactly 50 metadata keys, and odd but valid text', async () => {
      const metadata = Object.fromEntries(Array.from({ length: 50 }, (_, i) => [`k${i}`, `v${i}`]));
      const booking = await createBooking(t, a, scheduleId, { metadata, title: `'; DROP TABLE bookings; -- <script>𝄞</script>` });
      expect(booking.metadata).toEqual(metadata);
      expect(booking.title).toBe(`'; DROP TABLE bookings; -- <script>𝄞</script>`);
    });

    it('keeps metadata keys exactly, and refuses the reserved ones', async () => {
      const metadata = { toString: 'x', valueOf: 1, hasOwnProperty: true, 'a.b': null, 'ключ': 'значение' };
      const created = await createBooking(t, a, scheduleId, { metadata });
      expect(created.metadata).toEqual(metadata);
      const [row] = await t.query('SELECT metadata FROM bookings WHERE id = $1', [created.id]);
      expect(row!['metadata']).toEqual(metadata);
      const patched = await t.api.patch(`/api/v1/bookings/${created.id}`).set(a.auth).send({ metadata: { toString: 'y' } }).expect(200);
      expect(patched.body.data.metadata).toEqual({ toString: 'y' });
      // Keys the framework would strip are refused rather than silently dropped.
      const refused = await t.api.patch(`/api/v1/bookings/${created.id}`).set(a.auth).send({ metadata: { constructor: 'z' } }).expect(400);
      expect(refused.body.errors).toEqual([{ field: 'metadata', message: 'key "constructor" is reserved' }]);
      expect((await t.query('SELECT metadata FROM bookings WHERE id = $1', [created.id]))[0]!['metadata']).toEqual({ toString: 'y' });
    });

    it('accepts the first and last instants of years 0001-9999', async () => {
      const early = await createBooking(t, a, scheduleId, { start_time: '0001-01-01T00:00:00Z', end_time: '0001-01-01T01:00:00+00:00' });
      expect(early.start_time).toBe('0001-01-01T00:00:00.000Z');
      const late = await createBooking(t, a, scheduleId, { start_time: '9999-12-31T23:00:00Z', end_time: '9999-12-31T23:59:59.999Z' });
      expect(late.end_time).toBe('9999-12-31T23:59:59.999Z');
    });
  });

  describe('update', () => {
    it('updates details, attendee fields and replaces metadata, setting updated_at', async () => {
      const booking = await createBooking(t, a, scheduleId, { metadata: { a: 1, b: 2 }, attendee: { name: 'Ada', email: 'ada@example.com', phone: '123' } });
      t.clock.set('2026-11-22T09:00:00.000Z');
      const res = await t.api
        .patch(`/api/v1/bookings/${booking.id}`)
        .set(a.auth)
        .send({
          title: 'Renamed',
          location: 'Room 7',
          location_type: 'in_person',
          timezone: 'Asia/Tokyo',
          metadata: { c: 'three' },
          attendee: { name: 'Ada King', notes: 'late', phone: null },
        })
        .expect(200);
      expect(res.body.data).toEqual({
        ...booking,
        title: 'Renamed',
        location: 'Room 7',
        location_type: 'in_person',
        timezone: 'Asia/Tokyo',
        metadata: { c: 'three' },
        attendee_name: 'Ada King',
        attendee_notes: 'late',
        attendee_phone: null,
        updated_at: '2026-11-22T09:00:00.000Z',
      });
      const [row] = await t.query('SELECT title, metadata, attendee_email, attendee_phone FROM bookings WHERE id = $1', [booking.id]);
      expect(row).toEqual({ title: 'Renamed', metadata: { c: 'three' }, attendee_email: 'ada@example.com', attendee_phone: null });
      const cleared = await t.api.patch(`/api/v1/bookings/${booking.id}`).set(a.auth).send({ location: null, location_type: null }).expect(200);
      expect(cleared.body.data).toMatchObject({ location: null, location_type: null });
    });

    it('reschedules with start_time and end_time together, under the overlap rule', async () => {
      const booking = await createBooking(t, a, scheduleId, slot(1));
      const other = await createBooking(t, a, scheduleId, slot(3));
      const moved = await t.api.patch(`/api/v1/bookings/${booking.id}`).set(a.auth).send(slot(2)).expect(200);
      expect(moved.body.data).toMatchObject({ ...slot(2), status: 'PENDING' });
      // Overlapping another PENDING booking.
      const clash = await t.api.patch(`/api/v1/bookings/${booking.id}`).set(a.auth).send(slot(2.5)).expect(409);
      expect(clash.body.code).toBe('booking_overlap');
      // Overlapping only itself is fine.
      await t.api.patch(`/api/v1/bookings/${booking.id}`).set(a.auth).send(slot(2, 30)).expect(200);
      // Into the time of a cancelled booking is fine.
      await t.api.delete(`/api/v1/bookings/${other.id}`).set(a.auth).expect(200);
      await t.api.patch(`/api/v1/bookings/${booking.id}`).set(a.auth).send(slot(3)).expect(200);
      const [row] = await t.query('SELECT start_time FROM bookings WHERE id = $1', [booking.id]);
      expect(row!['start_time']).toEqual(new Date(slot(3).start_time));
    });

    it('reschedules a CONFIRMED booking but not a CANCELLED, COMPLETED or NO_SHOW one', async () => {
      const confirmed = await createBooking(t, a, scheduleId, slot(1));
      await t.api.patch(`/api/v1/bookings/${confirmed.id}`).set(a.auth).send({ status: 'CONFIRMED' }).expect(200);
      await t.api.patch(`/api/v1/bookings/${confirmed.id}`).set(a.auth).send(slot(5)).expect(200);
      const cancelled = await createBooking(t, a, scheduleId, slot(2));
      await t.api.delete(`/api/v1/bookings/${cancelled.id}`).set(a.auth).expect(200);
      const res = await t.api.patch(`/api/v1/bookings/${cancelled.id}`).set(a.auth).send(slot(8)).expect(409);
      expect(res.body.code).toBe('invalid_transition');
      const [row] = await t.query('SELECT start_time FROM bookings WHERE id = $1', [cancelled.id]);
      expect(row!['start_time']).toEqual(new Date(slot(2).start_time));
    });

    it.each<[string, Record<string, unknown>, string]>([
      ['empty body', {}, 'body'],
      ['start_time alone', { start_time: '2027-03-01T10:00:00Z' }, 'end_time'],
      ['end_time alone', { end_time: '2027-03-01T10:00:00Z' }, 'start_time'],
      ['end before start', { start_time: '2027-03-01T11:00:00Z', end_time: '2027-03-01T10:00:00Z' }, 'end_time'],
      ['naive date-time', { start_time: '2027-03-01T10:00:00', end_time: '2027-03-01T11:00:00Z' }, 'start_time'],
      ['read-only id', { id: UNKNOWN_ID }, 'id'],
      ['read-only schedule_id', { schedule_id: UNKNOWN_ID }, 'schedule_id'],
      ['read-only event_type_id', { event_type_id: UNKNOWN_ID }, 'event_type_id'],
      ['read-only created_at', { created_at: '2027-03-01T10:00:00Z' }, 'created_at'],
      ['read-only cancelled_at', { cancelled_at: null }, 'cancelled_at'],
      ['unknown field', { colour: 'red' }, 'colour'],
      ['bad status', { status: 'DONE' }, 'status'],
      ['lowercase status', { status: 'confirmed' }, 'status'],
      ['null status', { status: null }, 'status'],
      ['null title', { title: null }, 'title'],
      ['null metadata', { metadata: null }, 'metadata'],
      ['51 metadata keys', { metadata: Object.fromEntries(Array.from({ length: 51 }, (_, i) => [`k${i}`, 1])) }, 'metadata'],
      ['null attendee email', { attendee: { email: null } }, 'attendee.email'],
      ['bad attendee email', { attendee: { email: 'nope' } }, 'attendee.email'],
      ['unknown attendee field', { attendee: { age: 3 } }, 'attendee.age'],
      ['NUL in title', { title: 'a\u0000b' }, 'title'],
    ])('%s → 400 on %s, nothing changes', async (_name, body, field) => {
      const booking = await createBooking(t, a, scheduleId);
      const res = await t.api.patch(`/api/v1/bookings/${booking.id}`).set(a.auth).send(body).expect(400);
      expect(res.body.code).toBe('validation_failed');
      expect(fieldsOf(res.body)).toContain(field);
      const got = await t.api.get(`/api/v1/bookings/${booking.id}`).set(a.auth).expect(200);
      expect(got.body.data).toEqual(booking);
    });

    it('answers 404 for unknown and non-UUID ids', async () => {
      for (const id of [UNKNOWN_ID, '12345']) {
        await t.api.get(`/api/v1/bookings/${id}`).set(a.auth).expect(404);
        await t.api.patch(`/api/v1/bookings/${id}`).set(a.auth).send({ status: 'CONFIRMED' }).expect(404);
        await t.api.delete(`/api/v1/bookings/${id}`).set(a.auth).expect(404);
      }
    });
  });

  it('needs bookings:read to read and bookings:write to write', async () => {
    const booking = await createBooking(t, a, scheduleId);
    const reader = await t.tenant({ scopes: ['bookings:read'] });
    const writerOnly = await t.tenant({ scopes: ['bookings:write'] });
    // Scope is checked before the record is looked up: 403, not 404.
    await t.api.get(`/api/v1/bookings/${booking.id}`).set(writerOnly.auth).expect(403);
    await t.api.get('/api/v1/bookings').set(writerOnly.auth).expect(403);
    await t.api.post('/api/v1/bookings').set(reader.auth).send(bookingBody(scheduleId)).expect(403);
    await t.api.patch(`/api/v1/bookings/${booking.id}`).set(reader.auth).send({ status: 'CONFIRMED' }).expect(403);
    await t.api.delete(`/api/v1/bookings/${booking.id}`).set(reader.auth).expect(403);
    await t.api.get('/api/v1/bookings').set({ Authorization: 'Bearer alm_nope' }).expect(401);
    const [row] = await t.query('SELECT status FROM bookings WHERE id = $1', [booking.id]);
    expect(row).toEqual({ status: 'PENDING' });
  });
});
