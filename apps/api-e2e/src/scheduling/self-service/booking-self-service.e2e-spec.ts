import { createHash } from 'node:crypto';
import { createTestApp, Tenant, TestApp } from '../../support/test-app';
import {
  BOOKING_FIELDS,
  bookingBody,
  createEventType,
  createSchedule,
  fieldsOf,
  SCHEDULING_TEST_CONFIG,
} from '../scheduling-helpers';

const TOKEN = /^bkt_[0-9A-Za-z]{32}$/;
const MINUTE = 60_000;
const VIEW_FIELDS = [
  'id',
  'status',
  'start_time',
  'end_time',
  'timezone',
  'title',
  'location',
  'location_type',
  'attendee_name',
  'event_type',
  'can_cancel',
  'can_reschedule',
  'cancellable_until',
  'reschedulable_until',
].sort();

const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');
const at = (iso: string, minutes = 0) => new Date(Date.parse(iso) + minutes * MINUTE).toISOString();

/**
 * Attendee self-service: the manage token given once at create opens the booking under
 * /public/v1/bookings/{token} without a key; the event type's policy says what the attendee may do and
 * until when; cancel and reschedule go through the API's own paths, so every rule of those applies.
 */
describe('booking self-service by manage token (e2e)', () => {
  let t: TestApp;
  let a: Tenant;
  let scheduleId: string;

  beforeAll(async () => {
    t = await createTestApp({ config: { ...SCHEDULING_TEST_CONFIG, publicRateLimitPerMinute: 1_000_000 } });
  });
  afterAll(async () => t.close());
  beforeEach(async () => {
    t.clock.set('2027-03-01T08:00:00.000Z');
    a = await t.tenant();
    scheduleId = await createSchedule(t, a);
  });

  /** A booking of `minutes` starting at `start` (ISO), on the test's schedule unless `extra` names one; its create answer. */
  async function book(start: string, extra: Record<string, unknown> = {}, minutes = 30): Promise<Record<string, any>> {
    const res = await t.api
      .post('/api/v1/bookings')
      .set(a.auth)
      .send(bookingBody(scheduleId, { start_time: start, end_time: at(start, minutes), ...extra }))
      .expect(201);
    return res.body.data as Record<string, any>;
  }

  const view = (token: string, expected = 200) => t.api.get(`/public/v1/bookings/${token}`).expect(expected);
  const cancel = (token: string, body: Record<string, unknown> = {}) => t.api.post(`/public/v1/bookings/${token}/cancel`).send(body);
  const reschedule = (token: string, start: string) => t.api.post(`/public/v1/bookings/${token}/reschedule`).send({ start_time: start });

  async function events(bookingId: string): Promise<Array<{ type: string; previous_status: string | null; data: Record<string, any> }>> {
    return t.query(`SELECT type, previous_status, data FROM outbox_events WHERE organization_id = $1 AND data->>'id' = $2 ORDER BY seq`, [
      a.orgId,
      bookingId,
    ]);
  }

  describe('event type policy fields', () => {
    it('are accepted on create and PATCH and returned by every answer', async () => {
      const created = await t.api
        .post('/api/v1/event-types')
        .set(a.auth)
        .send({ title: 'Call', duration: 30, attendee_can_cancel: false, cancel_notice_minutes: 1440, reschedule_notice_minutes: 525_600 })
        .expect(201);
      expect(created.body.data).toMatchObject({
        attendee_can_cancel: false,
        attendee_can_reschedule: true,
        cancel_notice_minutes: 1440,
        reschedule_notice_minutes: 525_600,
      });
      const id = created.body.data.id as string;
      const patched = await t.api
        .patch(`/api/v1/event-types/${id}`)
        .set(a.auth)
        .send({ attendee_can_cancel: true, attendee_can_reschedule: false, cancel_notice_minutes: 0 })
        .expect(200);
      expect(patched.body.data).toMatchObject({
        attendee_can_cancel: true,
        attendee_can_reschedule: false,
        cancel_notice_minutes: 0,
        reschedule_notice_minutes: 525_600,
      });
      expect((await t.api.get(`/api/v1/event-types/${id}`).set(a.auth).expect(200)).body.data).toEqual(patched.body.data);
      const listed = await t.api.get('/api/v1/event-types').set(a.auth).expect(200);
      expect(listed.body.data[0]).toEqual(patched.body.data);
    });

    it.each([
      ['cancel_notice_minutes', -1],
      ['cancel_notice_minutes', 525_601],
      ['reschedule_notice_minutes', 1.5],
      ['reschedule_notice_minutes', '60'],
      ['attendee_can_cancel', 'yes'],
      ['attendee_can_reschedule', 1],
    ])('refuses %s = %j on create and PATCH', async (field, value) => {
      const bad = await t.api.post('/api/v1/event-types').set(a.auth).send({ title: 'x', duration: 30, [field]: value }).expect(400);
      expect(new Set(fieldsOf(bad.body))).toEqual(new Set([field]));
      const id = await createEventType(t, a);
      const badPatch = await t.api.patch(`/api/v1/event-types/${id}`).set(a.auth).send({ [field]: value }).expect(400);
      expect(new Set(fieldsOf(badPatch.body))).toEqual(new Set([field]));
    });

    it('refuses null on PATCH (the fields always have a value)', async () => {
      const id = await createEventType(t, a);
      for (const field of ['attendee_can_cancel', 'attendee_can_reschedule', 'cancel_notice_minutes', 'reschedule_notice_minutes']) {
        const bad = await t.api.patch(`/api/v1/event-types/${id}`).set(a.auth).send({ [field]: null }).expect(400);
        expect(new Set(fieldsOf(bad.body))).toEqual(new Set([field]));
      }
    });
  });

  describe('the manage token', () => {
    it('is given once, in the create answer, and only its SHA-256 is stored', async () => {
      const eventTypeId = await createEventType(t, a, { requires_approval: true });
      const created = await book('2027-03-02T10:00:00.000Z', { event_type_id: eventTypeId });
      expect(created['manage_token']).toMatch(TOKEN);
      // New bookings are PENDING, requires_approval or not.
      expect(created['status']).toBe('PENDING');
      const [row] = await t.query<{ manage_token_hash: string }>('SELECT manage_token_hash FROM bookings WHERE id = $1', [created['id']]);
      expect(row!.manage_token_hash).toBe(sha256(created['manage_token']));
      const stored = JSON.stringify(await t.query('SELECT * FROM bookings WHERE id = $1', [created['id']]));
      expect(stored).not.toContain(created['manage_token']);

      const got = await t.api.get(`/api/v1/bookings/${created['id']}`).set(a.auth).expect(200);
      expect(Object.keys(got.body.data).sort()).toEqual(BOOKING_FIELDS);
      const listed = await t.api.get('/api/v1/bookings').set(a.auth).expect(200);
      expect(JSON.stringify(listed.body)).not.toContain('manage_token');
      const [event] = await events(created['id']);
      expect(event!.type).toBe('booking.created');
      expect(JSON.stringify(event)).not.toContain(created['manage_token']);
      expect(JSON.stringify(event)).not.toContain(row!.manage_token_hash);
    });

    it('gives every booking its own token', async () => {
      const tokens = new Set<string>();
      for (let i = 0; i < 5; i++) tokens.add((await book(at('2027-03-02T10:00:00.000Z', i * 60)))['manage_token']);
      expect(tokens.size).toBe(5);
    });

    it('is replaced by POST /api/v1/bookings/{id}/manage-token: the old one opens nothing from then on', async () => {
      const created = await book('2027-03-02T10:00:00.000Z');
      const old = created['manage_token'] as string;
      await view(old, 200);
      const res = await t.api.post(`/api/v1/bookings/${created['id']}/manage-token`).set(a.auth).expect(201);
      const fresh = res.body.data.manage_token as string;
      expect(Object.keys(res.body.data)).toEqual(['manage_token']);
      expect(fresh).toMatch(TOKEN);
      expect(fresh).not.toBe(old);
      expect(res.headers.location).toBe(`/api/v1/bookings/${created['id']}`);
      expect((await view(old, 404)).body).toMatchObject({ code: 'not_found', status: 404 });
      await cancel(old).expect(404);
      await reschedule(old, '2027-03-02T12:00:00.000Z').expect(404);
      await t.api.get(`/public/v1/bookings/${old}/slots`).expect(404);
      expect((await view(fresh)).body.data.id).toBe(created['id']);
      const [row] = await t.query<{ manage_token_hash: string }>('SELECT manage_token_hash FROM bookings WHERE id = $1', [created['id']]);
      expect(row!.manage_token_hash).toBe(sha256(fresh));
    });

    it('is replaced only for the key of the booking organization, with bookings:write', async () => {
      const created = await book('2027-03-02T10:00:00.000Z');
      const b = await t.tenant();
      await t.api.post(`/api/v1/bookings/${created['id']}/manage-token`).set(b.auth).expect(404);
      await t.api.post('/api/v1/bookings/01900000-0000-7000-8000-000000000000/manage-token').set(a.auth).expect(404);
      const reader = await t.tenant({ scopes: ['bookings:read'] });
      await t.api.post(`/api/v1/bookings/${created['id']}/manage-token`).set(reader.auth).expect(403);
      await view(created['manage_token'], 200);
    });

    it.each([
      ['an unknown token', `bkt_${'A'.repeat(32)}`],
      ['no prefix', 'A'.repeat(32)],
      ['a short token', 'bkt_abc'],
      ['a long token', `bkt_${'A'.repeat(33)}`],
      ['SQL', "bkt_' OR 1=1 --"],
      ['the stored hash itself', 'HASH'],
    ])('answers %s with 404 not_found on every route', async (_what, given) => {
      const created = await book('2027-03-02T10:00:00.000Z');
      const [row] = await t.query<{ manage_token_hash: string }>('SELECT manage_token_hash FROM bookings WHERE id = $1', [created['id']]);
      const token = encodeURIComponent(given === 'HASH' ? row!.manage_token_hash : given);
      for (const res of [
        await t.api.get(`/public/v1/bookings/${token}`),
        await t.api.post(`/public/v1/bookings/${token}/cancel`).send({}),
        await t.api.get(`/public/v1/bookings/${token}/slots`),
        await t.api.post(`/public/v1/bookings/${token}/reschedule`).send({ start_time: '2027-03-02T12:00:00Z' }),
      ]) {
        expect(res.status).toBe(404);
        expect(res.body).toMatchObject({ code: 'not_found' });
        expect(res.headers['access-control-allow-origin']).toBe('*');
      }
      expect((await t.api.get(`/api/v1/bookings/${created['id']}`).set(a.auth).expect(200)).body.data.status).toBe('PENDING');
    });
  });

  describe('the view', () => {
    it('shows the booking without e-mail, phone, notes or metadata, to any origin, with no key', async () => {
      const eventTypeId = await createEventType(t, a, { title: 'Intro call', duration: 45, cancel_notice_minutes: 120, reschedule_notice_minutes: 1440 });
      const created = await book(
        '2027-03-03T10:00:00.000Z',
        {
          event_type_id: eventTypeId,
          location: 'Room 4',
          attendee: { name: 'Ada Lovelace', email: 'ada.private@example.com', phone: '+44 20 7946 0958', notes: 'my secret note', timezone: 'Europe/London' },
          metadata: { crm_id: 'crm-hidden-value' },
        },
        45,
      );
      const res = await t.api.get(`/public/v1/bookings/${created['manage_token']}`).set('Origin', 'https://attendee.example').expect(200);
      expect(res.headers['access-control-allow-origin']).toBe('*');
      expect(res.headers['access-control-allow-credentials']).toBeUndefined();
      expect(Object.keys(res.body.data).sort()).toEqual(VIEW_FIELDS);
      expect(res.body.data).toEqual({
        id: created['id'],
        status: 'PENDING',
        start_time: '2027-03-03T10:00:00.000Z',
        end_time: '2027-03-03T10:45:00.000Z',
        timezone: 'UTC',
        title: 'Intro call',
        location: 'Room 4',
        location_type: 'video',
        attendee_name: 'Ada Lovelace',
        event_type: { id: eventTypeId, title: 'Intro call', duration: 45 },
        can_cancel: true,
        can_reschedule: true,
        cancellable_until: '2027-03-03T08:00:00.000Z',
        reschedulable_until: '2027-03-02T10:00:00.000Z',
      });
      for (const hidden of ['ada.private', '7946', 'my secret note', 'crm-hidden-value', 'Europe/London']) expect(res.text).not.toContain(hidden);
    });

    it('reads the policy from the event type as it is now, and says what status and type forbid', async () => {
      const eventTypeId = await createEventType(t, a);
      const created = await book('2027-03-03T10:00:00.000Z', { event_type_id: eventTypeId });
      const token = created['manage_token'] as string;
      expect((await view(token)).body.data).toMatchObject({ can_cancel: true, cancellable_until: '2027-03-03T10:00:00.000Z' });

      await t.api.patch(`/api/v1/event-types/${eventTypeId}`).set(a.auth).send({ attendee_can_cancel: false, reschedule_notice_minutes: 60 }).expect(200);
      expect((await view(token)).body.data).toMatchObject({
        can_cancel: false,
        cancellable_until: null,
        can_reschedule: true,
        reschedulable_until: '2027-03-03T09:00:00.000Z',
      });

      await t.api.patch(`/api/v1/bookings/${created['id']}`).set(a.auth).send({ status: 'CONFIRMED' }).expect(200);
      await t.api.patch(`/api/v1/bookings/${created['id']}`).set(a.auth).send({ status: 'COMPLETED' }).expect(200);
      expect((await view(token)).body.data).toMatchObject({
        status: 'COMPLETED',
        can_cancel: false,
        can_reschedule: false,
        cancellable_until: null,
        reschedulable_until: null,
      });
    });

    it('lets the attendee of a booking without an event type cancel and reschedule until its start', async () => {
      const created = await book('2027-03-03T10:00:00.000Z');
      expect((await view(created['manage_token'])).body.data).toMatchObject({
        event_type: null,
        can_cancel: true,
        can_reschedule: true,
        cancellable_until: '2027-03-03T10:00:00.000Z',
        reschedulable_until: '2027-03-03T10:00:00.000Z',
      });
      // Its slots need an event type.
      const slots = await t.api.get(`/public/v1/bookings/${created['manage_token']}/slots`).expect(400);
      expect(slots.body.code).toBe('validation_failed');
      // A deleted event type leaves the booking without one: nothing forbids any more.
      const eventTypeId = await createEventType(t, a, { attendee_can_cancel: false });
      const typed = await book('2027-03-04T10:00:00.000Z', { event_type_id: eventTypeId });
      expect((await view(typed['manage_token'])).body.data.can_cancel).toBe(false);
      await t.api.delete(`/api/v1/event-types/${eventTypeId}`).set(a.auth).expect(200);
      expect((await view(typed['manage_token'])).body.data).toMatchObject({ event_type: null, can_cancel: true });
    });
  });

  describe('cancel', () => {
    it('cancels as the attendee with the reason, announced as booking.cancelled, shown by the API', async () => {
      const eventTypeId = await createEventType(t, a);
      const created = await book('2027-03-03T10:00:00.000Z', { event_type_id: eventTypeId });
      t.clock.set('2027-03-02T09:00:00.000Z');
      const res = await cancel(created['manage_token'], { reason: 'I have to travel that week.' }).expect(200);
      expect(res.headers['access-control-allow-origin']).toBe('*');
      expect(Object.keys(res.body.data).sort()).toEqual(VIEW_FIELDS);
      expect(res.body.data).toMatchObject({ status: 'CANCELLED', can_cancel: false, can_reschedule: false, cancellable_until: null });

      const got = await t.api.get(`/api/v1/bookings/${created['id']}`).set(a.auth).expect(200);
      expect(got.body.data).toMatchObject({
        status: 'CANCELLED',
        cancelled_at: '2027-03-02T09:00:00.000Z',
        cancelled_by: 'attendee',
        cancellation_reason: 'I have to travel that week.',
      });
      const announced = await events(created['id']);
      expect(announced.map((e) => [e.type, e.previous_status])).toEqual([
        ['booking.created', null],
        ['booking.cancelled', 'PENDING'],
      ]);
      expect(announced[1]!.data).toEqual(got.body.data);

      // Again: 200, unchanged (the first reason stays), nothing announced.
      t.clock.advance(MINUTE);
      const again = await cancel(created['manage_token'], { reason: 'another' }).expect(200);
      expect(again.body.data).toEqual({ ...res.body.data });
      expect((await t.api.get(`/api/v1/bookings/${created['id']}`).set(a.auth).expect(200)).body.data).toEqual(got.body.data);
      expect(await events(created['id'])).toHaveLength(2);
    });

    it('takes no body, an empty one or a null reason, and refuses a reason over 500 characters', async () => {
      const one = await book('2027-03-03T10:00:00.000Z');
      const two = await book('2027-03-03T11:00:00.000Z');
      const three = await book('2027-03-03T12:00:00.000Z');
      const tooLong = await cancel(one['manage_token'], { reason: 'x'.repeat(501) }).expect(400);
      expect(fieldsOf(tooLong.body)).toEqual(['reason']);
      expect(tooLong.headers['access-control-allow-origin']).toBe('*');
      const unknown = await cancel(one['manage_token'], { reason: 'ok', cancelled_by: 'api' }).expect(400);
      expect(unknown.body.code).toBe('validation_failed');
      expect((await view(one['manage_token'])).body.data.status).toBe('PENDING');

      await t.api.post(`/public/v1/bookings/${one['manage_token']}/cancel`).expect(200);
      await cancel(two['manage_token'], { reason: null }).expect(200);
      await cancel(three['manage_token'], { reason: 'x'.repeat(500) }).expect(200);
      const rows = await t.query<{ id: string; cancellation_reason: string | null; cancelled_by: string }>(
        'SELECT id, cancellation_reason, cancelled_by FROM bookings WHERE id = ANY($1::uuid[])',
        [[one['id'], two['id'], three['id']]],
      );
      expect(Object.fromEntries(rows.map((r) => [r.id, [r.cancelled_by, r.cancellation_reason]]))).toEqual({
        [one['id']]: ['attendee', null],
        [two['id']]: ['attendee', null],
        [three['id']]: ['attendee', 'x'.repeat(500)],
      });
    });

    it('is refused with 403 when the event type forbids it, 409 for a booking that took place', async () => {
      const forbidding = await createEventType(t, a, { attendee_can_cancel: false });
      const created = await book('2027-03-03T10:00:00.000Z', { event_type_id: forbidding });
      const refused = await cancel(created['manage_token']).expect(403);
      expect(refused.body).toMatchObject({ code: 'forbidden', status: 403 });
      expect(refused.headers['access-control-allow-origin']).toBe('*');

      const done = await book('2027-03-03T11:00:00.000Z');
      await t.api.patch(`/api/v1/bookings/${done['id']}`).set(a.auth).send({ status: 'CONFIRMED' }).expect(200);
      await t.api.patch(`/api/v1/bookings/${done['id']}`).set(a.auth).send({ status: 'NO_SHOW' }).expect(200);
      expect((await cancel(done['manage_token']).expect(409)).body.code).toBe('invalid_transition');

      const statuses = await t.query<{ status: string }>('SELECT status FROM bookings WHERE id = ANY($1::uuid[]) ORDER BY start_time', [
        [created['id'], done['id']],
      ]);
      expect(statuses.map((r) => r.status)).toEqual(['PENDING', 'NO_SHOW']);
    });

    it('is allowed at exactly the start minus the notice, and refused one millisecond later', async () => {
      const eventTypeId = await createEventType(t, a, { cancel_notice_minutes: 90 });
      const early = await book('2027-03-03T10:00:00.000Z', { event_type_id: eventTypeId });
      const late = await book('2027-03-03T11:00:00.000Z', { event_type_id: eventTypeId });

      t.clock.set('2027-03-03T08:30:00.000Z');
      expect((await view(early['manage_token'])).body.data).toMatchObject({ can_cancel: true, cancellable_until: '2027-03-03T08:30:00.000Z' });
      await cancel(early['manage_token']).expect(200);

      t.clock.set('2027-03-03T09:30:00.001Z');
      expect((await view(late['manage_token'])).body.data).toMatchObject({ can_cancel: false, cancellable_until: '2027-03-03T09:30:00.000Z' });
      const refused = await cancel(late['manage_token']).expect(409);
      expect(refused.body).toMatchObject({ code: 'notice_period_passed', status: 409 });
      expect((await t.api.get(`/api/v1/bookings/${late['id']}`).set(a.auth).expect(200)).body.data).toMatchObject({
        status: 'PENDING',
        cancelled_by: null,
        cancellation_reason: null,
      });
      // The organizer still may.
      const byApi = await t.api.delete(`/api/v1/bookings/${late['id']}`).set(a.auth).expect(200);
      expect(byApi.body.data).toMatchObject({ status: 'CANCELLED', cancelled_by: 'api', cancellation_reason: null });
    });

    it('says who cancelled: api for DELETE and PATCH, null while not cancelled', async () => {
      const deleted = await book('2027-03-03T10:00:00.000Z');
      const patched = await book('2027-03-03T11:00:00.000Z');
      expect(deleted).toMatchObject({ cancelled_by: null, cancellation_reason: null });
      await t.api.delete(`/api/v1/bookings/${deleted['id']}`).set(a.auth).expect(200);
      const res = await t.api.patch(`/api/v1/bookings/${patched['id']}`).set(a.auth).send({ status: 'CANCELLED' }).expect(200);
      expect(res.body.data).toMatchObject({ cancelled_by: 'api', cancellation_reason: null });
      const listed = await t.api.get('/api/v1/bookings').set(a.auth).expect(200);
      expect(listed.body.data.map((b: Record<string, unknown>) => b['cancelled_by'])).toEqual(['api', 'api']);
      // A cancelled booking's token moves nothing, and cancelling it again changes nothing.
      expect((await reschedule(deleted['manage_token'], '2027-03-04T10:00:00.000Z').expect(409)).body.code).toBe('invalid_transition');
      await cancel(deleted['manage_token'], { reason: 'late reason' }).expect(200);
      const [row] = await t.query('SELECT cancelled_by, cancellation_reason, start_time FROM bookings WHERE id = $1', [deleted['id']]);
      expect(row).toEqual({ cancelled_by: 'api', cancellation_reason: null, start_time: new Date('2027-03-03T10:00:00.000Z') });
    });
  });

  describe('reschedule', () => {
    it('moves the booking keeping its length, announced as booking.updated', async () => {
      const eventTypeId = await createEventType(t, a, { duration: 30 });
      // 50 minutes: the booking's own length counts, not the type's duration.
      const created = await book('2027-03-03T10:00:00.000Z', { event_type_id: eventTypeId }, 50);
      const res = await reschedule(created['manage_token'], '2027-03-04T15:00:00+01:00').expect(200);
      expect(res.headers['access-control-allow-origin']).toBe('*');
      expect(res.body.data).toMatchObject({ status: 'PENDING', start_time: '2027-03-04T14:00:00.000Z', end_time: '2027-03-04T14:50:00.000Z' });
      const got = await t.api.get(`/api/v1/bookings/${created['id']}`).set(a.auth).expect(200);
      expect(got.body.data).toMatchObject({ start_time: '2027-03-04T14:00:00.000Z', end_time: '2027-03-04T14:50:00.000Z' });
      const announced = await events(created['id']);
      expect(announced.map((e) => e.type)).toEqual(['booking.created', 'booking.updated']);
      expect(announced[1]!.data).toEqual(got.body.data);
    });

    it('applies every rule of a reschedule: overlap, availability, notice, booking window, daily limit', async () => {
      const schedule = await createSchedule(t, a, { availability: [{ days: ['mon', 'tue', 'wed', 'thu', 'fri'], start: '09:00', end: '17:00' }] });
      const eventTypeId = await createEventType(t, a, { duration: 60, minimum_notice: 1440, booking_window_days: 30, max_bookings_per_day: 2, buffer_after: 15 });
      const mk = (start: string) => book(start, { schedule_id: schedule, event_type_id: eventTypeId }, 60);
      // Wednesday 2027-03-03 and Thursday 2027-03-04.
      const mine = await mk('2027-03-03T09:00:00.000Z');
      await mk('2027-03-04T09:00:00.000Z');
      await mk('2027-03-04T11:00:00.000Z');
      await mk('2027-03-05T13:00:00.000Z');
      const token = mine['manage_token'] as string;
      const reasons = async (start: string) => {
        const res = await reschedule(token, start).expect(409);
        return [res.body.code, res.body.reason ?? null];
      };
      expect(await reasons('2027-03-05T12:30:00.000Z')).toEqual(['booking_overlap', null]);
      expect(await reasons('2027-03-05T14:00:00.000Z')).toEqual(['booking_overlap', null]);
      expect(await reasons('2027-03-06T10:00:00.000Z')).toEqual(['slot_unavailable', 'outside_availability']);
      expect(await reasons('2027-03-05T16:30:00.000Z')).toEqual(['slot_unavailable', 'outside_availability']);
      expect(await reasons('2027-03-01T14:00:00.000Z')).toEqual(['slot_unavailable', 'minimum_notice']);
      expect(await reasons('2027-04-05T10:00:00.000Z')).toEqual(['slot_unavailable', 'booking_window']);
      expect(await reasons('2027-03-04T14:00:00.000Z')).toEqual(['slot_unavailable', 'daily_limit']);
      // Its own day: the booking does not count against itself.
      await reschedule(token, '2027-03-03T14:00:00.000Z').expect(200);
      await reschedule(token, '2027-03-05T10:00:00.000Z').expect(200);
      const [row] = await t.query('SELECT start_time, end_time FROM bookings WHERE id = $1', [mine['id']]);
      expect(row).toEqual({ start_time: new Date('2027-03-05T10:00:00.000Z'), end_time: new Date('2027-03-05T11:00:00.000Z') });
    });

    it('is refused with 403 when the type forbids it, 409 for a booking that is not PENDING or CONFIRMED, 400 for a bad start', async () => {
      const forbidding = await createEventType(t, a, { attendee_can_reschedule: false });
      const created = await book('2027-03-03T10:00:00.000Z', { event_type_id: forbidding });
      expect((await reschedule(created['manage_token'], '2027-03-03T12:00:00.000Z').expect(403)).body.code).toBe('forbidden');

      const confirmed = await book('2027-03-03T11:00:00.000Z');
      await t.api.patch(`/api/v1/bookings/${confirmed['id']}`).set(a.auth).send({ status: 'CONFIRMED' }).expect(200);
      await reschedule(confirmed['manage_token'], '2027-03-03T13:00:00.000Z').expect(200);
      await t.api.patch(`/api/v1/bookings/${confirmed['id']}`).set(a.auth).send({ status: 'COMPLETED' }).expect(200);
      expect((await reschedule(confirmed['manage_token'], '2027-03-03T15:00:00.000Z').expect(409)).body.code).toBe('invalid_transition');

      for (const start of ['2027-03-03T12:00:00', 'tomorrow', '', '+275760-09-13T00:00:00Z']) {
        const bad = await reschedule(created['manage_token'], start).expect(400);
        expect(fieldsOf(bad.body)).toEqual(['start_time']);
      }
      await t.api.post(`/public/v1/bookings/${created['manage_token']}/reschedule`).send({}).expect(400);
      // Not into the past, even on a schedule without availability (where the API itself could).
      const movable = await book('2027-03-03T16:00:00.000Z');
      const past = await reschedule(movable['manage_token'], '2027-03-01T07:59:59.999Z').expect(409);
      expect([past.body.code, past.body.reason]).toEqual(['slot_unavailable', 'minimum_notice']);
      await reschedule(movable['manage_token'], '2027-03-01T08:00:00.000Z').expect(200);
      const [row] = await t.query('SELECT start_time FROM bookings WHERE id = $1', [created['id']]);
      expect(row).toEqual({ start_time: new Date('2027-03-03T10:00:00.000Z') });
    });

    it('a cancelled booking token never moves it, whoever cancelled it', async () => {
      const byAttendee = await book('2027-03-03T10:00:00.000Z');
      const byApi = await book('2027-03-03T11:00:00.000Z');
      await cancel(byAttendee['manage_token']).expect(200);
      await t.api.patch(`/api/v1/bookings/${byApi['id']}`).set(a.auth).send({ status: 'CANCELLED' }).expect(200);
      for (const created of [byAttendee, byApi]) {
        const refused = await reschedule(created['manage_token'], '2027-03-05T10:00:00.000Z').expect(409);
        expect(refused.body.code).toBe('invalid_transition');
        // Even to a time nobody holds, long before any notice.
        const [row] = await t.query('SELECT status, start_time FROM bookings WHERE id = $1', [created['id']]);
        expect(row).toEqual({ status: 'CANCELLED', start_time: new Date(created['start_time']) });
      }
    });

    it('is allowed at exactly the current start minus the notice, and refused one millisecond later', async () => {
      const eventTypeId = await createEventType(t, a, { reschedule_notice_minutes: 1440 });
      const first = await book('2027-03-05T10:00:00.000Z', { event_type_id: eventTypeId });
      const second = await book('2027-03-05T12:00:00.000Z', { event_type_id: eventTypeId });

      t.clock.set('2027-03-04T10:00:00.000Z');
      expect((await view(first['manage_token'])).body.data).toMatchObject({ can_reschedule: true, reschedulable_until: '2027-03-04T10:00:00.000Z' });
      await reschedule(first['manage_token'], '2027-03-09T10:00:00.000Z').expect(200);
      // The notice runs from the new start now.
      expect((await view(first['manage_token'])).body.data.reschedulable_until).toBe('2027-03-08T10:00:00.000Z');

      t.clock.set('2027-03-04T12:00:00.001Z');
      const refused = await reschedule(second['manage_token'], '2027-03-10T10:00:00.000Z').expect(409);
      expect(refused.body).toMatchObject({ code: 'notice_period_passed', status: 409 });
      expect((await view(second['manage_token'])).body.data).toMatchObject({ can_reschedule: false, reschedulable_until: '2027-03-04T12:00:00.000Z' });
      const [row] = await t.query('SELECT start_time FROM bookings WHERE id = $1', [second['id']]);
      expect(row).toEqual({ start_time: new Date('2027-03-05T12:00:00.000Z') });
      expect((await events(second['id'])).map((e) => e.type)).toEqual(['booking.created']);
    });

    it('counts the notice in real minutes across a change of clocks (Europe/Paris, spring forward)', async () => {
      const paris = await createSchedule(t, a, { timezone: 'Europe/Paris', availability: [{ days: ['sun', 'mon'], start: '09:00', end: '17:00' }] });
      const eventTypeId = await createEventType(t, a, { duration: 60, cancel_notice_minutes: 720, reschedule_notice_minutes: 720 });
      // Sunday 2027-03-28, 12:00 in Paris (CEST, UTC+2) = 10:00Z. The night before lost an hour.
      const created = await book('2027-03-28T12:00:00+02:00', { schedule_id: paris, event_type_id: eventTypeId }, 60);
      const token = created['manage_token'] as string;
      // 720 minutes before 10:00Z is 22:00Z on the 27th: 23:00 in Paris (CET), not midnight.
      t.clock.set('2027-03-27T22:00:00.000Z');
      expect((await view(token)).body.data).toMatchObject({
        cancellable_until: '2027-03-27T22:00:00.000Z',
        reschedulable_until: '2027-03-27T22:00:00.000Z',
        can_cancel: true,
        can_reschedule: true,
      });
      // Slots of the change day: 09:00–17:00 CEST is 07:00Z–15:00Z; the booking's own 10:00Z is offered.
      const slots = await t.api
        .get(`/public/v1/bookings/${token}/slots`)
        .query({ start: '2027-03-28', end: '2027-03-29', timezone: 'Europe/Paris' })
        .expect(200);
      expect(slots.headers['access-control-allow-origin']).toBe('*');
      expect(slots.body.data.map((s: { start_time: string }) => s.start_time)).toEqual(
        Array.from({ length: 8 }, (_, i) => `2027-03-28T${String(7 + i).padStart(2, '0')}:00:00.000Z`),
      );
      expect(slots.body.data[0]).toMatchObject({ local_date: '2027-03-28', local_time: '09:00' });
      expect(slots.body.meta).toMatchObject({ total: 8, timezone: 'Europe/Paris' });
      await reschedule(token, '2027-03-28T07:00:00.000Z').expect(200);

      t.clock.set('2027-03-27T22:00:00.001Z');
      // The booking now starts at 07:00Z: its deadlines moved with it, and have passed.
      expect((await view(token)).body.data).toMatchObject({ can_cancel: false, cancellable_until: '2027-03-27T19:00:00.000Z' });
      expect((await reschedule(token, '2027-03-28T09:00:00.000Z').expect(409)).body.code).toBe('notice_period_passed');
      expect((await cancel(token).expect(409)).body.code).toBe('notice_period_passed');
    });

    it('lets exactly one of ten attendees racing for one slot have it', async () => {
      const created = [];
      for (let i = 0; i < 10; i++) created.push(await book(at('2027-03-03T00:00:00.000Z', i * 60)));
      const results = await Promise.all(created.map((b) => reschedule(b['manage_token'], '2027-03-04T10:00:00.000Z')));
      expect(results.map((r) => r.status).sort()).toEqual([200, ...Array(9).fill(409)]);
      expect(results.filter((r) => r.status === 409).every((r) => r.body.code === 'booking_overlap')).toBe(true);
      const held = await t.query<{ id: string }>(
        `SELECT id FROM bookings WHERE organization_id = $1 AND start_time = '2027-03-04T10:00:00Z' AND status IN ('PENDING', 'CONFIRMED')`,
        [a.orgId],
      );
      const winner = results.findIndex((r) => r.status === 200);
      expect(held.map((r) => r.id)).toEqual([created[winner]!['id']]);
      // The others kept their time and announced nothing.
      const updates = await t.query<{ n: number }>(
        `SELECT count(*)::int AS n FROM outbox_events WHERE organization_id = $1 AND type = 'booking.updated'`,
        [a.orgId],
      );
      expect(updates[0]!.n).toBe(1);
    });

    it('lets a cancel and a reschedule of one booking race without moving a cancelled booking', async () => {
      for (let round = 0; round < 5; round++) {
        const created = await book(at('2027-03-03T00:00:00.000Z', round * 60));
        const [moved, cancelled] = await Promise.all([
          reschedule(created['manage_token'], at('2027-03-10T00:00:00.000Z', round * 60)),
          t.api.delete(`/api/v1/bookings/${created['id']}`).set(a.auth),
        ]);
        expect(cancelled.status).toBe(200);
        const [row] = await t.query<{ status: string; start_time: Date }>('SELECT status, start_time FROM bookings WHERE id = $1', [created['id']]);
        expect(row!.status).toBe('CANCELLED');
        // Either the move came first (200, then cancelled at its new time) or it was refused and the time kept.
        if (moved.status === 200) expect(row!.start_time.toISOString()).toBe(at('2027-03-10T00:00:00.000Z', round * 60));
        else {
          expect(moved.body.code).toBe('invalid_transition');
          expect(row!.start_time.toISOString()).toBe(created['start_time']);
        }
      }
    });
  });

  describe('slots of a booking', () => {
    it("are the event type's slots where the booking's own time does not block itself", async () => {
      const schedule = await createSchedule(t, a, { availability: [{ days: ['wed'], start: '09:00', end: '13:00' }] });
      const eventTypeId = await createEventType(t, a, { duration: 60, max_bookings_per_day: 2 });
      const mk = (start: string) => book(start, { schedule_id: schedule, event_type_id: eventTypeId }, 60);
      const mine = await mk('2027-03-03T10:00:00.000Z');
      const range = { start: '2027-03-03', end: '2027-03-04' };
      const starts = (res: { body: { data: Array<{ start_time: string }> } }) => res.body.data.map((s) => s.start_time.slice(11, 16));

      const own = await t.api.get(`/public/v1/bookings/${mine['manage_token']}/slots`).query(range).expect(200);
      expect(starts(own)).toEqual(['09:00', '10:00', '11:00', '12:00']);
      const api = await t.api.get('/api/v1/slots').set(a.auth).query({ ...range, event_type_id: eventTypeId, schedule_id: schedule }).expect(200);
      expect(starts(api)).toEqual(['09:00', '11:00', '12:00']);

      // Another booking blocks its time for this attendee; the daily limit counts the others only.
      await mk('2027-03-03T12:00:00.000Z');
      const after = await t.api.get(`/public/v1/bookings/${mine['manage_token']}/slots`).query(range).expect(200);
      expect(starts(after)).toEqual(['09:00', '10:00', '11:00']);
      const full = await t.api.get('/api/v1/slots').set(a.auth).query({ ...range, event_type_id: eventTypeId, schedule_id: schedule }).expect(200);
      expect(starts(full)).toEqual([]);

      // The range rules are the API's.
      const tooLong = await t.api.get(`/public/v1/bookings/${mine['manage_token']}/slots`).query({ start: '2027-03-03', end: '2027-06-03' }).expect(400);
      expect(fieldsOf(tooLong.body)).toEqual(['end']);
      await t.api.get(`/public/v1/bookings/${mine['manage_token']}/slots`).query({ timezone: 'Mars/Olympus' }).expect(400);
    });
  });
});
