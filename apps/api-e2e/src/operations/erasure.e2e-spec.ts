import { createHash } from 'node:crypto';
import { createServer, Server } from 'node:http';
import { AddressInfo } from 'node:net';
import { WebhookDispatcher } from '@almanac/webhooks';
import { asAdmin, SignedInAdmin as Admin, signedInAdmin } from '../support/admin-session';
import { createTestApp, Tenant, TestApp } from '../support/test-app';

const ADDRESS = 'jane.doe@example.com';
const NAME = 'Jane Doe';
const HASH = createHash('sha256').update(ADDRESS).digest('hex');
const REPLACEMENT = `erased-${HASH.slice(0, 12)}@invalid`;

/** A receiver that answers each delivery with who it was about, so delivery answers hold the person too. */
async function startEchoReceiver(): Promise<{ base: string; stop: () => Promise<void> }> {
  const server: Server = createServer((req, res) => {
    let body = '';
    req.on('data', (chunk: Buffer) => (body += chunk.toString()));
    req.on('end', () => {
      const data = (JSON.parse(body) as { data: Record<string, unknown> }).data;
      res.writeHead(200, { 'Content-Type': 'application/json' }).end(JSON.stringify({ got: data['attendee_email'] ?? data['email'] ?? null, who: data['attendee_name'] ?? data['name'] ?? null }));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    base: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    stop: async () => {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}

/**
 * Every text, varchar, json and jsonb column (and arrays of them) of every table of the database
 * that holds `needle` (case-insensitive), with the organization of the row when the table has one.
 */
async function whereIs(t: TestApp, needle: string): Promise<Array<{ table: string; column: string; organization: string | null }>> {
  const columns = await t.query<{ table_name: string; column_name: string; has_org: boolean }>(
    `SELECT c.table_name, c.column_name,
            EXISTS (SELECT 1 FROM information_schema.columns o
                     WHERE o.table_schema = c.table_schema AND o.table_name = c.table_name AND o.column_name = 'organization_id') AS has_org
       FROM information_schema.columns c JOIN information_schema.tables t ON t.table_schema = c.table_schema AND t.table_name = c.table_name
      WHERE c.table_schema = 'public' AND t.table_type = 'BASE TABLE'
        AND (c.data_type IN ('text', 'character varying', 'character', 'json', 'jsonb') OR c.udt_name IN ('_text', '_varchar', '_jsonb'))`,
  );
  expect(columns.length).toBeGreaterThan(50);
  const found: Array<{ table: string; column: string; organization: string | null }> = [];
  for (const c of columns) {
    const rows = await t.query<{ organization: string | null }>(
      `SELECT ${c.has_org ? 'organization_id::text' : 'NULL'} AS organization FROM "${c.table_name}" WHERE "${c.column_name}"::text ILIKE $1`,
      [`%${needle}%`],
    );
    for (const row of rows) found.push({ table: c.table_name, column: c.column_name, organization: row.organization });
  }
  return found;
}

describe("erasure of a person's data (e2e)", () => {
  let t: TestApp;
  let echo: Awaited<ReturnType<typeof startEchoReceiver>>;
  beforeAll(async () => {
    echo = await startEchoReceiver();
    t = await createTestApp({ config: { webhookAllowPrivateHosts: true, webhookDispatcher: false } });
  });
  afterAll(async () => {
    await t.close();
    await echo.stop();
  });

  const admin = () => signedInAdmin(t, 'eraser');
  const erase = (a: Admin, email: string, organizationId = a.orgId) => asAdmin(t, a, 'post', `/api/organizations/${organizationId}/erasures`).send({ email });

  let slot = 0;
  /** A booking of `email` on a schedule of its own time (never overlapping), with every personal field. */
  async function booking(tenant: Tenant, scheduleId: string, name: string, email: string, headers: Record<string, string> = {}) {
    slot += 1;
    const start = new Date(Date.UTC(2027, 2, 1, 0, 0) + slot * 3_600_000);
    const res = await t.api
      .post('/api/v1/bookings')
      .set(tenant.auth)
      .set(headers)
      .send({
        schedule_id: scheduleId,
        start_time: start.toISOString(),
        end_time: new Date(start.getTime() + 1_800_000).toISOString(),
        attendee: { name, email, phone: '+33 1 23 45 67 89', timezone: 'Europe/Paris', notes: `Call ${name} first` },
        metadata: { contact: email.toUpperCase(), source_note: `booked by ${name}` },
      })
      .expect(201);
    return res.body.data as { id: string; start_time: string; end_time: string; manage_token: string };
  }

  /** One organization's full picture of the person: bookings (one confirmed, one cancelled, one replayable), registrations, deliveries. */
  async function populate(tenant: Tenant) {
    const scheduleId = (await t.api.post('/api/v1/schedules').set(tenant.auth).send({ name: 'Room' }).expect(201)).body.data.id as string;
    await t.api.post('/api/v1/webhooks').set(tenant.auth).send({ url: `${echo.base}/hook`, events: ['*'] }).expect(201);
    const confirmed = await booking(tenant, scheduleId, NAME, ADDRESS.toUpperCase());
    await t.api.patch(`/api/v1/bookings/${confirmed.id}`).set(tenant.auth).send({ status: 'CONFIRMED' }).expect(200);
    const cancelled = await booking(tenant, scheduleId, NAME, 'Jane.Doe@Example.com');
    // Cancelled by the attendee, who wrote a reason that names them.
    await t.api.post(`/public/v1/bookings/${cancelled.manage_token}/cancel`).send({ reason: `${NAME} is ill` }).expect(200);
    const replayable = await booking(tenant, scheduleId, 'J. Doe', ADDRESS, { 'Idempotency-Key': `erasure-${tenant.orgId}` });
    // Another person of the same name: theirs stays theirs.
    const namesake = await booking(tenant, scheduleId, NAME, 'another.jane@example.com');
    const eventId = (await t.api.post('/api/v1/events').set(tenant.auth).send({ title: 'Talk', start_date: '2027-04-01', status: 'published' }).expect(201)).body.data.id as string;
    const registration = (await t.api.post(`/api/v1/events/${eventId}/registrations`).set(tenant.auth).send({ name: NAME, email: ADDRESS }).expect(201)).body.data;
    await t.api.delete(`/api/v1/events/${eventId}/registrations/${registration.id}`).set(tenant.auth).expect(200);
    const again = (await t.api.post(`/api/v1/events/${eventId}/registrations`).set(tenant.auth).send({ name: 'Janie', email: 'JANE.doe@example.com' }).expect(201)).body.data;
    const dispatcher = t.app.get(WebhookDispatcher);
    await dispatcher.runOnce();
    return { scheduleId, confirmed, cancelled, replayable, namesake, eventId, registrations: [registration.id, again.id] };
  }

  it('anonymises the bookings and registrations, scrubs stored events, answers and replays, and leaves other organizations alone', async () => {
    const a = await admin();
    const b = await admin();
    const mine = await populate(a);
    const theirs = await populate(b);
    const before = await t.query<{ id: string; start_time: Date; end_time: Date; status: string }>(
      'SELECT id, start_time, end_time, status FROM bookings WHERE organization_id = $1 ORDER BY id',
      [a.orgId],
    );
    // The person is everywhere to begin with: records, events, delivery answers, kept answers.
    const tables = new Set((await whereIs(t, ADDRESS)).filter((f) => f.organization === a.orgId).map((f) => f.table));
    expect([...tables].sort()).toEqual(['bookings', 'event_registrations', 'idempotency_keys', 'outbox_events', 'webhook_deliveries']);

    const res = await erase(a, 'Jane.DOE@example.com').expect(200);
    expect(res.body.data).toEqual({ bookings: 3, registrations: 2, at: expect.any(String) });

    // Times and status stay; the person goes.
    const bookings = await t.query<Record<string, unknown>>(
      `SELECT id, start_time, end_time, status, attendee_name, attendee_email, attendee_phone, attendee_notes, attendee_timezone, metadata
         FROM bookings WHERE organization_id = $1 AND id = ANY ($2::uuid[]) ORDER BY id`,
      [a.orgId, [mine.confirmed.id, mine.cancelled.id, mine.replayable.id]],
    );
    for (const row of bookings) {
      const was = before.find((r) => r.id === row['id'])!;
      expect(row).toMatchObject({ start_time: was.start_time, end_time: was.end_time, status: was.status });
      expect(row).toMatchObject({ attendee_name: 'Erased', attendee_email: REPLACEMENT, attendee_phone: null, attendee_notes: null, attendee_timezone: null });
      expect(JSON.stringify(row['metadata'])).not.toMatch(/jane/i);
    }
    expect(bookings.map((r) => r['status']).sort()).toEqual(['CANCELLED', 'CONFIRMED', 'PENDING']);
    // The attendee's reason is gone, and their manage tokens open nothing any more (the namesake's still does).
    const [reason] = await t.query('SELECT cancelled_by, cancellation_reason FROM bookings WHERE id = $1', [mine.cancelled.id]);
    expect(reason).toEqual({ cancelled_by: 'attendee', cancellation_reason: null });
    for (const erased of [mine.confirmed, mine.cancelled, mine.replayable]) await t.api.get(`/public/v1/bookings/${erased.manage_token}`).expect(404);
    await t.api.get(`/public/v1/bookings/${mine.namesake.manage_token}`).expect(200);
    const registrations = await t.query('SELECT name, email, status FROM event_registrations WHERE organization_id = $1 ORDER BY created_at, id', [a.orgId]);
    expect(registrations).toEqual([
      { name: 'Erased', email: REPLACEMENT, status: 'cancelled' },
      { name: 'Erased', email: REPLACEMENT, status: 'active' },
    ]);

    // No table of the database holds the address any more, but in the other organization.
    const left = await whereIs(t, ADDRESS);
    expect(left.filter((f) => f.organization !== b.orgId)).toEqual([]);
    expect([...new Set(left.map((f) => f.table))].sort()).toEqual(['bookings', 'event_registrations', 'idempotency_keys', 'outbox_events', 'webhook_deliveries']);
    expect((await t.api.get(`/api/v1/bookings/${theirs.confirmed.id}`).set(b.auth).expect(200)).body.data.attendee_name).toBe(NAME);

    // The name left the payloads of the person's records, and stayed in the namesake's.
    const events = await t.query<{ data: { id: string } & Record<string, unknown> }>('SELECT data FROM outbox_events WHERE organization_id = $1', [a.orgId]);
    const erasedIds = new Set([mine.confirmed.id, mine.cancelled.id, mine.replayable.id, ...mine.registrations]);
    const ofPerson = events.filter((e) => erasedIds.has(e.data.id));
    expect(ofPerson.length).toBeGreaterThanOrEqual(8);
    for (const { data } of ofPerson) {
      expect(JSON.stringify(data)).not.toMatch(/Jane|Janie|J\. Doe/);
      expect(data['attendee_name'] ?? data['name']).toBe('Erased');
      if ('attendee_phone' in data) expect(data).toMatchObject({ attendee_phone: null, attendee_notes: null, attendee_timezone: null, attendee_email: REPLACEMENT });
    }
    const namesake = events.filter((e) => e.data.id === mine.namesake.id);
    expect(namesake.map((e) => e.data['attendee_name'])).toEqual([NAME]);
    const answers = await t.query<{ response_body: string }>('SELECT response_body FROM webhook_deliveries WHERE organization_id = $1', [a.orgId]);
    expect(answers.filter((d) => d.response_body.includes(NAME))).toHaveLength(1); // the namesake's
    expect(answers.filter((d) => d.response_body.includes('Erased')).length).toBeGreaterThanOrEqual(8);

    // The change feed shows the scrubbed payloads; a replay answers the anonymised booking.
    const feed = await t.api.get('/api/v1/changes?limit=1000').set(a.auth).expect(200);
    expect(JSON.stringify(feed.body)).not.toMatch(/jane\.doe/i);
    const replay = await t.api
      .post('/api/v1/bookings')
      .set(a.auth)
      .set('Idempotency-Key', `erasure-${a.orgId}`)
      .send({
        schedule_id: mine.scheduleId,
        start_time: mine.replayable.start_time,
        end_time: mine.replayable.end_time,
        attendee: { name: 'J. Doe', email: ADDRESS, phone: '+33 1 23 45 67 89', timezone: 'Europe/Paris', notes: 'Call J. Doe first' },
        metadata: { contact: ADDRESS.toUpperCase(), source_note: 'booked by J. Doe' },
      });
    expect(replay.status).toBe(201);
    expect(replay.headers['idempotent-replayed']).toBe('true');
    expect(replay.body.data).toMatchObject({ id: mine.replayable.id, attendee_name: 'Erased', attendee_email: REPLACEMENT, attendee_phone: null });

    // The audit entry holds the full hash, never the address.
    const audit = (await asAdmin(t, a, 'get', `/api/organizations/${a.orgId}/audit-log?action=erasure.performed`).expect(200)).body.data;
    expect(audit).toEqual([expect.objectContaining({ action: 'erasure.performed', target: { type: 'person', id: HASH }, actor: expect.objectContaining({ type: 'user' }) })]);

    // Idempotent: nothing left to erase.
    expect((await erase(a, ADDRESS).expect(200)).body.data).toEqual({ bookings: 0, registrations: 0, at: expect.any(String) });
  });

  it('refuses another organization (403), a malformed address (400) and a bearer key (401)', async () => {
    const a = await admin();
    const b = await admin();
    await erase(a, ADDRESS, b.orgId).expect(403);
    expect((await erase(a, 'not an address').expect(400)).body.errors).toEqual([expect.objectContaining({ field: 'email' })]);
    await t.api.post(`/api/organizations/${a.orgId}/erasures`).set(a.auth).send({ email: ADDRESS }).expect(401);
    expect(await t.query("SELECT 1 FROM audit_log WHERE action = 'erasure.performed' AND organization_id = ANY ($1::uuid[])", [[a.orgId, b.orgId]])).toEqual([]);
  });

  it('leaves nothing of the person behind while their bookings are changed concurrently, and erases each record once', async () => {
    const a = await admin();
    const scheduleId = (await t.api.post('/api/v1/schedules').set(a.auth).send({ name: 'Busy' }).expect(201)).body.data.id as string;
    const ids: string[] = [];
    for (let i = 0; i < 6; i++) ids.push((await booking(a, scheduleId, NAME, ADDRESS)).id);
    const patches = ids.flatMap((id, i) =>
      [0, 1, 2].map((n) => t.raw().patch(`/api/v1/bookings/${id}`).set(a.auth).send({ title: `Visit ${i}.${n}`, ...(n === 1 ? { status: 'CONFIRMED' } : {}) })),
    );
    const [first, second, ...answers] = await Promise.all([erase(a, ADDRESS), erase(a, ADDRESS), ...patches]);
    expect(answers.every((r) => r.status === 200 || r.status === 409)).toBe(true);
    expect([first.status, second.status]).toEqual([200, 200]);
    // The two erasures took the records in turn: together they erased each once.
    expect(first.body.data.bookings + second.body.data.bookings).toBe(6);
    const left = (await whereIs(t, ADDRESS)).filter((f) => f.organization === a.orgId);
    expect(left).toEqual([]);
    const names = await t.query<{ data: string }>("SELECT data::text AS data FROM outbox_events WHERE organization_id = $1 AND data::text LIKE '%Jane Doe%'", [a.orgId]);
    expect(names).toEqual([]);
    expect(await t.query("SELECT 1 FROM bookings WHERE organization_id = $1 AND attendee_name <> 'Erased'", [a.orgId])).toEqual([]);
  });
});
