import { createTestApp, LogLines, Tenant, TestApp } from '../../support/test-app';
import { bookingBody, createEventType, createSchedule } from '../scheduling-helpers';

/**
 * The attendee's routes are on the public surface: no key, CORS for any origin on every answer and
 * preflight, counted against the one per-address budget of /public/v1 (429 with Retry-After), and the
 * token never written to the access log.
 */
describe('booking self-service on the public surface (e2e)', () => {
  const LIMIT = 6;
  const logs = new LogLines();
  let t: TestApp;
  let a: Tenant;
  let token: string;
  let other: string;

  beforeAll(async () => {
    t = await createTestApp({ config: { publicRateLimitPerMinute: LIMIT, webhookDispatcher: false, rateLimitPerMinute: 1_000_000 }, logs });
    t.clock.set('2027-03-01T08:00:00.250Z');
    a = await t.tenant();
    const scheduleId = await createSchedule(t, a);
    const eventTypeId = await createEventType(t, a);
    const book = async (start: string, end: string) =>
      (await t.api.post('/api/v1/bookings').set(a.auth).send(bookingBody(scheduleId, { event_type_id: eventTypeId, start_time: start, end_time: end })).expect(201)).body
        .data.manage_token as string;
    token = await book('2027-03-02T10:00:00Z', '2027-03-02T10:30:00Z');
    other = await book('2027-03-02T11:00:00Z', '2027-03-02T11:30:00Z');
  });
  afterAll(() => t.close());
  // Every test starts with a full budget: two minutes later, nothing counted before is in the window.
  beforeEach(() => t.clock.advance(120_000));

  it('answers a preflight of every attendee route with 204 for any origin, GET and POST with content-type', async () => {
    for (const path of [`/public/v1/bookings/${token}`, `/public/v1/bookings/${token}/cancel`, `/public/v1/bookings/${token}/slots`, `/public/v1/bookings/${token}/reschedule`]) {
      const res = await t.raw()
        .options(path)
        .set('Origin', 'https://attendee.example')
        .set('Access-Control-Request-Method', 'POST')
        .set('Access-Control-Request-Headers', 'content-type')
        .expect(204);
      expect(res.headers['access-control-allow-origin']).toBe('*');
      expect(res.headers['access-control-allow-methods']).toBe('GET, POST');
      expect(res.headers['access-control-allow-headers']).toBe('content-type');
      expect(res.headers['access-control-allow-credentials']).toBeUndefined();
    }
  });

  it(`lets ${LIMIT} requests to the attendee routes through in 60 seconds, then 429 with Retry-After and CORS`, async () => {
    await t.api.get(`/public/v1/bookings/${token}`).set('Origin', 'https://attendee.example').expect(200);
    await t.api.get(`/public/v1/bookings/${token}/slots`).query({ start: '2027-03-02', end: '2027-03-03' }).expect(200);
    await t.api.post(`/public/v1/bookings/${token}/reschedule`).send({ start_time: '2027-03-02T14:00:00Z' }).expect(200);
    await t.api.post(`/public/v1/bookings/${token}/reschedule`).send({ start_time: '2027-03-02T11:00:00Z' }).expect(409);
    await t.api.get(`/public/v1/bookings/bkt_${'0'.repeat(32)}`).expect(404);
    await t.api.post(`/public/v1/bookings/${token}/cancel`).send({ reason: 'x'.repeat(501) }).expect(400);

    for (const [method, path, body] of [
      ['get', `/public/v1/bookings/${token}`, undefined],
      ['get', `/public/v1/bookings/${token}/slots`, undefined],
      ['post', `/public/v1/bookings/${other}/cancel`, { reason: 'too many' }],
      ['post', `/public/v1/bookings/${other}/reschedule`, { start_time: '2027-03-02T16:00:00Z' }],
    ] as const) {
      const res = await t.api[method](path).send(body).expect(429);
      expect(res.body).toMatchObject({ code: 'rate_limited', status: 429 });
      expect(Number(res.headers['retry-after'])).toBeGreaterThan(0);
      expect(res.headers['access-control-allow-origin']).toBe('*');
    }
    // Refused, so nothing happened to the other booking.
    t.clock.advance(120_000);
    expect((await t.api.get(`/public/v1/bookings/${other}`).expect(200)).body.data).toMatchObject({ status: 'PENDING', start_time: '2027-03-02T11:00:00.000Z' });
  });

  it('never writes a manage token to the log', async () => {
    await t.api.get(`/public/v1/bookings/${token}`).expect(200);
    await t.raw().get(`/PUBLIC/v1/Bookings/${token}/slots`);
    const created = await t.api.post('/api/v1/bookings/' + (await bookingIdOf(token)) + '/manage-token').set(a.auth).expect(201);
    token = created.body.data.manage_token as string;
    const urls = logs.lines.map((l) => (l['req'] as { url?: string } | undefined)?.url).filter((u): u is string => u !== undefined);
    expect(urls.filter((url) => /\/public\/v1\/bookings\//i.test(url)).length).toBeGreaterThanOrEqual(3);
    expect(logs.text).not.toMatch(/bkt_[0-9A-Za-z]{32}/);
  });

  async function bookingIdOf(manageToken: string): Promise<string> {
    return (await t.api.get(`/public/v1/bookings/${manageToken}`).expect(200)).body.data.id as string;
  }
});
