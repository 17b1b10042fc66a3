import { createTestApp, Tenant, TestApp } from '../support/test-app';
import { BOOKING_FIELDS, createEventType, createSchedule, fieldsOf, SCHEDULING_TEST_CONFIG, UNKNOWN_ID } from './scheduling-helpers';

/**
 * One fixed data set, each filter of `GET /api/v1/bookings` proven to include what it should and to exclude
 * what it should not. Names b1…b7 are bookings; results are compared as ordered lists of names.
 */
describe('booking list filters (e2e)', () => {
  let t: TestApp;
  let a: Tenant;
  let s1: string;
  let s2: string;
  let e1: string;
  let e2: string;
  const ids: Record<string, string> = {};

  async function names(query: string): Promise<string[]> {
    const res = await t.api.get(`/api/v1/bookings${query}`).set(a.auth).expect(200);
    const byId = Object.fromEntries(Object.entries(ids).map(([name, id]) => [id, name]));
    return res.body.data.map((b: { id: string }) => byId[b.id] ?? `foreign:${b.id}`);
  }

  beforeAll(async () => {
    t = await createTestApp({ config: SCHEDULING_TEST_CONFIG });
    t.clock.set('2027-02-01T00:00:00.000Z');
    a = await t.tenant();
    s1 = await createSchedule(t, a, { name: 'S1' });
    s2 = await createSchedule(t, a, { name: 'S2' });
    e1 = await createEventType(t, a, { title: 'E1' });
    e2 = await createEventType(t, a, { title: 'E2' });
    const plan: [string, string, string | null, string, number, string, string[]][] = [
      // name, schedule, event type, start, minutes, e-mail, status moves
      ['b1', s1, e1, '2027-03-01T09:00:00Z', 60, 'alice@Example.com', []],
      ['b2', s1, null, '2027-03-05T23:30:00Z', 30, 'bob@test.org', ['CONFIRMED']],
      ['b3', s2, e2, '2027-03-06T00:00:00Z', 30, 'carol@example.COM', ['CANCELLED']],
      ['b7', s1, null, '2027-03-06T00:00:00Z', 30, 'frank@y.io', []],
      ['b4', s2, e1, '2027-03-10T11:59:59Z', 30, 'dave@x.io', ['CONFIRMED', 'COMPLETED']],
      ['b5', s1, e2, '2027-03-10T12:00:00Z', 30, 'eve_100%@x.io', ['CONFIRMED', 'NO_SHOW']],
      ['b6', s2, null, '2027-04-01T00:00:00Z', 30, 'ALICE@other.net', []],
    ];
    for (const [name, scheduleId, eventTypeId, start, minutes, email, moves] of plan) {
      const res = await t.api
        .post('/api/v1/bookings')
        .set(a.auth)
        .send({
          schedule_id: scheduleId,
          event_type_id: eventTypeId,
          start_time: start,
          end_time: new Date(Date.parse(start) + minutes * 60_000).toISOString(),
          attendee: { name, email },
        })
        .expect(201);
      ids[name] = res.body.data.id;
      for (const status of moves) {
        await t.api.patch(`/api/v1/bookings/${ids[name]}`).set(a.auth).send({ status }).expect(200);
      }
    }
    // Another organization's bookings at the same times never show up.
    const b = await t.tenant();
    const foreignSchedule = await createSchedule(t, b);
    await t.api
      .post('/api/v1/bookings')
      .set(b.auth)
      .send({ schedule_id: foreignSchedule, start_time: '2027-03-06T00:00:00Z', end_time: '2027-03-06T00:30:00Z', attendee: { name: 'x', email: 'alice@example.com' } })
      .expect(201);
    t.clock.set('2027-03-10T12:00:00.000Z');
  });
  afterAll(async () => t.close());

  it('lists everything by start_time, then id, with the full representation and meta', async () => {
    const res = await t.api.get('/api/v1/bookings').set(a.auth).expect(200);
    expect(res.body.meta).toEqual({ total: 7, limit: 50, offset: 0, hasMore: false });
    expect(Object.keys(res.body.data[0]).sort()).toEqual(BOOKING_FIELDS);
    expect(await names('')).toEqual(['b1', 'b2', 'b3', 'b7', 'b4', 'b5', 'b6']);
    expect(ids['b3']! < ids['b7']!).toBe(true);
  });

  it('pages with correct meta at the edges', async () => {
    const page = await t.api.get('/api/v1/bookings?limit=3&offset=3').set(a.auth).expect(200);
    expect(page.body.meta).toEqual({ total: 7, limit: 3, offset: 3, hasMore: true });
    expect(page.body.data.map((b: { id: string }) => b.id)).toEqual([ids['b7'], ids['b4'], ids['b5']]);
    const last = await t.api.get('/api/v1/bookings?limit=3&offset=6').set(a.auth).expect(200);
    expect(last.body.meta).toEqual({ total: 7, limit: 3, offset: 6, hasMore: false });
    expect(last.body.data).toHaveLength(1);
    const past = await t.api.get('/api/v1/bookings?offset=7').set(a.auth).expect(200);
    expect(past.body).toEqual({ data: [], meta: { total: 7, limit: 50, offset: 7, hasMore: false } });
    const farPast = await t.api.get('/api/v1/bookings?offset=1000&status=PENDING').set(a.auth).expect(200);
    expect(farPast.body.meta).toEqual({ total: 3, limit: 50, offset: 1000, hasMore: false });
    const clamped = await t.api.get('/api/v1/bookings?limit=500').set(a.auth).expect(200);
    expect(clamped.body.meta).toEqual({ total: 7, limit: 100, offset: 0, hasMore: false });
    const empty = await t.api.get(`/api/v1/bookings?schedule_id=${UNKNOWN_ID}`).set(a.auth).expect(200);
    expect(empty.body).toEqual({ data: [], meta: { total: 0, limit: 50, offset: 0, hasMore: false } });
  });

  it('filters by schedule_id', async () => {
    expect(await names(`?schedule_id=${s1}`)).toEqual(['b1', 'b2', 'b7', 'b5']);
    expect(await names(`?schedule_id=${s2}`)).toEqual(['b3', 'b4', 'b6']);
  });

  it('filters by event_type_id', async () => {
    expect(await names(`?event_type_id=${e1}`)).toEqual(['b1', 'b4']);
    expect(await names(`?event_type_id=${e2}`)).toEqual(['b3', 'b5']);
    expect(await names(`?event_type_id=${UNKNOWN_ID}`)).toEqual([]);
  });

  it.each([
    ['PENDING', ['b1', 'b7', 'b6']],
    ['CONFIRMED', ['b2']],
    ['CANCELLED', ['b3']],
    ['COMPLETED', ['b4']],
    ['NO_SHOW', ['b5']],
  ])('filters by status=%s', async (status, expected) => {
    expect(await names(`?status=${status}`)).toEqual(expected);
  });

  it('filters upcoming=true to bookings starting at or after now; false is no filter', async () => {
    expect(await names('?upcoming=true')).toEqual(['b5', 'b6']);
    expect(await names('?upcoming=1')).toEqual(['b5', 'b6']);
    expect(await names('?upcoming=false')).toEqual(['b1', 'b2', 'b3', 'b7', 'b4', 'b5', 'b6']);
    t.clock.set('2027-03-10T12:00:00.001Z');
    expect(await names('?upcoming=true')).toEqual(['b6']);
    t.clock.set('2027-03-10T12:00:00.000Z');
  });

  it('filters start_date (a date: from 00:00 UTC; a date-time: from that instant)', async () => {
    expect(await names('?start_date=2027-03-06')).toEqual(['b3', 'b7', 'b4', 'b5', 'b6']);
    expect(await names('?start_date=2027-03-05')).toEqual(['b2', 'b3', 'b7', 'b4', 'b5', 'b6']);
    expect(await names(`?start_date=${encodeURIComponent('2027-03-06T01:00:00+01:00')}`)).toEqual(['b3', 'b7', 'b4', 'b5', 'b6']);
    expect(await names(`?start_date=${encodeURIComponent('2027-03-10T11:59:59.001Z')}`)).toEqual(['b5', 'b6']);
  });

  it('filters end_date (a date: the whole UTC day included; a date-time: up to that instant)', async () => {
    expect(await names('?end_date=2027-03-05')).toEqual(['b1', 'b2']);
    expect(await names('?end_date=2027-03-06')).toEqual(['b1', 'b2', 'b3', 'b7']);
    expect(await names(`?end_date=${encodeURIComponent('2027-03-06T00:00:00Z')}`)).toEqual(['b1', 'b2', 'b3', 'b7']);
    expect(await names(`?end_date=${encodeURIComponent('2027-03-05T23:59:59.999Z')}`)).toEqual(['b1', 'b2']);
    expect(await names('?start_date=2027-03-06&end_date=2027-03-06')).toEqual(['b3', 'b7']);
    expect(await names('?start_date=2027-03-07&end_date=2027-03-06')).toEqual([]);
    expect(await names('?start_date=0001-01-01&end_date=9999-12-31')).toEqual(['b1', 'b2', 'b3', 'b7', 'b4', 'b5', 'b6']);
    expect(await names(`?end_date=${encodeURIComponent('9999-12-31T23:00:00-05:00')}`)).toHaveLength(7);
  });

  it('filters attendee_email as a case-insensitive substring, wildcards taken literally', async () => {
    expect(await names('?attendee_email=alice')).toEqual(['b1', 'b6']);
    expect(await names('?attendee_email=EXAMPLE.com')).toEqual(['b1', 'b3']);
    expect(await names(`?attendee_email=${encodeURIComponent('%')}`)).toEqual(['b5']);
    expect(await names('?attendee_email=_')).toEqual(['b5']);
    expect(await names(`?attendee_email=${encodeURIComponent("x' OR '1'='1")}`)).toEqual([]);
    expect(await names('?attendee_email=zzz')).toEqual([]);
  });

  it('combines filters with AND', async () => {
    expect(await names(`?schedule_id=${s1}&status=PENDING`)).toEqual(['b1', 'b7']);
    expect(await names(`?schedule_id=${s2}&event_type_id=${e1}&start_date=2027-03-01&end_date=2027-03-31`)).toEqual(['b4']);
    expect(await names(`?attendee_email=alice&upcoming=true`)).toEqual(['b6']);
    expect(await names(`?status=PENDING&limit=1&offset=1&unknown_param=ignored`)).toEqual(['b7']);
  });

  it.each([
    ['status=pending', 'status'],
    ['status=DONE', 'status'],
    ['status=PENDING&status=CONFIRMED', 'status'],
    ['schedule_id=not-a-uuid', 'schedule_id'],
    ['event_type_id=123', 'event_type_id'],
    ['upcoming=maybe', 'upcoming'],
    ['start_date=2027-02-30', 'start_date'],
    ['start_date=2027-03-06T00:00:00', 'start_date'],
    ['end_date=yesterday', 'end_date'],
    ['limit=0', 'limit'],
    ['offset=x', 'offset'],
  ])('refuses %s with 400 on %s', async (query, field) => {
    const res = await t.api.get(`/api/v1/bookings?${query}`).set(a.auth).expect(400);
    expect(res.body.code).toBe('validation_failed');
    expect(fieldsOf(res.body)).toContain(field);
  });

  it('has an index for each filter and the default order', async () => {
    const rows = await t.query<{ indexdef: string }>("SELECT indexdef FROM pg_indexes WHERE tablename = 'bookings'");
    const defs = rows.map((r) => r.indexdef).join('\n');
    expect(defs).toContain('(organization_id, start_time, id)');
    expect(defs).toContain('(organization_id, schedule_id, start_time, id)');
    expect(defs).toContain('(organization_id, event_type_id, start_time, id)');
    expect(defs).toContain('(organization_id, status, start_time, id)');
    expect(defs).toMatch(/gin \(lower\(attendee_email\) gin_trgm_ops\)/);
  });
});
