import { createTestApp, Tenant, TestApp } from '../support/test-app';

/** The waiting list: race-free admission and promotion, dense positions. */
describe('events: waiting list (e2e)', () => {
  let t: TestApp;
  let a: Tenant;

  beforeAll(async () => {
    t = await createTestApp({ config: { rateLimitPerMinute: 0, webhookDispatcher: false } });
    a = await t.tenant();
  });
  afterAll(() => t.close());

  const event = async (fields: Record<string, unknown>) =>
    (await t.api.post('/api/v1/events').set(a.auth).send({ title: 'Workshop', start_date: '2030-03-01', status: 'published', ...fields }).expect(201)).body.data;
  const register = (eventId: string, i: number) =>
    t.api.post(`/api/v1/events/${eventId}/registrations`).set(a.auth).send({ name: `Person ${i}`, email: `p${i}@example.com` });
  const list = async (eventId: string, status: string) =>
    (await t.api.get(`/api/v1/events/${eventId}/registrations?status=${status}&limit=100`).set(a.auth).expect(200)).body;
  const counts = async (eventId: string) => {
    const { registration_count, slots_remaining, waitlist_count } = (await t.api.get(`/api/v1/events/${eventId}`).set(a.auth).expect(200)).body.data;
    return { registration_count, slots_remaining, waitlist_count };
  };

  it('without a waiting list a full event still answers 409 event_full', async () => {
    const e = await event({ slots: 1 });
    await register(e.id, 1).expect(201);
    expect((await register(e.id, 2).expect(409)).body.code).toBe('event_full');
  });

  it('30 parallel registrations on 5 places: 5 active and 25 waiting with positions 1-25', async () => {
    const e = await event({ slots: 5, waitlist_enabled: true });
    expect(e.waitlist_enabled).toBe(true);
    const answers = await Promise.all(Array.from({ length: 30 }, (_, i) => register(e.id, i)));
    expect(answers.map((r) => r.status)).toEqual(Array(30).fill(201));
    const statuses = answers.map((r) => r.body.data.status);
    expect(statuses.filter((s) => s === 'active')).toHaveLength(5);
    expect(statuses.filter((s) => s === 'waitlisted')).toHaveLength(25);
    const positions = answers.filter((r) => r.body.data.status === 'waitlisted').map((r) => r.body.data.position).sort((x, y) => x - y);
    expect(positions).toEqual(Array.from({ length: 25 }, (_, i) => i + 1));
    expect(answers.filter((r) => r.body.data.status === 'active').every((r) => r.body.data.position === null)).toBe(true);
    expect(await counts(e.id)).toEqual({ registration_count: 5, slots_remaining: 0, waitlist_count: 25 });
    const waiting = await list(e.id, 'waitlisted');
    expect(waiting.meta.total).toBe(25);
    expect(waiting.data.map((r: { position: number }) => r.position)).toEqual(Array.from({ length: 25 }, (_, i) => i + 1));

    // 3 parallel cancellations of active registrations: still exactly 5 active, the 3 oldest waiting promoted.
    const active = (await list(e.id, 'active')).data;
    const oldestWaiting = waiting.data.slice(0, 3).map((r: { id: string }) => r.id);
    const cancels = await Promise.all(active.slice(0, 3).map((r: { id: string }) => t.api.delete(`/api/v1/events/${e.id}/registrations/${r.id}`).set(a.auth)));
    expect(cancels.map((r) => r.status)).toEqual([200, 200, 200]);
    const nowActive = (await list(e.id, 'active')).data.map((r: { id: string }) => r.id);
    expect(nowActive).toHaveLength(5);
    expect(nowActive).toEqual(expect.arrayContaining(oldestWaiting));
    expect(await counts(e.id)).toEqual({ registration_count: 5, slots_remaining: 0, waitlist_count: 22 });
    // Positions stay dense after removals.
    const after = (await list(e.id, 'waitlisted')).data;
    expect(after.map((r: { position: number }) => r.position)).toEqual(Array.from({ length: 22 }, (_, i) => i + 1));
    expect(after[0].id).toBe(waiting.data[3].id);

    // Cancelling a waiting registration takes it off the list; nobody is promoted.
    await t.api.delete(`/api/v1/events/${e.id}/registrations/${after[0].id}`).set(a.auth).expect(200);
    expect(await counts(e.id)).toEqual({ registration_count: 5, slots_remaining: 0, waitlist_count: 21 });
    const single = (await t.api.get(`/api/v1/events/${e.id}/registrations/${after[1].id}`).set(a.auth).expect(200)).body.data;
    expect(single).toMatchObject({ status: 'waitlisted', position: 1 });

    // Raising slots promotes the next ones in order, in the same change.
    const raised = (await t.api.patch(`/api/v1/events/${e.id}`).set(a.auth).send({ slots: 8 }).expect(200)).body.data;
    expect(raised).toMatchObject({ registration_count: 8, slots_remaining: 0, waitlist_count: 18 });
    const promotedEvents = await t.query<{ data: { id: string } }>(
      `SELECT data FROM outbox_events WHERE organization_id = $1 AND type = 'registration.promoted' ORDER BY seq`,
      [a.orgId],
    );
    expect(promotedEvents).toHaveLength(6);
    expect(promotedEvents.slice(3).map((p) => p.data.id)).toEqual(after.slice(1, 4).map((r: { id: string }) => r.id));
    const [{ active_count }] = await t.query<{ active_count: number }>(
      `SELECT count(*)::int AS active_count FROM event_registrations WHERE event_id = $1 AND status = 'active'`,
      [e.id],
    );
    expect(active_count).toBe(8);
  });

  it('one person is either active or waiting, never both', async () => {
    const e = await event({ slots: 1, waitlist_enabled: true });
    await register(e.id, 1).expect(201);
    await register(e.id, 2).expect(201);
    expect((await register(e.id, 2).expect(409)).body.code).toBe('already_registered');
  });

  it('refuses an unknown status filter', async () => {
    const e = await event({ slots: 1 });
    const res = await t.api.get(`/api/v1/events/${e.id}/registrations?status=waiting`).set(a.auth).expect(400);
    expect(res.body.errors[0].field).toBe('status');
  });
});
