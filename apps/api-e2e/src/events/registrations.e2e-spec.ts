import { RequestSql } from '../support/request-sql';
import { createTestApp, Tenant, TestApp } from '../support/test-app';

const MISSING_ID = '0193a3c2-7d1e-7c4e-9a57-2f5b8e1c0d9a';

describe('event registrations (e2e)', () => {
  let t: TestApp;
  let a: Tenant;

  beforeAll(async () => {
    t = await createTestApp();
    a = await t.tenant();
  });
  afterAll(async () => {
    await t.close();
  });

  async function event(fields: Record<string, unknown> = {}, tenant: Tenant = a): Promise<string> {
    const res = await t.api
      .post('/api/v1/events')
      .set(tenant.auth)
      .send({ title: 'Talk', start_date: '2026-12-01', status: 'published', ...fields })
      .expect(201);
    return res.body.data.id as string;
  }
  const register = (eventId: string, body: Record<string, unknown>, tenant: Tenant = a) =>
    t.api.post(`/api/v1/events/${eventId}/registrations`).set(tenant.auth).send(body);

  async function activeCount(eventId: string): Promise<{ rows: number; counter: number }> {
    const [row] = await t.query<{ rows: number; counter: number }>(
      `SELECT (SELECT count(*)::int FROM event_registrations WHERE event_id = $1 AND status = 'active') AS rows,
              (SELECT registration_count FROM events WHERE id = $1) AS counter`,
      [eventId],
    );
    return row!;
  }

  it('registers with 201, Location and the full record, and counts it on the event', async () => {
    t.clock.set('2026-11-21T10:00:00.000Z');
    const id = await event({ slots: 3 });
    const res = await register(id, { name: 'Ada Lovelace', email: 'Ada@Example.com' }).expect(201);
    expect(res.body.data).toEqual({
      id: expect.stringMatching(/^[0-9a-f-]{36}$/),
      event_id: id,
      name: 'Ada Lovelace',
      email: 'Ada@Example.com',
      status: 'active',
      created_at: '2026-11-21T10:00:00.000Z',
      cancelled_at: null,
      position: null,
    });
    expect(res.headers['location']).toBe(`/api/v1/events/${id}/registrations/${res.body.data.id}`);
    const one = await t.api.get(res.headers['location']!).set(a.auth).expect(200);
    expect(one.body.data).toEqual(res.body.data);
    const got = await t.api.get(`/api/v1/events/${id}`).set(a.auth).expect(200);
    expect(got.body.data).toMatchObject({ registration_count: 1, slots_remaining: 2 });
    const [row] = await t.query('SELECT organization_id, event_id, email, status FROM event_registrations WHERE id = $1', [res.body.data.id]);
    expect(row).toEqual({ organization_id: a.orgId, event_id: id, email: 'Ada@Example.com', status: 'active' });
    expect(await activeCount(id)).toEqual({ rows: 1, counter: 1 });
  });

  it('refuses a second active registration for the same e-mail, case-insensitively', async () => {
    const id = await event();
    await register(id, { name: 'A', email: 'grace@example.com' }).expect(201);
    const res = await register(id, { name: 'A again', email: 'GRACE@example.COM' }).expect(409);
    expect(res.body).toMatchObject({ status: 409, code: 'already_registered' });
    expect(await activeCount(id)).toEqual({ rows: 1, counter: 1 });
    // The same person may register for another event.
    await register(await event(), { name: 'A', email: 'grace@example.com' }).expect(201);
  });

  it.each([
    ['draft', 'draft'],
    ['cancelled', 'cancelled'],
  ])('refuses registrations for a %s event with 409 event_not_open', async (_name, status) => {
    const id = await event({ status });
    const res = await register(id, { name: 'A', email: 'a@example.com' }).expect(409);
    expect(res.body).toMatchObject({ status: 409, code: 'event_not_open' });
    expect(await activeCount(id)).toEqual({ rows: 0, counter: 0 });
  });

  it('stops taking registrations when unpublished, keeping the existing ones', async () => {
    const id = await event();
    await register(id, { name: 'A', email: 'a@example.com' }).expect(201);
    await t.api.patch(`/api/v1/events/${id}`).set(a.auth).send({ status: 'draft' }).expect(200);
    expect((await register(id, { name: 'B', email: 'b@example.com' }).expect(409)).body.code).toBe('event_not_open');
    expect(await activeCount(id)).toEqual({ rows: 1, counter: 1 });
  });

  it.each([
    ['missing name', { email: 'a@example.com' }, 'name'],
    ['missing email', { name: 'A' }, 'email'],
    ['bad email', { name: 'A', email: 'not-an-email' }, 'email'],
    ['blank name', { name: '  ', email: 'a@example.com' }, 'name'],
    ['long name', { name: 'x'.repeat(301), email: 'a@example.com' }, 'name'],
    ['email not a string', { name: 'A', email: 42 }, 'email'],
    ['unknown field', { name: 'A', email: 'a@example.com', status: 'cancelled' }, 'status'],
  ])('refuses %s with 400 naming the field', async (_name, body, field) => {
    const id = await event();
    const res = await register(id, body).expect(400);
    expect(res.body.code).toBe('validation_failed');
    expect(res.body.errors.map((e: { field: string }) => e.field)).toContain(field);
    expect(await activeCount(id)).toEqual({ rows: 0, counter: 0 });
  });

  it('answers 404 for an unknown event or registration', async () => {
    expect((await register(MISSING_ID, { name: 'A', email: 'a@example.com' }).expect(404)).body.code).toBe('not_found');
    expect((await t.api.get(`/api/v1/events/${MISSING_ID}/registrations`).set(a.auth).expect(404)).body.code).toBe('not_found');
    const id = await event();
    expect((await t.api.delete(`/api/v1/events/${id}/registrations/${MISSING_ID}`).set(a.auth).expect(404)).body.code).toBe('not_found');
    expect((await t.api.get(`/api/v1/events/${id}/registrations/not-a-uuid`).set(a.auth).expect(404)).body.code).toBe('not_found');
    // A registration is found only under its own event.
    const reg = await register(id, { name: 'A', email: 'a@example.com' }).expect(201);
    const other = await event();
    await t.api.delete(`/api/v1/events/${other}/registrations/${reg.body.data.id}`).set(a.auth).expect(404);
    expect(await activeCount(id)).toEqual({ rows: 1, counter: 1 });
  });

  it('cancels with 200, frees the place, is idempotent, and allows registering again', async () => {
    t.clock.set('2026-11-21T10:00:00.000Z');
    const id = await event({ slots: 1 });
    const reg = await register(id, { name: 'A', email: 'a@example.com' }).expect(201);
    expect((await register(id, { name: 'B', email: 'b@example.com' }).expect(409)).body.code).toBe('event_full');

    t.clock.set('2026-11-21T11:00:00.000Z');
    const cancelled = await t.api.delete(`/api/v1/events/${id}/registrations/${reg.body.data.id}`).set(a.auth).expect(200);
    expect(cancelled.body.data).toEqual({ ...reg.body.data, status: 'cancelled', cancelled_at: '2026-11-21T11:00:00.000Z' });
    expect(await activeCount(id)).toEqual({ rows: 0, counter: 0 });
    const [row] = await t.query<{ status: string; cancelled_at: Date }>('SELECT status, cancelled_at FROM event_registrations WHERE id = $1', [
      reg.body.data.id,
    ]);
    expect(row).toEqual({ status: 'cancelled', cancelled_at: new Date('2026-11-21T11:00:00.000Z') });

    t.clock.set('2026-11-21T12:00:00.000Z');
    const again = await t.api.delete(`/api/v1/events/${id}/registrations/${reg.body.data.id}`).set(a.auth).expect(200);
    expect(again.body.data).toEqual(cancelled.body.data);
    expect(await activeCount(id)).toEqual({ rows: 0, counter: 0 });

    await register(id, { name: 'B', email: 'b@example.com' }).expect(201);
    expect((await register(id, { name: 'C', email: 'c@example.com' }).expect(409)).body.code).toBe('event_full');
    // The cancelled e-mail may register again once a place is free.
    const event2 = await event({ slots: 2 });
    const first = await register(event2, { name: 'A', email: 'a@example.com' }).expect(201);
    await t.api.delete(`/api/v1/events/${event2}/registrations/${first.body.data.id}`).set(a.auth).expect(200);
    await register(event2, { name: 'A', email: 'A@example.com' }).expect(201);
    expect(await activeCount(event2)).toEqual({ rows: 1, counter: 1 });
  });

  it('lists registrations by created_at then id, with meta, paging and a status filter', async () => {
    const id = await event();
    const made: string[] = [];
    for (let i = 0; i < 5; i++) {
      t.clock.set(new Date(Date.UTC(2026, 10, 21, 10, 5 - i)));
      made.push((await register(id, { name: `P${i}`, email: `p${i}@example.com` }).expect(201)).body.data.id);
    }
    await t.api.delete(`/api/v1/events/${id}/registrations/${made[1]}`).set(a.auth).expect(200);
    const all = await t.api.get(`/api/v1/events/${id}/registrations`).set(a.auth).expect(200);
    expect(all.body.data.map((r: { name: string }) => r.name)).toEqual(['P4', 'P3', 'P2', 'P1', 'P0']);
    expect(all.body.meta).toEqual({ total: 5, limit: 50, offset: 0, hasMore: false });
    const page = await t.api.get(`/api/v1/events/${id}/registrations?limit=2&offset=1&utm=x`).set(a.auth).expect(200);
    expect(page.body.data.map((r: { name: string }) => r.name)).toEqual(['P3', 'P2']);
    expect(page.body.meta).toEqual({ total: 5, limit: 2, offset: 1, hasMore: true });
    const active = await t.api.get(`/api/v1/events/${id}/registrations?status=active`).set(a.auth).expect(200);
    expect(active.body.meta.total).toBe(4);
    const cancelled = await t.api.get(`/api/v1/events/${id}/registrations?status=cancelled`).set(a.auth).expect(200);
    expect(cancelled.body.data.map((r: { name: string }) => r.name)).toEqual(['P1']);
    const beyond = await t.api.get(`/api/v1/events/${id}/registrations?offset=10`).set(a.auth).expect(200);
    expect(beyond.body).toEqual({ data: [], meta: { total: 5, limit: 50, offset: 10, hasMore: false } });
    await t.api.get(`/api/v1/events/${id}/registrations?status=gone`).set(a.auth).expect(400);
    await t.api.get(`/api/v1/events/${id}/registrations?limit=0`).set(a.auth).expect(400);
  });

  it('refuses slots below the active registrations, and accepts them at or above', async () => {
    const id = await event({ slots: 5 });
    for (const n of [1, 2, 3]) await register(id, { name: `P${n}`, email: `p${n}@example.com` }).expect(201);
    const res = await t.api.patch(`/api/v1/events/${id}`).set(a.auth).send({ slots: 2 }).expect(409);
    expect(res.body).toMatchObject({ status: 409, code: 'slots_below_registrations' });
    expect((await t.query<{ slots: number }>('SELECT slots FROM events WHERE id = $1', [id]))[0]!.slots).toBe(5);
    const exact = await t.api.patch(`/api/v1/events/${id}`).set(a.auth).send({ slots: 3 }).expect(200);
    expect(exact.body.data).toMatchObject({ slots: 3, registration_count: 3, slots_remaining: 0 });
    expect((await register(id, { name: 'P4', email: 'p4@example.com' }).expect(409)).body.code).toBe('event_full');
    const unlimited = await t.api.patch(`/api/v1/events/${id}`).set(a.auth).send({ slots: null }).expect(200);
    expect(unlimited.body.data).toMatchObject({ slots: null, registration_count: 3, slots_remaining: null });
  });

  it('lets the database refuse an oversell or a slots cut even when the application is bypassed', async () => {
    const id = await event({ slots: 2 });
    await register(id, { name: 'A', email: 'a@example.com' }).expect(201);
    await register(id, { name: 'B', email: 'b@example.com' }).expect(201);
    await expect(
      t.query(
        `INSERT INTO event_registrations (id, organization_id, event_id, name, email, status, created_at)
         VALUES ($1, $2, $3, 'Sneaky', 's@example.com', 'active', now())`,
        [MISSING_ID, a.orgId, id],
      ),
    ).rejects.toMatchObject({ driverError: { code: '23514', constraint: 'events_registrations_within_slots' } });
    await expect(t.query('UPDATE events SET slots = 1 WHERE id = $1', [id])).rejects.toMatchObject({
      driverError: { code: '23514', constraint: 'events_registrations_within_slots' },
    });
    expect(await activeCount(id)).toEqual({ rows: 2, counter: 2 });
  });

  describe('concurrency', () => {
    it('40 parallel registrations for 10 slots: exactly 10 succeed, 30 get event_full', async () => {
      const id = await event({ slots: 10 });
      const results = await Promise.all(
        Array.from({ length: 40 }, (_, i) => register(id, { name: `Racer ${i}`, email: `racer${i}@example.com` })),
      );
      const statuses = results.map((r) => r.status);
      expect(statuses.filter((s) => s === 201)).toHaveLength(10);
      expect(statuses.filter((s) => s === 409)).toHaveLength(30);
      for (const r of results.filter((x) => x.status === 409)) expect(r.body.code).toBe('event_full');
      expect(await activeCount(id)).toEqual({ rows: 10, counter: 10 });
      const [{ total }] = (await t.query<{ total: number }>('SELECT count(*)::int AS total FROM event_registrations WHERE event_id = $1', [id])) as [
        { total: number },
      ];
      expect(total).toBe(10);

      // Cancelling one frees exactly one place.
      const winner = results.find((r) => r.status === 201)!.body.data.id as string;
      await t.api.delete(`/api/v1/events/${id}/registrations/${winner}`).set(a.auth).expect(200);
      const second = await Promise.all(
        Array.from({ length: 5 }, (_, i) => register(id, { name: `Late ${i}`, email: `late${i}@example.com` })),
      );
      expect(second.filter((r) => r.status === 201)).toHaveLength(1);
      expect(second.filter((r) => r.status === 409 && r.body.code === 'event_full')).toHaveLength(4);
      expect(await activeCount(id)).toEqual({ rows: 10, counter: 10 });
      const got = await t.api.get(`/api/v1/events/${id}`).set(a.auth).expect(200);
      expect(got.body.data).toMatchObject({ registration_count: 10, slots_remaining: 0 });
    });

    it('one e-mail registering many times at once gets exactly one registration', async () => {
      const id = await event();
      const results = await Promise.all(
        Array.from({ length: 12 }, (_, i) => register(id, { name: `Twin ${i}`, email: i % 2 ? 'Twin@Example.com' : 'twin@example.com' })),
      );
      expect(results.filter((r) => r.status === 201)).toHaveLength(1);
      expect(results.filter((r) => r.status === 409 && r.body.code === 'already_registered')).toHaveLength(11);
      expect(await activeCount(id)).toEqual({ rows: 1, counter: 1 });
    });

    it('lowering slots while registrations race never leaves more active registrations than slots', async () => {
      const id = await event({ slots: 20 });
      for (const n of [1, 2, 3, 4]) await register(id, { name: `P${n}`, email: `p${n}@example.com` }).expect(201);
      const races = await Promise.all([
        ...Array.from({ length: 10 }, (_, i) => register(id, { name: `R${i}`, email: `r${i}@example.com` })),
        t.api.patch(`/api/v1/events/${id}`).set(a.auth).send({ slots: 6 }),
      ]);
      const patch = races[10]!;
      const [row] = await t.query<{ slots: number; counter: number; rows: number }>(
        `SELECT slots, registration_count AS counter,
                (SELECT count(*)::int FROM event_registrations WHERE event_id = $1 AND status = 'active') AS rows
           FROM events WHERE id = $1`,
        [id],
      );
      expect(row!.counter).toBe(row!.rows);
      expect(row!.rows).toBeLessThanOrEqual(row!.slots);
      if (patch.status === 200) {
        expect(row!.slots).toBe(6);
        expect(races.slice(0, 10).filter((r) => r.status === 201).length).toBe(row!.rows - 4);
      } else {
        expect(patch.status).toBe(409);
        expect(patch.body.code).toBe('slots_below_registrations');
        expect(row).toEqual({ slots: 20, counter: 14, rows: 14 });
      }
      for (const r of races.slice(0, 10)) expect([201, 409]).toContain(r.status);
    });

    it('cancelling and registering at once keep the counter exact', async () => {
      const id = await event({ slots: 5 });
      const regs = [];
      for (let i = 0; i < 5; i++) regs.push((await register(id, { name: `P${i}`, email: `p${i}@example.com` }).expect(201)).body.data.id);
      await Promise.all([
        ...regs.map((rid) => t.api.delete(`/api/v1/events/${id}/registrations/${rid}`).set(a.auth)),
        ...regs.map((rid) => t.api.delete(`/api/v1/events/${id}/registrations/${rid}`).set(a.auth)),
        ...Array.from({ length: 8 }, (_, i) => register(id, { name: `N${i}`, email: `n${i}@example.com` })),
      ]);
      const counts = await activeCount(id);
      expect(counts.counter).toBe(counts.rows);
      expect(counts.rows).toBeLessThanOrEqual(5);
    });
  });

  describe('tenancy and scopes', () => {
    it("answers 404 to another organization for the event's registrations", async () => {
      const b = await t.tenant();
      const id = await event({ slots: 5 });
      const reg = await register(id, { name: 'A', email: 'a@example.com' }).expect(201);
      expect((await register(id, { name: 'B', email: 'b@example.com' }, b).expect(404)).body.code).toBe('not_found');
      expect((await t.api.get(`/api/v1/events/${id}/registrations`).set(b.auth).expect(404)).body.code).toBe('not_found');
      expect((await t.api.get(`/api/v1/events/${id}/registrations/${reg.body.data.id}`).set(b.auth).expect(404)).body.code).toBe(
        'not_found',
      );
      expect((await t.api.delete(`/api/v1/events/${id}/registrations/${reg.body.data.id}`).set(b.auth).expect(404)).body.code).toBe(
        'not_found',
      );
      // B's own event id with A's registration id: still nothing.
      const bEvent = await event({}, b);
      await t.api.delete(`/api/v1/events/${bEvent}/registrations/${reg.body.data.id}`).set(b.auth).expect(404);
      expect(await activeCount(id)).toEqual({ rows: 1, counter: 1 });
    });

    it('needs events:write to register or cancel and events:read to list', async () => {
      const id = await event();
      const reader = await t.tenant({ scopes: ['events:read'] });
      const readKey = await t.identity.createApiKey({ organizationId: a.orgId, scopes: ['events:read'], userId: null });
      const writeKey = await t.identity.createApiKey({ organizationId: a.orgId, scopes: ['events:write'], userId: null });
      const read = { Authorization: `Bearer ${readKey.key}` };
      const write = { Authorization: `Bearer ${writeKey.key}` };
      expect((await t.api.post(`/api/v1/events/${id}/registrations`).set(read).send({ name: 'A', email: 'a@example.com' }).expect(403)).body.code).toBe(
        'forbidden',
      );
      const reg = await t.api.post(`/api/v1/events/${id}/registrations`).set(write).send({ name: 'A', email: 'a@example.com' }).expect(201);
      await t.api.get(`/api/v1/events/${id}/registrations`).set(write).expect(403);
      await t.api.get(`/api/v1/events/${id}/registrations`).set(read).expect(200);
      await t.api.delete(`/api/v1/events/${id}/registrations/${reg.body.data.id}`).set(read).expect(403);
      await t.api.get(`/api/v1/events/${id}/registrations`).set(reader.auth).expect(404);
      expect(await activeCount(id)).toEqual({ rows: 1, counter: 1 });
    });

    it('deleting an organization removes its events and registrations', async () => {
      const c = await t.tenant();
      const id = await event({ slots: 3 }, c);
      await register(id, { name: 'A', email: 'a@example.com' }, c).expect(201);
      await t.query('DELETE FROM organizations WHERE id = $1', [c.orgId]);
      expect(await t.query('SELECT 1 FROM events WHERE id = $1', [id])).toHaveLength(0);
      expect(await t.query('SELECT 1 FROM event_registrations WHERE event_id = $1', [id])).toHaveLength(0);
    });
  });
});

describe('events list with include_counts (e2e)', () => {
  let t: TestApp;
  let requestSql: RequestSql;
  let a: Tenant;
  const expected = new Map<string, { registration_count: number; slots_remaining: number | null }>();

  beforeAll(async () => {
    t = await createTestApp();
    requestSql = new RequestSql(t.server);
    a = await t.tenant();
    t.clock.set('2026-11-21T10:00:00.000Z');
    for (let i = 0; i < 60; i++) {
      const slots = i % 3 === 0 ? null : 5;
      const res = await t.api
        .post('/api/v1/events')
        .set(a.auth)
        .send({ title: `E${i}`, start_date: `2026-12-${String((i % 28) + 1).padStart(2, '0')}`, status: 'published', slots })
        .expect(201);
      const id = res.body.data.id as string;
      const n = i % 4;
      for (let k = 0; k < n; k++) {
        await t.api.post(`/api/v1/events/${id}/registrations`).set(a.auth).send({ name: `P${k}`, email: `p${k}@example.com` }).expect(201);
      }
      expected.set(id, { registration_count: n, slots_remaining: slots === null ? null : slots - n });
    }
    // A cancelled registration does not count.
    const [first] = [...expected.keys()].filter((id) => expected.get(id)!.registration_count > 0);
    const regs = await t.api.get(`/api/v1/events/${first}/registrations`).set(a.auth).expect(200);
    await t.api.delete(`/api/v1/events/${first}/registrations/${regs.body.data[0].id}`).set(a.auth).expect(200);
    const before = expected.get(first!)!;
    expected.set(first!, {
      registration_count: before.registration_count - 1,
      slots_remaining: before.slots_remaining === null ? null : before.slots_remaining + 1,
    });
  });
  afterAll(async () => {
    await t.close();
  });

  it('adds registration_count and slots_remaining to every listed event, matching the database', async () => {
    const res = await t.api.get('/api/v1/events?include_counts=true&limit=100').set(a.auth).expect(200);
    expect(res.body.meta).toEqual({ total: 60, limit: 100, offset: 0, hasMore: false });
    const active = await t.query<{ event_id: string; n: number }>(
      `SELECT event_id, count(*)::int AS n FROM event_registrations WHERE status = 'active' GROUP BY event_id`,
    );
    const inDb = new Map(active.map((r) => [r.event_id, r.n]));
    for (const e of res.body.data) {
      expect({ registration_count: e.registration_count, slots_remaining: e.slots_remaining }).toEqual(expected.get(e.id));
      expect(e.registration_count).toBe(inDb.get(e.id) ?? 0);
    }
    const without = await t.api.get('/api/v1/events?include_counts=false&limit=5').set(a.auth).expect(200);
    for (const e of without.body.data) expect(e).not.toHaveProperty('registration_count');
  });

  /**
   * The statements of one GET, while another user of the pool queries the same tables (as the
   * background loops may at any moment): only the request's own statements are counted.
   */
  const sqlOf = (path: string): Promise<string[]> =>
    requestSql.of(async (probe) => {
      const elsewhere = t.dataSource.query('SELECT count(*) FROM events e JOIN event_registrations r ON r.event_id = e.id');
      await t.api.get(path).set(a.auth).set(probe).expect(200);
      await elsewhere;
    });

  it('issues a constant number of SQL queries whatever the page size', async () => {
    // Warm the API-key cache so authentication does not add a lookup to one of the runs.
    await t.api.get('/api/v1/events?limit=1').set(a.auth).expect(200);
    const small = await sqlOf('/api/v1/events?include_counts=true&limit=5');
    const large = await sqlOf('/api/v1/events?include_counts=true&limit=50');
    const all = await sqlOf('/api/v1/events?include_counts=true&limit=100');
    const touching = (sqls: string[]) => sqls.filter((sql) => /\bevent(s|_registrations)\b/.test(sql));
    expect(touching(small)).toHaveLength(1);
    expect(touching(large)).toHaveLength(1);
    expect(touching(all)).toHaveLength(1);
    // One statement: the total in its own CTE (a count that stops at the cap), the page (with its LIMIT) in another.
    expect(touching(small)[0]).toMatch(/WITH total AS \(\s*SELECT count\(\*\) AS total FROM \(SELECT 1 FROM events e[\s\S]*page AS \([\s\S]*LIMIT \$\d+ OFFSET \$\d+/);
    // Exactly as many statements in all (authentication, rate limit, the list), whatever the page size.
    expect(large).toEqual(small);
    expect(all).toEqual(small);
    // The spy sees the queries: without counts the list is one query too.
    expect(touching(await sqlOf('/api/v1/events?limit=50'))).toHaveLength(1);
  });
});
