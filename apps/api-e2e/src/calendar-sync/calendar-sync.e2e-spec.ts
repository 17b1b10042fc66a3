import { createServer, IncomingMessage, Server, ServerResponse } from 'node:http';
import { AddressInfo } from 'node:net';
import { readFixture } from '@almanac/calendar-sync/testing';
import { createTestApp, Tenant, TestApp } from '../support/test-app';

const RANGE = { startDate: '2027-03-01T00:00:00Z', endDate: '2027-04-15T00:00:00Z' };
const ORIGIN = 'http://localhost:3000';

/** A real HTTP server on loopback serving iCalendar feeds the test can change, hold or break. */
class FeedServer {
  private server!: Server;
  readonly feeds = new Map<string, string>();
  private held: { notify: () => void; released: Promise<void> } | null = null;
  base = '';

  async start(): Promise<void> {
    this.server = createServer((req, res) => void this.handle(req, res));
    await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', resolve));
    this.base = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
  }

  /** The next request to /held.ics waits until `release` is called; `arrived` resolves when it comes in. */
  hold(feed: string): { arrived: Promise<void>; release: () => void } {
    let release!: () => void;
    let notify!: () => void;
    const released = new Promise<void>((resolve) => (release = resolve));
    const arrived = new Promise<void>((resolve) => (notify = resolve));
    this.feeds.set('/held.ics', feed);
    this.held = { notify, released };
    return { arrived, release };
  }

  private async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    if (req.url === '/held.ics' && this.held) {
      const held = this.held;
      this.held = null;
      held.notify();
      await held.released;
    }
    if (req.url === '/down.ics') return void res.writeHead(503).end('maintenance');
    const feed = this.feeds.get(req.url ?? '');
    if (feed === undefined) return void res.writeHead(404).end();
    res.writeHead(200, { 'Content-Type': 'text/calendar; charset=utf-8' }).end(feed);
  }

  async stop(): Promise<void> {
    this.server.closeAllConnections();
    await new Promise((resolve) => this.server.close(resolve));
  }
}

interface Admin extends Tenant {
  cookie: string;
  scheduleId: string;
}

describe('calendar sync (e2e)', () => {
  let t: TestApp;
  const feeds = new FeedServer();
  let counter = 0;

  beforeAll(async () => {
    await feeds.start();
    t = await createTestApp({ config: { calendarAllowPrivateHosts: true } });
  });
  afterAll(async () => {
    await t.close();
    await feeds.stop();
  });

  async function admin(): Promise<Admin> {
    counter += 1;
    const tenant = await t.tenant();
    const email = `admin${counter}@example.com`;
    await t.identity.createUser({
      organizationId: tenant.orgId,
      email,
      name: `Admin ${counter}`,
      password: 'correct horse battery',
      role: 'admin',
    });
    const login = await t.api
      .post('/api/auth/login')
      .set('Origin', ORIGIN)
      .send({ email, password: 'correct horse battery' })
      .expect(200);
    const cookie = String(login.headers['set-cookie']![0]).split(';')[0]!;
    const schedule = await t.api
      .post('/api/v1/schedules')
      .set(tenant.auth)
      .send({ name: 'Imported', timezone: 'UTC' })
      .expect(201);
    return { ...tenant, cookie, scheduleId: schedule.body.data.id };
  }

  async function integrate(a: Admin, path: string, name = 'Clinic calendar') {
    return t.api
      .put(`/api/organizations/${a.orgId}/calendar-integration`)
      .set('Cookie', a.cookie)
      .set('Origin', ORIGIN)
      .send({ provider: 'ics', url: `${feeds.base}${path}`, schedule_id: a.scheduleId, name })
      .expect(200);
  }

  const sync = (a: Admin, body: Record<string, unknown> = { organizationId: a.orgId, ...RANGE }) =>
    t.api.post('/api/bookings/sync-external').set('Cookie', a.cookie).set('Origin', ORIGIN).send(body);

  async function importedBookings(orgId: string) {
    return t.query<{
      title: string;
      start_time: Date;
      end_time: Date;
      status: string;
      external_uid: string;
      recurrence_id: string | null;
      attendee_email: string | null;
      attendee_name: string;
      location: string | null;
    }>(
      `SELECT title, start_time, end_time, status, location, attendee_name, attendee_email,
              metadata->>'external_uid' AS external_uid, metadata->>'recurrence_id' AS recurrence_id
         FROM bookings WHERE organization_id = $1 AND metadata->>'source' = 'external_calendar'
        ORDER BY start_time`,
      [orgId],
    );
  }

  describe('access', () => {
    let a: Admin;
    let b: Admin;
    beforeAll(async () => {
      a = await admin();
      b = await admin();
      await integrate(a, '/google.ics');
      feeds.feeds.set('/google.ics', readFixture('google'));
    });

    it('needs a session: none → 401, a bearer key alone → 401', async () => {
      const none = await t.api
        .post('/api/bookings/sync-external')
        .send({ organizationId: a.orgId })
        .expect(401);
      expect(none.body.code).toBe('unauthorized');
      const bearer = await t.api
        .post('/api/bookings/sync-external')
        .set(a.auth)
        .send({ organizationId: a.orgId })
        .expect(401);
      expect(bearer.body).toEqual({ ...none.body, request_id: bearer.body.request_id });
    });

    it("refuses another organization's admin with 403", async () => {
      const res = await sync(b, { organizationId: a.orgId }).expect(403);
      expect(res.body.code).toBe('forbidden');
      await t.api
        .get(`/api/organizations/${a.orgId}/calendar-integration`)
        .set('Cookie', b.cookie)
        .expect(403);
    });

    it('refuses a session whose user is no longer an admin (an author) with 403', async () => {
      const c = await admin();
      await t.query(`UPDATE users SET role = 'author' WHERE organization_id = $1`, [c.orgId]);
      const res = await sync(c, { organizationId: c.orgId }).expect(403);
      expect(res.body.code).toBe('forbidden');
    });

    it('refuses a foreign Origin with 403 csrf_rejected', async () => {
      const res = await t.api
        .post('/api/bookings/sync-external')
        .set('Cookie', a.cookie)
        .set('Origin', 'https://evil.example')
        .send({ organizationId: a.orgId })
        .expect(403);
      expect(res.body.code).toBe('csrf_rejected');
    });

    it('answers 422 without an integration, and 400 for bad ranges', async () => {
      const res = await sync(b, { organizationId: b.orgId }).expect(422);
      expect(res.body.code).toBe('integration_not_configured');
      const backwards = await sync(a, {
        organizationId: a.orgId,
        startDate: '2027-03-02T00:00:00Z',
        endDate: '2027-03-01T00:00:00Z',
      }).expect(400);
      expect(backwards.body.errors).toEqual([expect.objectContaining({ field: 'endDate' })]);
      await sync(a, { organizationId: a.orgId, startDate: '2027-01-01', endDate: '2028-01-03' }).expect(400);
      const naive = await sync(a, { organizationId: a.orgId, startDate: '2027-01-01T00:00:00' }).expect(400);
      expect(naive.body.errors).toEqual([expect.objectContaining({ field: 'startDate' })]);
      await sync(a, {}).expect(400);
    });
  });

  describe('integration management', () => {
    it('validates, masks the URL and deletes', async () => {
      const a = await admin();
      const base = `/api/organizations/${a.orgId}/calendar-integration`;
      await t.api.get(base).set('Cookie', a.cookie).expect(404);
      const unknownSchedule = await t.api
        .put(base)
        .set('Cookie', a.cookie)
        .send({
          provider: 'ics',
          url: 'https://calendar.example.com/secret-token-123/basic.ics',
          schedule_id: '0193a3c2-7d1e-7c4e-9a57-2f5b8e1c0d9a',
        })
        .expect(422);
      expect(unknownSchedule.body.code).toBe('invalid_reference');
      const bad = await t.api
        .put(base)
        .set('Cookie', a.cookie)
        .send({ provider: 'caldav', url: 'ftp://x', schedule_id: 'nope' })
        .expect(400);
      expect(bad.body.errors.map((e: { field: string }) => e.field).sort()).toEqual([
        'provider',
        'schedule_id',
        'url',
      ]);
      const put = await t.api
        .put(base)
        .set('Cookie', a.cookie)
        .send({
          provider: 'ics',
          url: 'https://calendar.example.com/secret-token-123/basic.ics',
          schedule_id: a.scheduleId,
        })
        .expect(200);
      expect(put.body.data).toMatchObject({
        provider: 'ics',
        schedule_id: a.scheduleId,
        organization_id: a.orgId,
        last_synced_at: null,
      });
      expect(put.body.data.url).not.toContain('secret-token-123');
      const got = await t.api.get(base).set('Cookie', a.cookie).expect(200);
      expect(got.body.data).toEqual(put.body.data);
      const [row] = await t.query<{ url: string }>(
        'SELECT url FROM calendar_integrations WHERE organization_id = $1',
        [a.orgId],
      );
      expect(row!.url).toBe('https://calendar.example.com/secret-token-123/basic.ics');
      await t.api.delete(base).set('Cookie', a.cookie).expect(200);
      await t.api.get(base).set('Cookie', a.cookie).expect(404);
    });
  });

  describe('import', () => {
    it('imports a Google feed with exactly the expected counts, UTC times across the DST change, and is idempotent', async () => {
      const a = await admin();
      feeds.feeds.set('/g1.ics', readFixture('google'));
      await integrate(a, '/g1.ics');
      // An existing booking the "overlapping" event collides with.
      await t.api
        .post('/api/v1/bookings')
        .set(a.auth)
        .send({
          schedule_id: a.scheduleId,
          start_time: '2027-03-20T10:30:00Z',
          end_time: '2027-03-20T11:30:00Z',
          attendee: { name: 'Walk-in', email: 'walk@example.com' },
        })
        .expect(201);

      const first = await sync(a).expect(200);
      expect(first.body).toEqual({
        success: true,
        synced: 6,
        skipped: 5,
        updated: 0,
        cancelled: 0,
        skipped_reasons: { duplicate: 0, cancelled: 1, free: 1, all_day: 1, conflict: 1, invalid: 1 },
      });
      const rows = await importedBookings(a.orgId);
      expect(
        rows.map((r) => [r.start_time.toISOString(), r.end_time.toISOString(), r.status, r.title]),
      ).toEqual([
        ['2027-03-02T15:00:00.000Z', '2027-03-02T16:00:00.000Z', 'CONFIRMED', 'Weekly standup'],
        ['2027-03-05T14:00:00.000Z', '2027-03-05T14:45:00.000Z', 'CONFIRMED', 'Dentist'],
        ['2027-03-09T15:00:00.000Z', '2027-03-09T16:00:00.000Z', 'CONFIRMED', 'Weekly standup'],
        ['2027-03-17T18:00:00.000Z', '2027-03-17T19:00:00.000Z', 'CONFIRMED', 'Weekly standup (moved)'],
        ['2027-03-30T14:00:00.000Z', '2027-03-30T15:00:00.000Z', 'CONFIRMED', 'Weekly standup'],
        ['2027-04-06T14:00:00.000Z', '2027-04-06T15:00:00.000Z', 'CONFIRMED', 'Weekly standup'],
      ]);
      const dentist = rows[1]!;
      expect(dentist).toMatchObject({
        attendee_name: 'Dr Smith',
        attendee_email: 'smith@example.com',
        location: '12 Main St, Springfield',
        external_uid: 'dentist-0305@google.com',
        recurrence_id: null,
      });
      expect(rows[3]).toMatchObject({
        external_uid: 'weekly-standup@google.com',
        recurrence_id: '2027-03-16T14:00:00.000Z',
        location: 'Room 7',
      });

      // The imported bookings are ordinary bookings of the API.
      const listed = await t.api
        .get(`/api/v1/bookings?schedule_id=${a.scheduleId}&status=CONFIRMED&limit=100`)
        .set(a.auth)
        .expect(200);
      expect(listed.body.meta.total).toBe(6);

      const second = await sync(a).expect(200);
      expect(second.body).toEqual({
        success: true,
        synced: 0,
        skipped: 11,
        updated: 0,
        cancelled: 0,
        skipped_reasons: { duplicate: 6, cancelled: 1, free: 1, all_day: 1, conflict: 1, invalid: 1 },
      });
      expect(await importedBookings(a.orgId)).toHaveLength(6);

      // Move the dentist an hour later and drop the last standup: one update, one cancellation.
      feeds.feeds.set(
        '/g1.ics',
        readFixture('google')
          .replace(
            'DTSTART;TZID=America/New_York:20270305T090000',
            'DTSTART;TZID=America/New_York:20270305T100000',
          )
          .replace(
            'DTEND;TZID=America/New_York:20270305T094500',
            'DTEND;TZID=America/New_York:20270305T104500',
          )
          .replace('RRULE:FREQ=WEEKLY;COUNT=6;BYDAY=TU', 'RRULE:FREQ=WEEKLY;COUNT=5;BYDAY=TU'),
      );
      const third = await sync(a).expect(200);
      expect(third.body).toMatchObject({ synced: 0, updated: 1, cancelled: 1 });
      expect(third.body.skipped_reasons.duplicate).toBe(4);
      const after = await importedBookings(a.orgId);
      expect(after.find((r) => r.external_uid === 'dentist-0305@google.com')!.start_time.toISOString()).toBe(
        '2027-03-05T15:00:00.000Z',
      );
      expect(after.find((r) => r.recurrence_id === '2027-04-06T14:00:00.000Z')!.status).toBe('CANCELLED');
      const [integration] = await t.query<{ last_synced_at: Date | null }>(
        'SELECT last_synced_at FROM calendar_integrations WHERE organization_id = $1',
        [a.orgId],
      );
      expect(integration!.last_synced_at).not.toBeNull();
    });

    it.each([
      ['outlook', 6, ['2027-03-25T08:00:00.000Z', '2027-03-28T07:00:00.000Z', '2027-04-02T10:00:00.000Z']],
      ['apple', 4, ['2027-03-26T17:30:00.000Z', '2027-03-31T16:30:00.000Z', '2027-04-09T16:30:00.000Z']],
    ] as const)('imports the %s fixture', async (name, synced, someStarts) => {
      const a = await admin();
      feeds.feeds.set(`/${name}.ics`, readFixture(name));
      await integrate(a, `/${name}.ics`);
      const res = await sync(a).expect(200);
      expect(res.body).toMatchObject({ synced, skipped: 0, updated: 0, cancelled: 0 });
      const starts = (await importedBookings(a.orgId)).map((r) => r.start_time.toISOString());
      expect(starts).toHaveLength(synced);
      expect(starts).toEqual(expect.arrayContaining([...someStarts]));
    });

    it('answers 502 and changes nothing when the feed is down or not iCalendar', async () => {
      const a = await admin();
      feeds.feeds.set('/g2.ics', readFixture('google'));
      await integrate(a, '/g2.ics');
      await sync(a).expect(200);
      const before = await importedBookings(a.orgId);

      await integrate(a, '/down.ics');
      const down = await sync(a).expect(502);
      expect(down.body.code).toBe('upstream_failed');
      feeds.feeds.set('/garbage.ics', '<html><body>Sign in to continue</body></html>');
      await integrate(a, '/garbage.ics');
      expect((await sync(a).expect(502)).body.code).toBe('upstream_failed');
      expect(await importedBookings(a.orgId)).toEqual(before);
    });

    it('refuses loopback feeds unless CALENDAR_ALLOW_PRIVATE_HOSTS is set', async () => {
      const strict = await createTestApp({ config: { calendarAllowPrivateHosts: false } });
      try {
        const tenant = await strict.tenant();
        await strict.identity.createUser({
          organizationId: tenant.orgId,
          email: 'strict@example.com',
          name: 'S',
          password: 'correct horse battery',
        });
        const login = await strict.api
          .post('/api/auth/login')
          .send({ email: 'strict@example.com', password: 'correct horse battery' })
          .expect(200);
        const cookie = String(login.headers['set-cookie']![0]).split(';')[0]!;
        const schedule = await strict.api
          .post('/api/v1/schedules')
          .set(tenant.auth)
          .send({ name: 'S' })
          .expect(201);
        feeds.feeds.set('/strict.ics', readFixture('google'));
        await strict.api
          .put(`/api/organizations/${tenant.orgId}/calendar-integration`)
          .set('Cookie', cookie)
          .send({ provider: 'ics', url: `${feeds.base}/strict.ics`, schedule_id: schedule.body.data.id })
          .expect(200);
        const res = await strict.api
          .post('/api/bookings/sync-external')
          .set('Cookie', cookie)
          .send({ organizationId: tenant.orgId, ...RANGE })
          .expect(502);
        expect(res.body.detail).toMatch(/private|loopback/);
      } finally {
        await strict.close();
      }
    });

    it('lets only one import per organization run at a time (the other gets 409)', async () => {
      const a = await admin();
      await integrate(a, '/held.ics');
      const held = feeds.hold(readFixture('apple'));
      const first = sync(a).then((res) => res);
      await held.arrived; // the first import holds the lock and waits for the feed
      const second = await sync(a).expect(409);
      expect(second.body.code).toBe('sync_in_progress');
      held.release();
      expect((await first).status).toBe(200);
      expect(await importedBookings(a.orgId)).toHaveLength(4);
    });

    it('holds no lock and no transaction while the feed is read; the run is claimed on the integration row', async () => {
      const a = await admin();
      await integrate(a, '/held.ics');
      const held = feeds.hold(readFixture('apple'));
      const first = sync(a).then((res) => res);
      await held.arrived;
      const lock = await t.query(
        `SELECT 1 FROM pg_locks
          WHERE locktype = 'advisory' AND objsubid = 1 AND ((classid::bigint << 32) | objid::bigint) = hashtextextended($1, 0)`,
        [`calendar-sync:${a.orgId}`],
      );
      expect(lock).toEqual([]);
      expect(
        await t.query(`SELECT 1 FROM pg_stat_activity WHERE datname = current_database() AND state LIKE 'idle in transaction%'`),
      ).toEqual([]);
      const [claimed] = await t.query<{ claimed: boolean }>(
        'SELECT import_claim IS NOT NULL AND import_claimed_until > now() AS claimed FROM calendar_integrations WHERE organization_id = $1',
        [a.orgId],
      );
      expect(claimed!.claimed).toBe(true);
      held.release();
      expect((await first).status).toBe(200);
      const [after] = await t.query<{ import_claim: string | null; import_claimed_until: Date | null }>(
        'SELECT import_claim, import_claimed_until FROM calendar_integrations WHERE organization_id = $1',
        [a.orgId],
      );
      expect(after).toEqual({ import_claim: null, import_claimed_until: null });
    });

    it('refuses a run while a live claim stands, and takes over a claim whose time is up', async () => {
      const a = await admin();
      feeds.feeds.set('/claimed.ics', readFixture('apple'));
      await integrate(a, '/claimed.ics');
      const claim = '0193a3c2-7d1e-7c4e-9a57-2f5b8e1c0d9b';
      await t.query(
        `UPDATE calendar_integrations SET import_claim = $2, import_claimed_until = now() + interval '1 minute' WHERE organization_id = $1`,
        [a.orgId, claim],
      );
      expect((await sync(a).expect(409)).body.code).toBe('sync_in_progress');
      const [live] = await t.query<{ import_claim: string }>('SELECT import_claim FROM calendar_integrations WHERE organization_id = $1', [
        a.orgId,
      ]);
      expect(live!.import_claim).toBe(claim);
      // A refused run is not a run.
      expect(await t.query('SELECT 1 FROM calendar_syncs WHERE organization_id = $1', [a.orgId])).toEqual([]);
      // An instance that died mid-run leaves a claim that expires.
      await t.query(`UPDATE calendar_integrations SET import_claimed_until = now() - interval '1 second' WHERE organization_id = $1`, [
        a.orgId,
      ]);
      expect((await sync(a).expect(200)).body.synced).toBe(4);
      expect(await t.query('SELECT 1 FROM calendar_integrations WHERE organization_id = $1 AND import_claim IS NULL', [a.orgId])).toHaveLength(1);
    });

    it("answers 409 when the organization's lock is taken at write time, and releases its claim", async () => {
      const a = await admin();
      feeds.feeds.set('/locked.ics', readFixture('apple'));
      await integrate(a, '/locked.ics');
      const other = t.dataSource.createQueryRunner();
      await other.connect();
      try {
        // Held by a transaction, as another instance's import holds it (and as a pooler in
        // transaction mode keeps it: on one server connection until the transaction ends).
        await other.startTransaction();
        await other.query('SELECT pg_advisory_xact_lock(hashtextextended($1, 0))', [`calendar-sync:${a.orgId}`]);
        expect((await sync(a).expect(409)).body.code).toBe('sync_in_progress');
        expect(await importedBookings(a.orgId)).toEqual([]);
        expect(await t.query('SELECT 1 FROM calendar_syncs WHERE organization_id = $1', [a.orgId])).toEqual([]);
      } finally {
        await other.rollbackTransaction();
        await other.release();
      }
      expect((await sync(a).expect(200)).body.synced).toBe(4);
    });

    it('releases the claim of a failed run', async () => {
      const a = await admin();
      await integrate(a, '/down.ics');
      await sync(a).expect(502);
      expect(await t.query('SELECT 1 FROM calendar_integrations WHERE organization_id = $1 AND import_claim IS NULL', [a.orgId])).toHaveLength(1);
      const [run] = await t.query<{ status: string; error_code: string }>('SELECT status, error_code FROM calendar_syncs WHERE organization_id = $1', [
        a.orgId,
      ]);
      expect(run).toEqual({ status: 'failed', error_code: 'upstream_failed' });
    });

    it("goes with its schedule: deleting the integration's schedule deletes the integration", async () => {
      const a = await admin();
      await integrate(a, '/google.ics');
      await t.api.delete(`/api/v1/schedules/${a.scheduleId}`).set(a.auth).expect(200);
      await t.api.get(`/api/organizations/${a.orgId}/calendar-integration`).set('Cookie', a.cookie).expect(404);
      expect(await t.query('SELECT 1 FROM calendar_integrations WHERE organization_id = $1', [a.orgId])).toEqual([]);
      // The database refuses an integration whose schedule does not exist in the organization.
      await expect(
        t.query(
          `INSERT INTO calendar_integrations (id, organization_id, provider, url, schedule_id, name, created_at, updated_at)
           VALUES ($1, $2, 'ics', 'https://example.com/x.ics', $3, 'X', now(), now())`,
          ['0193a3c2-7d1e-7c4e-9a57-2f5b8e1c0d9c', a.orgId, a.scheduleId],
        ),
      ).rejects.toMatchObject({ driverError: expect.objectContaining({ code: '23503' }) });
    });

    it('imports a feed of 5,000 occurrences in one call', async () => {
      const a = await admin();
      const lines = ['BEGIN:VCALENDAR', 'VERSION:2.0', 'PRODID:-//Almanac test//EN'];
      lines.push(
        'BEGIN:VEVENT',
        'UID:hourly@test',
        'DTSTART:20270301T000000Z',
        'DTEND:20270301T003000Z',
        'RRULE:FREQ=HOURLY;COUNT=5000',
        'SUMMARY:Slot',
        'END:VEVENT',
        'END:VCALENDAR',
        '',
      );
      feeds.feeds.set('/big.ics', lines.join('\r\n'));
      await integrate(a, '/big.ics');
      const started = Date.now();
      const res = await sync(a, {
        organizationId: a.orgId,
        startDate: '2027-03-01T00:00:00Z',
        endDate: '2028-02-28T00:00:00Z',
      }).expect(200);
      const ms = Date.now() - started;
      expect(res.body).toMatchObject({ synced: 5000, skipped: 0 });
      const [{ count }] = await t.query<{ count: string }>(
        `SELECT count(*) FROM bookings WHERE organization_id = $1`,
        [a.orgId],
      );
      expect(Number(count)).toBe(5000);
      process.stdout.write(`calendar import of 5,000 occurrences: ${ms} ms\n`);
    });
  });

  describe('an import of more changes than one statement may carry parameters for', () => {
    it('imports 12,000 occurrences and records one booking.created per booking, then cancels them all', async () => {
      const a = await admin();
      const series = (count: number) =>
        ['BEGIN:VCALENDAR', 'VERSION:2.0', 'PRODID:-//Almanac test//EN', 'BEGIN:VEVENT', 'UID:half-hourly@test', 'DTSTART:20270301T000000Z', 'DTEND:20270301T001500Z', `RRULE:FREQ=MINUTELY;INTERVAL=30;COUNT=${count}`, 'SUMMARY:Slot', 'END:VEVENT', 'END:VCALENDAR', ''].join('\r\n');
      feeds.feeds.set('/many.ics', series(12_000));
      await integrate(a, '/many.ics');
      const range = { organizationId: a.orgId, startDate: '2027-03-01T00:00:00Z', endDate: '2028-02-28T00:00:00Z' };
      const res = await sync(a, range);
      expect([res.status, res.body.code]).toEqual([200, undefined]);
      expect(res.body).toMatchObject({ synced: 12_000, skipped: 0 });
      const events = async (type: string) =>
        Number((await t.query<{ n: string }>(`SELECT count(*) AS n FROM outbox_events WHERE organization_id = $1 AND type = $2`, [a.orgId, type]))[0]!.n);
      expect(await events('booking.created')).toBe(12_000);
      // Every booking is announced once, in the order of the bookings' starts.
      const order = await t.query<{ ok: boolean }>(
        `SELECT bool_and(prev IS NULL OR prev <= start) AS ok FROM (
           SELECT (data->>'start_time')::timestamptz AS start, lag((data->>'start_time')::timestamptz) OVER (ORDER BY seq) AS prev
             FROM outbox_events WHERE organization_id = $1 AND type = 'booking.created') e`,
        [a.orgId],
      );
      expect(order[0]!.ok).toBe(true);
      // The series is gone from the feed: 12,000 cancellations in one more run.
      feeds.feeds.set('/many.ics', series(1));
      const again = await sync(a, range);
      expect([again.status, again.body.cancelled]).toEqual([200, 11_999]);
      expect(await events('booking.cancelled')).toBe(11_999);
    }, 300_000);
  });

  describe('the link between a booking and its feed occurrence (issue 12 item 3)', () => {
    const one = (uid: string, start: string, end: string) =>
      `BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:-//t//EN\r\nBEGIN:VEVENT\r\nUID:${uid}\r\nDTSTART:${start}\r\nDTEND:${end}\r\nSUMMARY:From feed\r\nEND:VEVENT\r\nEND:VCALENDAR\r\n`;
    const empty = 'BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:-//t//EN\r\nEND:VCALENDAR\r\n';

    it('never touches a booking an API client labelled as imported', async () => {
      const a = await admin();
      const forged = await t.api
        .post('/api/v1/bookings')
        .set(a.auth)
        .send({
          schedule_id: a.scheduleId,
          start_time: '2027-03-10T09:00:00Z',
          end_time: '2027-03-10T10:00:00Z',
          title: 'Mine',
          attendee: { name: 'Me', email: 'me@example.com' },
          metadata: { source: 'external_calendar', external_uid: 'victim@feed' },
        })
        .expect(201);
      // A feed with that UID elsewhere in time: the sync makes its own booking, it does not move ours.
      feeds.feeds.set('/forged.ics', one('victim@feed', '20270311T090000Z', '20270311T100000Z'));
      await integrate(a, '/forged.ics');
      expect((await sync(a).expect(200)).body).toMatchObject({ synced: 1, updated: 0, cancelled: 0 });
      // A feed without it: nothing of ours is cancelled.
      feeds.feeds.set('/forged.ics', empty);
      expect((await sync(a).expect(200)).body).toMatchObject({ synced: 0, cancelled: 1 });
      const mine = await t.api.get(`/api/v1/bookings/${forged.body.data.id}`).set(a.auth).expect(200);
      expect(mine.body.data).toMatchObject({
        status: 'PENDING',
        title: 'Mine',
        start_time: '2027-03-10T09:00:00.000Z',
        attendee_name: 'Me',
      });
    });

    it('keeps recognising an imported booking whose metadata the client replaced', async () => {
      const a = await admin();
      feeds.feeds.set('/kept.ics', one('kept@feed', '20270312T090000Z', '20270312T100000Z'));
      await integrate(a, '/kept.ics');
      expect((await sync(a).expect(200)).body).toMatchObject({ synced: 1 });
      const [row] = await t.query<{ id: string }>(`SELECT id FROM bookings WHERE organization_id = $1`, [
        a.orgId,
      ]);
      await t.api
        .patch(`/api/v1/bookings/${row!.id}`)
        .set(a.auth)
        .send({ metadata: { note: 'mine now' } })
        .expect(200);
      // The same feed again: a duplicate, not a second booking.
      const again = await sync(a).expect(200);
      expect(again.body).toMatchObject({ synced: 0, updated: 0, cancelled: 0 });
      expect(await t.query(`SELECT 1 FROM bookings WHERE organization_id = $1`, [a.orgId])).toHaveLength(1);
      // Gone from the feed: cancelled by the sync as an imported booking.
      feeds.feeds.set('/kept.ics', empty);
      expect((await sync(a).expect(200)).body).toMatchObject({ cancelled: 1 });
      const [after] = await t.query<{ status: string }>(`SELECT status FROM bookings WHERE id = $1`, [
        row!.id,
      ]);
      expect(after!.status).toBe('CANCELLED');
    });

    it('announces each booking it changes and one calendar.synced per run; nothing for a failed run', async () => {
      const a = await admin();
      const typesOf = async () =>
        (
          await t.query<{ type: string; previous_status: string | null }>(
            'SELECT type, previous_status FROM outbox_events WHERE organization_id = $1 ORDER BY seq',
            [a.orgId],
          )
        ).map((e) => (e.previous_status ? `${e.type}<${e.previous_status}` : e.type));
      feeds.feeds.set('/announced.ics', one('a@feed', '20270314T090000Z', '20270314T100000Z'));
      await integrate(a, '/announced.ics');
      await sync(a).expect(200);
      expect(await typesOf()).toEqual(['booking.created', 'calendar.synced']);
      feeds.feeds.set('/announced.ics', one('a@feed', '20270314T110000Z', '20270314T120000Z'));
      await sync(a).expect(200);
      feeds.feeds.set('/announced.ics', empty);
      await sync(a).expect(200);
      feeds.feeds.set('/announced.ics', one('a@feed', '20270314T110000Z', '20270314T120000Z'));
      await sync(a).expect(200);
      await integrate(a, '/down.ics');
      await sync(a).expect(502);
      expect(await typesOf()).toEqual([
        'booking.created',
        'calendar.synced',
        'booking.updated',
        'calendar.synced',
        'booking.cancelled<CONFIRMED',
        'calendar.synced',
        'booking.confirmed<CANCELLED',
        'calendar.synced',
      ]);
      const [summary] = await t.query<{ data: Record<string, unknown> }>(
        `SELECT data FROM outbox_events WHERE organization_id = $1 AND type = 'calendar.synced' ORDER BY seq LIMIT 1`,
        [a.orgId],
      );
      expect(summary!.data).toMatchObject({
        schedule_id: a.scheduleId,
        success: true,
        synced: 1,
        updated: 0,
        cancelled: 0,
      });
    });
  });
});
