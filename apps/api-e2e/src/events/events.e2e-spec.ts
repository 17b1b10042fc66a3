import { createTestApp, Tenant, TestApp } from '../support/test-app';

const MISSING_ID = '0193a3c2-7d1e-7c4e-9a57-2f5b8e1c0d9a';

describe('events (e2e)', () => {
  let t: TestApp;
  let a: Tenant;

  beforeAll(async () => {
    t = await createTestApp();
    a = await t.tenant();
  });
  afterAll(async () => {
    await t.close();
  });

  const create = (body: Record<string, unknown>, tenant: Tenant = a) => t.api.post('/api/v1/events').set(tenant.auth).send(body);

  function expectProblem(body: Record<string, unknown>, status: number, code: string, fields?: string[]) {
    expect(body).toMatchObject({ status, code, type: expect.stringContaining(code), request_id: expect.any(String) });
    if (fields) {
      const named = ((body['errors'] as { field: string }[] | undefined) ?? []).map((e) => e.field);
      for (const field of fields) expect(named).toContain(field);
    }
  }

  describe('create', () => {
    it('creates with the defaults and answers 201 with Location and the full record', async () => {
      t.clock.set('2026-11-21T10:00:00.000Z');
      const res = await create({ title: 'Meetup', start_date: '2026-12-01' }).expect(201);
      const id = res.body.data.id as string;
      expect(res.headers['location']).toBe(`/api/v1/events/${id}`);
      expect(res.body.data).toEqual({
        id: expect.stringMatching(/^[0-9a-f-]{36}$/),
        title: 'Meetup',
        description: null,
        start_date: '2026-12-01',
        start_time: null,
        end_time: null,
        timezone: 'UTC',
        location: null,
        cost: 0,
        slots: null,
        status: 'draft',
        site_id: null,
        schedule_id: null,
        waitlist_enabled: false,
        created_at: '2026-11-21T10:00:00.000Z',
        updated_at: '2026-11-21T10:00:00.000Z',
        registration_count: 0,
        slots_remaining: null,
        waitlist_count: 0,
      });
      const [row] = await t.query<Record<string, unknown>>(
        `SELECT organization_id, status, timezone, cost::text AS cost, slots, starts_at, ends_at FROM events WHERE id = $1`,
        [id],
      );
      expect(row).toEqual({
        organization_id: a.orgId,
        status: 'draft',
        timezone: 'UTC',
        cost: '0.00',
        slots: null,
        starts_at: new Date('2026-12-01T00:00:00.000Z'),
        ends_at: new Date('2026-12-02T00:00:00.000Z'),
      });
    });

    it('stores and returns every field exactly, money without drift', async () => {
      const body = {
        title: 'Workshop <b>"quoted"</b> — ünïcödé 🎉',
        description: "Robert'); DROP TABLE events;--",
        start_date: '2026-12-05',
        start_time: '18:30',
        end_time: '21:00',
        timezone: 'Europe/Paris',
        location: 'Town hall, Room 2',
        cost: 19.99,
        slots: 25,
        status: 'published',
        site_id: 'site-a',
      };
      const res = await create(body).expect(201);
      expect(res.body.data).toMatchObject({ ...body, registration_count: 0, slots_remaining: 25 });
      expect(JSON.stringify(res.body.data.cost)).toBe('19.99');
      const [row] = await t.query<{ cost: string; starts_at: Date; ends_at: Date }>(
        'SELECT cost::text AS cost, starts_at, ends_at FROM events WHERE id = $1',
        [res.body.data.id],
      );
      expect(row).toEqual({
        cost: '19.99',
        starts_at: new Date('2026-12-05T17:30:00.000Z'),
        ends_at: new Date('2026-12-05T20:00:00.000Z'),
      });
      const got = await t.api.get(`/api/v1/events/${res.body.data.id}`).set(a.auth).expect(200);
      expect(got.body.data).toEqual(res.body.data);
      expect(JSON.stringify(got.body.data.cost)).toBe('19.99');
    });

    it.each([0.1, 0.3, 1.1, 99.95, 1234567.89, 9999999999.99])('keeps cost %p exact', async (cost) => {
      const res = await create({ title: 'Money', start_date: '2026-12-01', cost }).expect(201);
      expect(res.body.data.cost).toBe(cost);
      const got = await t.api.get(`/api/v1/events/${res.body.data.id}`).set(a.auth).expect(200);
      expect(JSON.stringify(got.body.data.cost)).toBe(String(cost));
    });

    it.each([
      ['impossible date', { start_date: '2026-02-30' }, 'start_date'],
      ['date in the wrong format', { start_date: '01/12/2026' }, 'start_date'],
      ['year out of range', { start_date: '0999-12-31' }, 'start_date'],
      ['hour 25', { start_time: '25:00' }, 'start_time'],
      ['24:00', { start_time: '24:00' }, 'start_time'],
      ['time without leading zero', { start_time: '9:00' }, 'start_time'],
      ['end_time 25:00', { start_time: '10:00', end_time: '25:00' }, 'end_time'],
      ['unknown zone', { timezone: 'Mars/Olympus' }, 'timezone'],
      ['null zone', { timezone: null }, 'timezone'],
      ['negative cost', { cost: -1 }, 'cost'],
      ['sub-cent cost', { cost: 0.001 }, 'cost'],
      ['cost as a string', { cost: '10' }, 'cost'],
      ['huge cost', { cost: 1e300 }, 'cost'],
      ['null cost', { cost: null }, 'cost'],
      ['slots 0', { slots: 0 }, 'slots'],
      ['negative slots', { slots: -3 }, 'slots'],
      ['fractional slots', { slots: 2.5 }, 'slots'],
      ['slots as a string', { slots: '10' }, 'slots'],
      ['end before start', { start_time: '10:00', end_time: '09:00' }, 'end_time'],
      ['end equal to start', { start_time: '10:00', end_time: '10:00' }, 'end_time'],
      ['end without start', { end_time: '10:00' }, 'end_time'],
      ['unknown status', { status: 'archived' }, 'status'],
      ['title too long', { title: 'x'.repeat(301) }, 'title'],
      ['blank title', { title: '   ' }, 'title'],
      ['title not a string', { title: 42 }, 'title'],
      ['description too long', { description: 'x'.repeat(5001) }, 'description'],
      ['location too long', { location: 'x'.repeat(501) }, 'location'],
      ['empty site_id', { site_id: '' }, 'site_id'],
      ['unknown field', { capacity: 3 }, 'capacity'],
      ['read-only field', { registration_count: 3 }, 'registration_count'],
      ['NUL byte', { title: 'a\u0000b' }, 'title'],
    ])('refuses %s with 400 naming the field', async (_name, override, field) => {
      const res = await create({ title: 'Bad', start_date: '2026-12-01', ...override }).expect(400);
      expectProblem(res.body, 400, 'validation_failed', [field]);
    });

    it('requires title and start_date, naming both', async () => {
      const res = await create({}).expect(400);
      expectProblem(res.body, 400, 'validation_failed', ['title', 'start_date']);
    });

    it('accepts the limits exactly', async () => {
      const res = await create({
        title: 'x'.repeat(300),
        description: 'd'.repeat(5000),
        location: 'l'.repeat(500),
        start_date: '2026-12-01',
        start_time: '00:00',
        end_time: '23:59',
        slots: 1,
        cost: 0.01,
      }).expect(201);
      expect(res.body.data).toMatchObject({ start_time: '00:00', end_time: '23:59', slots: 1, cost: 0.01 });
    });
  });

  describe('update', () => {
    it('updates every field, clears nullable ones, recomputes the window and bumps updated_at', async () => {
      t.clock.set('2026-11-21T10:00:00.000Z');
      const created = await create({ title: 'Old', start_date: '2026-12-01', start_time: '10:00', end_time: '11:00', location: 'Here', slots: 5 }).expect(201);
      const id = created.body.data.id as string;
      t.clock.set('2026-11-21T11:00:00.000Z');
      const res = await t.api
        .patch(`/api/v1/events/${id}`)
        .set(a.auth)
        .send({
          title: 'New',
          description: 'Now with a description',
          start_date: '2026-12-02',
          start_time: '09:00',
          end_time: '12:30',
          timezone: 'Asia/Tokyo',
          location: null,
          cost: 5.5,
          slots: null,
          status: 'published',
          site_id: 'site-b',
        })
        .expect(200);
      expect(res.body.data).toEqual({
        ...created.body.data,
        title: 'New',
        description: 'Now with a description',
        start_date: '2026-12-02',
        start_time: '09:00',
        end_time: '12:30',
        timezone: 'Asia/Tokyo',
        location: null,
        cost: 5.5,
        slots: null,
        slots_remaining: null,
        status: 'published',
        site_id: 'site-b',
        updated_at: '2026-11-21T11:00:00.000Z',
      });
      const [row] = await t.query<{ starts_at: Date; ends_at: Date; cost: string }>(
        'SELECT starts_at, ends_at, cost::text AS cost FROM events WHERE id = $1',
        [id],
      );
      expect(row).toEqual({ starts_at: new Date('2026-12-02T00:00:00.000Z'), ends_at: new Date('2026-12-02T03:30:00.000Z'), cost: '5.50' });
    });

    it('checks end_time against the stored start_time', async () => {
      const created = await create({ title: 'T', start_date: '2026-12-01', start_time: '10:00', end_time: '11:00' }).expect(201);
      const id = created.body.data.id as string;
      const before = await t.api.patch(`/api/v1/events/${id}`).set(a.auth).send({ end_time: '09:00' }).expect(400);
      expectProblem(before.body, 400, 'validation_failed', ['end_time']);
      const cleared = await t.api.patch(`/api/v1/events/${id}`).set(a.auth).send({ start_time: null }).expect(400);
      expectProblem(cleared.body, 400, 'validation_failed', ['end_time']);
      const [row] = await t.query<{ start_time: string; end_time: string }>('SELECT start_time::text, end_time::text FROM events WHERE id = $1', [id]);
      expect(row).toEqual({ start_time: '10:00:00', end_time: '11:00:00' });
    });

    it.each([
      ['empty body', {}, 'body'],
      ['null title', { title: null }, 'title'],
      ['null start_date', { start_date: null }, 'start_date'],
      ['null status', { status: null }, 'status'],
      ['bad date', { start_date: '2026-02-30' }, 'start_date'],
      ['sub-cent cost', { cost: 0.001 }, 'cost'],
      ['slots 0', { slots: 0 }, 'slots'],
      ['unknown status', { status: 'done' }, 'status'],
      ['read-only id', { id: MISSING_ID }, 'id'],
    ])('refuses %s with 400', async (_name, body, field) => {
      const created = await create({ title: 'T', start_date: '2026-12-01' }).expect(201);
      const res = await t.api.patch(`/api/v1/events/${created.body.data.id}`).set(a.auth).send(body).expect(400);
      expectProblem(res.body, 400, 'validation_failed', [field]);
    });

    it('refuses a PATCH without a body', async () => {
      const created = await create({ title: 'T', start_date: '2026-12-01' }).expect(201);
      const res = await t.api.patch(`/api/v1/events/${created.body.data.id}`).set(a.auth).expect(400);
      expectProblem(res.body, 400, 'validation_failed', ['body']);
    });

    const STATUS_MOVES: [string, string, number][] = [
      ['draft', 'draft', 200],
      ['draft', 'published', 200],
      ['draft', 'cancelled', 200],
      ['published', 'draft', 200],
      ['published', 'published', 200],
      ['published', 'cancelled', 200],
      ['cancelled', 'draft', 409],
      ['cancelled', 'published', 409],
      ['cancelled', 'cancelled', 200],
    ];
    it.each(STATUS_MOVES)('moves %s → %s with %d', async (from, to, status) => {
      t.clock.set('2026-11-21T10:00:00.000Z');
      const created = await create({ title: 'T', start_date: '2026-12-01', status: from }).expect(201);
      t.clock.set('2026-11-21T12:00:00.000Z');
      const res = await t.api.patch(`/api/v1/events/${created.body.data.id}`).set(a.auth).send({ status: to }).expect(status);
      const [row] = await t.query<{ status: string; updated_at: Date }>('SELECT status, updated_at FROM events WHERE id = $1', [created.body.data.id]);
      if (status === 409) {
        expectProblem(res.body, 409, 'invalid_transition');
        expect(row!.status).toBe(from);
      } else {
        expect(res.body.data.status).toBe(to);
        expect(row!.status).toBe(to);
        // The same status again is a no-op: nothing is written.
        expect(row!.updated_at.toISOString()).toBe(from === to ? '2026-11-21T10:00:00.000Z' : '2026-11-21T12:00:00.000Z');
      }
    });

    it('answers 404 for an unknown or malformed id', async () => {
      expectProblem((await t.api.patch(`/api/v1/events/${MISSING_ID}`).set(a.auth).send({ title: 'x' }).expect(404)).body, 404, 'not_found');
      expectProblem((await t.api.patch('/api/v1/events/not-a-uuid').set(a.auth).send({ title: 'x' }).expect(404)).body, 404, 'not_found');
    });
  });

  describe('delete', () => {
    it('deletes the event with its registrations and answers {id, deleted: true}', async () => {
      const created = await create({ title: 'Gone', start_date: '2026-12-01', status: 'published', slots: 3 }).expect(201);
      const id = created.body.data.id as string;
      await t.api.post(`/api/v1/events/${id}/registrations`).set(a.auth).send({ name: 'A', email: 'a@example.com' }).expect(201);
      const res = await t.api.delete(`/api/v1/events/${id}`).set(a.auth).expect(200);
      expect(res.body).toEqual({ data: { id, deleted: true } });
      expect(await t.query('SELECT 1 FROM events WHERE id = $1', [id])).toHaveLength(0);
      expect(await t.query('SELECT 1 FROM event_registrations WHERE event_id = $1', [id])).toHaveLength(0);
      expectProblem((await t.api.get(`/api/v1/events/${id}`).set(a.auth).expect(404)).body, 404, 'not_found');
      expectProblem((await t.api.delete(`/api/v1/events/${id}`).set(a.auth).expect(404)).body, 404, 'not_found');
    });
  });

  describe('tenancy and scopes', () => {
    it("answers 404 to another organization's key, and changes nothing", async () => {
      const b = await t.tenant();
      const created = await create({ title: 'Private', start_date: '2026-12-01', status: 'published' }).expect(201);
      const id = created.body.data.id as string;
      expectProblem((await t.api.get(`/api/v1/events/${id}`).set(b.auth).expect(404)).body, 404, 'not_found');
      expectProblem((await t.api.patch(`/api/v1/events/${id}`).set(b.auth).send({ title: 'Mine' }).expect(404)).body, 404, 'not_found');
      expectProblem((await t.api.delete(`/api/v1/events/${id}`).set(b.auth).expect(404)).body, 404, 'not_found');
      const list = await t.api.get('/api/v1/events').set(b.auth).expect(200);
      expect(list.body).toEqual({ data: [], meta: { total: 0, limit: 50, offset: 0, hasMore: false } });
      const [row] = await t.query<{ title: string }>('SELECT title FROM events WHERE id = $1', [id]);
      expect(row!.title).toBe('Private');
    });

    it('needs events:read to read and events:write to write', async () => {
      const reader = await t.tenant({ scopes: ['events:read'] });
      const writer = await t.tenant({ scopes: ['events:write'] });
      const other = await t.tenant({ scopes: ['posts:read', 'bookings:write'] });
      expectProblem((await create({ title: 'T', start_date: '2026-12-01' }, reader).expect(403)).body, 403, 'forbidden');
      const created = await create({ title: 'T', start_date: '2026-12-01' }, writer).expect(201);
      expectProblem((await t.api.get('/api/v1/events').set(writer.auth).expect(403)).body, 403, 'forbidden');
      expectProblem((await t.api.get(`/api/v1/events/${created.body.data.id}`).set(writer.auth).expect(403)).body, 403, 'forbidden');
      await t.api.get('/api/v1/events').set(reader.auth).expect(200);
      expectProblem((await t.api.get('/api/v1/events').set(other.auth).expect(403)).body, 403, 'forbidden');
      const anon = await t.api.get('/api/v1/events').expect(401);
      expectProblem(anon.body, 401, 'unauthorized');
    });
  });
});

describe('events list (e2e)', () => {
  let t: TestApp;
  let a: Tenant;
  const ids: Record<string, string> = {};

  // Created out of order on purpose; the list order is start_date, start_time (none first), id.
  const FIXTURES: [string, Record<string, unknown>][] = [
    ['dec3-evening', { start_date: '2026-12-03', start_time: '18:00', status: 'published', site_id: 'north' }],
    ['dec1-morning', { start_date: '2026-12-01', start_time: '09:00', status: 'draft', site_id: 'north' }],
    ['dec1-allday', { start_date: '2026-12-01', status: 'published' }],
    ['dec2-noon', { start_date: '2026-12-02', start_time: '12:00', status: 'cancelled', site_id: 'south' }],
    ['dec1-early', { start_date: '2026-12-01', start_time: '07:30', status: 'published', site_id: 'south' }],
    ['nov30', { start_date: '2026-11-30', status: 'draft' }],
    ['dec4', { start_date: '2026-12-04', start_time: '10:00', status: 'published', site_id: 'north' }],
  ];
  const ORDER = ['nov30', 'dec1-allday', 'dec1-early', 'dec1-morning', 'dec2-noon', 'dec3-evening', 'dec4'];

  beforeAll(async () => {
    t = await createTestApp();
    a = await t.tenant();
    t.clock.set('2026-11-01T00:00:00.000Z');
    for (const [name, fields] of FIXTURES) {
      const res = await t.api.post('/api/v1/events').set(a.auth).send({ title: name, ...fields }).expect(201);
      ids[name] = res.body.data.id;
    }
    // A second event on the same day without a time: ties break on id.
    const tie = await t.api.post('/api/v1/events').set(a.auth).send({ title: 'dec1-allday-2', start_date: '2026-12-01' }).expect(201);
    ids['dec1-allday-2'] = tie.body.data.id;
    const other = await t.tenant();
    await t.api.post('/api/v1/events').set(other.auth).send({ title: 'not mine', start_date: '2026-12-01' }).expect(201);
  });
  afterAll(async () => {
    await t.close();
  });

  const titles = (body: { data: { title: string }[] }) => body.data.map((e) => e.title);
  const list = (query = '') => t.api.get(`/api/v1/events${query}`).set(a.auth);

  it('lists in order with meta and without counts by default', async () => {
    const res = await list().expect(200);
    const allDay = [ids['dec1-allday']!, ids['dec1-allday-2']!].sort();
    const expected = [...ORDER];
    expected.splice(1, 1, ...allDay.map((id) => (id === ids['dec1-allday'] ? 'dec1-allday' : 'dec1-allday-2')));
    expect(titles(res.body)).toEqual(expected);
    expect(res.body.meta).toEqual({ total: 8, limit: 50, offset: 0, hasMore: false });
    for (const event of res.body.data) {
      expect(event).not.toHaveProperty('registration_count');
      expect(event).not.toHaveProperty('slots_remaining');
      expect(event).not.toHaveProperty('waitlist_count');
      expect(Object.keys(event).sort()).toEqual(
        ['cost', 'created_at', 'description', 'end_time', 'id', 'location', 'schedule_id', 'site_id', 'slots', 'start_date', 'start_time', 'status', 'timezone', 'title', 'updated_at', 'waitlist_enabled'],
      );
    }
  });

  it('pages with limit and offset, clamps limit to 100 and reports hasMore', async () => {
    const first = await list('?limit=3').expect(200);
    expect(first.body.meta).toEqual({ total: 8, limit: 3, offset: 0, hasMore: true });
    const second = await list('?limit=3&offset=3').expect(200);
    expect(second.body.meta).toEqual({ total: 8, limit: 3, offset: 3, hasMore: true });
    const last = await list('?limit=3&offset=6').expect(200);
    expect(last.body.meta).toEqual({ total: 8, limit: 3, offset: 6, hasMore: false });
    const all = await list().expect(200);
    expect([...titles(first.body), ...titles(second.body), ...titles(last.body)]).toEqual(titles(all.body));
    const beyond = await list('?offset=20').expect(200);
    expect(beyond.body).toEqual({ data: [], meta: { total: 8, limit: 50, offset: 20, hasMore: false } });
    const clamped = await list('?limit=1000').expect(200);
    expect(clamped.body.meta.limit).toBe(100);
  });

  it.each([
    ['?status=published', ['dec1-allday', 'dec1-early', 'dec3-evening', 'dec4']],
    ['?status=draft', ['nov30', 'dec1-allday-2', 'dec1-morning']],
    ['?status=cancelled', ['dec2-noon']],
    ['?site_id=north', ['dec1-morning', 'dec3-evening', 'dec4']],
    ['?site_id=north&status=published', ['dec3-evening', 'dec4']],
    ['?site_id=nowhere', []],
    ['?status=draft&utm_source=newsletter', ['nov30', 'dec1-allday-2', 'dec1-morning']],
    ['?start_date=2026-12-02', ['dec2-noon', 'dec3-evening', 'dec4']],
    ['?end_date=2026-12-01', ['nov30', 'dec1-allday', 'dec1-allday-2', 'dec1-early', 'dec1-morning']],
    ['?start_date=2026-12-02&end_date=2026-12-03', ['dec2-noon', 'dec3-evening']],
    ['?start_date=2026-12-03T23:00:00Z&end_date=2026-12-04T01:00:00%2B09:00', ['dec3-evening', 'dec4']],
    ['?start_date=2026-12-05', []],
  ])('filters %s', async (query, expected) => {
    const res = await list(query).expect(200);
    expect([...titles(res.body)].sort()).toEqual([...expected].sort());
    expect(res.body.meta.total).toBe(expected.length);
  });

  it.each([
    ['?status=archived', 'status'],
    ['?status=PUBLISHED', 'status'],
    ['?upcoming=yes', 'upcoming'],
    ['?past=2', 'past'],
    ['?upcoming=true&past=true', 'past'],
    ['?start_date=2026-02-30', 'start_date'],
    ['?end_date=tomorrow', 'end_date'],
    ['?include_counts=maybe', 'include_counts'],
    ['?limit=0', 'limit'],
    ['?limit=abc', 'limit'],
    ['?offset=-1', 'offset'],
    ['?status=draft&status=published', 'status'],
  ])('refuses %s with 400 naming the parameter', async (query, field) => {
    const res = await list(query).expect(400);
    expect(res.body.code).toBe('validation_failed');
    expect(res.body.errors.map((e: { field: string }) => e.field)).toContain(field);
  });

  it('ignores unknown query parameters and accepts upcoming/past false as no filter', async () => {
    const res = await list('?color=blue&upcoming=false&past=0').expect(200);
    expect(res.body.meta.total).toBe(8);
  });
});
