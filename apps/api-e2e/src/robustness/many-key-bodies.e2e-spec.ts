import { createTestApp, Tenant, TestApp } from '../support/test-app';

const ORIGIN = 'http://localhost:3000';
const PASSWORD = 'correct horse battery';

/** An object with `count` members named k0, k1, … (on top of `base`). */
function manyMembers(count: number, base: Record<string, unknown> = {}): Record<string, unknown> {
  const object: Record<string, unknown> = { ...base };
  for (let i = 0, size = Object.keys(base).length; size < count; i++, size++) object[`k${i}`] = i;
  return object;
}

const TOO_MANY_MEMBERS = 'must not have more than 1000 members';
const TOO_MANY_VALUES = 'must not hold more than 100000 values in all';

/**
 * Bodies whose shape alone would cost more than linear work (objects with thousands of members,
 * hundreds of thousands of values) are refused by the body check, with one error at the object's path,
 * before the body is mapped onto a DTO or validated: the answer holds that one error and nothing a
 * validator would have said, and nothing is written.
 */
describe('bodies with too many members or values (e2e)', () => {
  let t: TestApp;
  let a: Tenant;
  let cookie: string;

  beforeAll(async () => {
    t = await createTestApp();
    a = await t.tenant();
    await t.identity.createUser({ organizationId: a.orgId, email: 'many@example.com', name: 'Many', password: PASSWORD, role: 'admin' });
    const login = await t.api.post('/api/auth/login').set('Origin', ORIGIN).send({ email: 'many@example.com', password: PASSWORD }).expect(200);
    cookie = String(login.headers['set-cookie']![0]).split(';')[0]!;
  });
  afterAll(() => t.close());

  const count = async (table: string) =>
    Number((await t.query<{ n: string }>(`SELECT count(*) AS n FROM ${table} WHERE organization_id = $1`, [a.orgId]))[0]!.n);

  it('refuses a login body of 1,001 members before anything reads it, and counts no failed login', async () => {
    const body = manyMembers(1_001, { email: 'many@example.com', password: 'wrong password!' });
    const res = await t.api.post('/api/auth/login').send(body).expect(400);
    expect(res.body).toMatchObject({ code: 'validation_failed' });
    expect(res.body.errors).toEqual([{ field: 'body', message: TOO_MANY_MEMBERS }]);
    const failures = await t.query<{ n: string }>(`SELECT count(*) AS n FROM login_failures`);
    expect(failures[0]!.n).toBe('0');
  });

  it('accepts 1,000 members as far as the body check goes (the validator then names the unknown ones)', async () => {
    const res = await t.api.post('/api/auth/login').send(manyMembers(1_000, { email: 'many@example.com', password: 'wrong password!' })).expect(400);
    expect(res.body.errors).toHaveLength(100);
    expect(res.body.errors[0]).toEqual({ field: 'k0', message: 'property k0 should not exist' });
  });

  it('names the nested object on API-key routes: attendee, metadata entries, content blocks', async () => {
    const schedule = await t.api.post('/api/v1/schedules').set(a.auth).send({ name: 'Room' }).expect(201);
    const booking = {
      schedule_id: schedule.body.data.id,
      title: 'Call',
      start_time: '2031-01-06T10:00:00Z',
      end_time: '2031-01-06T11:00:00Z',
      attendee: manyMembers(1_001, { name: 'Ada', email: 'ada@example.com' }),
    };
    const attendee = await t.api.post('/api/v1/bookings').set(a.auth).send(booking).expect(400);
    expect(attendee.body.errors).toEqual([{ field: 'attendee', message: TOO_MANY_MEMBERS }]);
    const metadata = await t.api
      .post('/api/v1/bookings')
      .set(a.auth)
      .send({ ...booking, attendee: { name: 'Ada', email: 'ada@example.com' }, metadata: { x: manyMembers(1_500) } })
      .expect(400);
    expect(metadata.body.errors).toEqual([{ field: 'metadata.x', message: TOO_MANY_MEMBERS }]);
    expect(await count('bookings')).toBe(0);

    const content = [{ type: 'paragraph', text: 'a' }, { type: 'paragraph', text: 'b' }, manyMembers(2_000, { type: 'paragraph', text: 'c' })];
    const post = await t.api.post('/api/v1/posts').set(a.auth).send({ title: 'Many', slug: 'many', content }).expect(400);
    expect(post.body.errors).toEqual([{ field: 'content[2]', message: TOO_MANY_MEMBERS }]);
    expect(await count('posts')).toBe(0);
  });

  it('answers an attendee sent as 40,000 objects, or content of 20,000 blocks, with at most 100 errors', async () => {
    const schedule = await t.api.post('/api/v1/schedules').set(a.auth).send({ name: 'Arrays' }).expect(201);
    const attendee = Array.from({ length: 40_000 }, () => ({ a: 1 }));
    const booking = { schedule_id: schedule.body.data.id, title: 'Call', start_time: '2031-01-06T10:00:00Z', end_time: '2031-01-06T11:00:00Z', attendee };
    const res = await t.api.post('/api/v1/bookings').set(a.auth).send(booking).expect(400);
    expect(res.body.code).toBe('validation_failed');
    expect(res.body.errors).toContainEqual({ field: 'attendee', message: 'must be an object' });
    expect(res.body.errors.length).toBeLessThanOrEqual(100);
    const content = Array.from({ length: 20_000 }, () => ({ type: 'heading', level: 9, text: '' }));
    const post = await t.api.post('/api/v1/posts').set(a.auth).send({ title: 'Blocks', slug: 'blocks', content }).expect(400);
    expect(post.body.errors[0]).toEqual({ field: 'content', message: 'must contain at most 500 blocks' });
    expect(post.body.errors).toHaveLength(100);
    expect(await count('bookings')).toBe(0);
    expect(await count('posts')).toBe(0);
  });

  it('answers availability with thousands of problems with at most 20 of them, in one message', async () => {
    const date_overrides = Array.from({ length: 300 }, (_, i) => ({ date: '2031-01-01', intervals: [], ...manyMembers(290, { [`x${i}`]: 0 }) }));
    const res = await t.api.post('/api/v1/schedules').set(a.auth).send({ name: 'Overrides', date_overrides }).expect(400);
    expect(res.body.errors).toHaveLength(1);
    expect(res.body.errors[0].field).toBe('date_overrides');
    expect(res.body.errors[0].message.split('; ')).toHaveLength(20);
    expect(res.body.errors[0].message).toMatch(/^date_overrides\[0\]\.x0: is not a known field; date_overrides\[0\]\.k0: is not a known field/);
  });

  it('refuses a body of more than 100,000 values in all at `body`, and lets 100,000 through to validation', async () => {
    // root + name + the array + its items: 3 + 99,998 = 100,001 values.
    const over = await t.api.post('/api/v1/schedules').set(a.auth).send({ name: 'Many', availability: new Array(99_998).fill(1) }).expect(400);
    expect(over.body.errors).toEqual([{ field: 'body', message: TOO_MANY_VALUES }]);
    // Objects and arrays count as values too: 33,333 times {a: [1]} are 99,999 values, 100,002 with the rest.
    const objects = await t.api.post('/api/v1/schedules').set(a.auth).send({ name: 'Many', availability: Array.from({ length: 33_333 }, () => ({ a: [1] })) }).expect(400);
    expect(objects.body.errors).toEqual([{ field: 'body', message: TOO_MANY_VALUES }]);
    const exact = await t.api.post('/api/v1/schedules').set(a.auth).send({ name: 'Many', availability: new Array(99_997).fill(1) }).expect(400);
    expect(exact.body.errors).not.toContainEqual(expect.objectContaining({ message: TOO_MANY_VALUES }));
    expect(exact.body.errors[0].field).toMatch(/^availability/);
    expect(await count('schedules')).toBe(2);
  });

  it('refuses the same on session routes (the calendar integration, API keys)', async () => {
    const put = await t.api
      .put(`/api/organizations/${a.orgId}/calendar-integration`)
      .set('Cookie', cookie)
      .set('Origin', ORIGIN)
      .send(manyMembers(1_001, { provider: 'ics', url: 'https://calendar.example.com/feed.ics' }))
      .expect(400);
    expect(put.body.errors).toEqual([{ field: 'body', message: TOO_MANY_MEMBERS }]);
    const key = await t.api
      .post(`/api/organizations/${a.orgId}/api-keys`)
      .set('Cookie', cookie)
      .set('Origin', ORIGIN)
      .send({ name: 'Many', scopes: new Array(100_000).fill('x') })
      .expect(400);
    expect(key.body.errors).toEqual([{ field: 'body', message: TOO_MANY_VALUES }]);
    expect(await count('api_keys')).toBe(1);
  });
});
