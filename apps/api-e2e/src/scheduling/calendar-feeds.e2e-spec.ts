import ICAL from 'ical.js';
import type { AddressInfo } from 'node:net';
import { createTestApp, Tenant, TestApp } from '../support/test-app';
import { bookingBody, createSchedule } from './scheduling-helpers';

const ORIGIN = 'http://localhost:3000';

/** Calendar feeds out: exact RFC 5545, conditional requests, and our own import reading them. */
describe('calendar feeds (e2e)', () => {
  let t: TestApp;
  let a: Tenant;
  let base: string;

  beforeAll(async () => {
    t = await createTestApp({
      config: { calendarAllowPrivateHosts: true, webhookDispatcher: false, rateLimitPerMinute: 0 },
    });
    await new Promise<void>((resolve) => t.server.listen(0, '127.0.0.1', resolve));
    base = `http://127.0.0.1:${(t.server.address() as AddressInfo).port}`;
    a = await t.tenant();
  });
  afterAll(() => t.close());

  const at = (daysAhead: number, hour: number) => {
    const d = new Date(t.clock.now().getTime() + daysAhead * 86_400_000);
    d.setUTCHours(hour, 0, 0, 0);
    return d.toISOString();
  };
  const book = async (tenant: Tenant, scheduleId: string, day: number, extra: Record<string, unknown> = {}) =>
    (
      await t.api
        .post('/api/v1/bookings')
        .set(tenant.auth)
        .send(bookingBody(scheduleId, { start_time: at(day, 10), end_time: at(day, 11), ...extra }))
        .expect(201)
    ).body.data;
  const pathOf = (url: string) => new URL(url).pathname;

  it('creates, reads, replaces and deletes a feed; the old address stops working', async () => {
    const scheduleId = await createSchedule(t, a, { name: 'Front desk' });
    await t.api.get(`/api/v1/schedules/${scheduleId}/calendar-feed`).set(a.auth).expect(404);
    const created = await t.api.post(`/api/v1/schedules/${scheduleId}/calendar-feed`).set(a.auth).expect(201);
    expect(created.body.data.url).toMatch(/^http:\/\/localhost:3000\/calendar\/[0-9A-Za-z]{32}\.ics$/);
    const info = await t.api.get(`/api/v1/schedules/${scheduleId}/calendar-feed`).set(a.auth).expect(200);
    expect(info.body.data).toEqual({ created_at: created.body.data.created_at, last_fetched_at: null });
    const [stored] = await t.query<{ token_hash: string }>(
      'SELECT token_hash FROM calendar_feeds WHERE schedule_id = $1',
      [scheduleId],
    );
    expect(stored!.token_hash).not.toContain(pathOf(created.body.data.url).slice(10, 42));
    await t.raw().get(pathOf(created.body.data.url)).expect(200);
    expect(
      (await t.api.get(`/api/v1/schedules/${scheduleId}/calendar-feed`).set(a.auth).expect(200)).body.data
        .last_fetched_at,
    ).not.toBeNull();

    const replaced = await t.api
      .post(`/api/v1/schedules/${scheduleId}/calendar-feed`)
      .set(a.auth)
      .expect(201);
    await t.raw().get(pathOf(created.body.data.url)).expect(404);
    await t.raw().get(pathOf(replaced.body.data.url)).expect(200);
    const b = await t.tenant();
    await t.api.get(`/api/v1/schedules/${scheduleId}/calendar-feed`).set(b.auth).expect(404);
    await t.api.delete(`/api/v1/schedules/${scheduleId}/calendar-feed`).set(a.auth).expect(200);
    await t.raw().get(pathOf(replaced.body.data.url)).expect(404);
    await t.raw().get('/calendar/not-a-token.ics').expect(404);
  });

  it('serves exact RFC 5545: CRLF, folding at 75 octets, escaping, statuses, SEQUENCE; no e-mail or phone', async () => {
    const scheduleId = await createSchedule(t, a, { name: 'Room, A; B' });
    const hostile = 'Lunch, then; a\\b\nX-INJECTED:yes 😀 ' + 'é'.repeat(280);
    const pending = await book(a, scheduleId, 2, {
      title: hostile.slice(0, 300),
      location: 'Floor 2, Room 1',
      attendee: { name: 'Ada Lovelace', email: 'ada@secret.example', phone: '+33 6 00 00 00 00' },
    });
    const confirmed = await book(a, scheduleId, 3);
    await t.api
      .patch(`/api/v1/bookings/${confirmed.id}`)
      .set(a.auth)
      .send({ status: 'CONFIRMED' })
      .expect(200);
    const cancelled = await book(a, scheduleId, 4);
    await t.api.delete(`/api/v1/bookings/${cancelled.id}`).set(a.auth).expect(200);
    await book(a, scheduleId, 400); // beyond 366 days: not in the feed
    const url = (await t.api.post(`/api/v1/schedules/${scheduleId}/calendar-feed`).set(a.auth).expect(201))
      .body.data.url;

    const res = await t
      .raw()
      .get(pathOf(url))
      .buffer(true)
      .parse((r, cb) => {
        const chunks: Buffer[] = [];
        r.on('data', (c: Buffer) => chunks.push(c));
        r.on('end', () => cb(null, Buffer.concat(chunks)));
      });
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toBe('text/calendar; charset=utf-8');
    const bytes = res.body as Buffer;
    const text = bytes.toString('utf8');
    expect(text.endsWith('\r\n')).toBe(true);
    expect(text.replace(/\r\n/g, '')).not.toMatch(/[\r\n]/);
    for (const line of text.split('\r\n')) expect(Buffer.byteLength(line)).toBeLessThanOrEqual(75);
    expect(text).not.toMatch(/\r\nX-INJECTED/);
    expect(text).not.toContain('ada@secret.example');
    expect(text).not.toContain('+33');
    expect(text).toContain('NAME:Room\\, A\\; B\r\n');
    expect(text).toContain('REFRESH-INTERVAL;VALUE=DURATION:PT15M\r\n');
    expect(text).toContain('X-WR-CALNAME:Room\\, A\\; B\r\n');

    const calendar = new ICAL.Component(ICAL.parse(text) as unknown[]);
    const events = calendar.getAllSubcomponents('vevent').map((v) => new ICAL.Event(v));
    expect(events.map((e) => e.uid).sort()).toEqual(
      [pending.id, confirmed.id, cancelled.id].map((id) => `${id}@almanac`).sort(),
    );
    const byUid = Object.fromEntries(events.map((e) => [e.uid, e]));
    expect(byUid[`${pending.id}@almanac`]!.summary).toBe(hostile.slice(0, 300));
    expect(byUid[`${pending.id}@almanac`]!.location).toBe('Floor 2, Room 1');
    expect(byUid[`${pending.id}@almanac`]!.description).toBe('Attendee: Ada Lovelace');
    expect(byUid[`${pending.id}@almanac`]!.component.getFirstPropertyValue('status')).toBe('TENTATIVE');
    expect(byUid[`${confirmed.id}@almanac`]!.component.getFirstPropertyValue('status')).toBe('CONFIRMED');
    expect(byUid[`${cancelled.id}@almanac`]!.component.getFirstPropertyValue('status')).toBe('CANCELLED');
    expect(byUid[`${pending.id}@almanac`]!.component.getFirstPropertyValue('sequence')).toBe(0);
    expect(byUid[`${confirmed.id}@almanac`]!.component.getFirstPropertyValue('sequence')).toBe(1);
    expect(byUid[`${pending.id}@almanac`]!.startDate.toJSDate().toISOString()).toBe(pending.start_time);
  });

  it('answers 304 to If-None-Match and If-Modified-Since, and changes its ETag with every change', async () => {
    const scheduleId = await createSchedule(t, a);
    const booking = await book(a, scheduleId, 5);
    const path = pathOf(
      (await t.api.post(`/api/v1/schedules/${scheduleId}/calendar-feed`).set(a.auth).expect(201)).body.data
        .url,
    );
    const first = await t.raw().get(path).expect(200);
    const etag = first.headers['etag'] as string;
    expect(etag).toMatch(/^"[A-Za-z0-9_-]+"$/);
    const unchanged = await t.raw().get(path).set('If-None-Match', etag).expect(304);
    expect(unchanged.text ?? '').toBe('');
    await t
      .raw()
      .get(path)
      .set('If-Modified-Since', first.headers['last-modified'] as string)
      .expect(304);
    t.clock.advance(2000);
    await t.api.patch(`/api/v1/bookings/${booking.id}`).set(a.auth).send({ title: 'Moved' }).expect(200);
    const changed = await t.raw().get(path).set('If-None-Match', etag).expect(200);
    expect(changed.headers['etag']).not.toBe(etag);
    await t.api.delete(`/api/v1/bookings/${booking.id}`).set(a.auth).expect(200);
    const afterCancel = await t
      .raw()
      .get(path)
      .set('If-None-Match', changed.headers['etag'] as string)
      .expect(200);
    expect(afterCancel.text).toContain('STATUS:CANCELLED');
  });

  it('gives one booking as a .ics (METHOD:PUBLISH), to its own organization only', async () => {
    const scheduleId = await createSchedule(t, a);
    const booking = await book(a, scheduleId, 6);
    const res = await t.raw().get(`/api/v1/bookings/${booking.id}/calendar.ics`).set(a.auth).expect(200);
    expect(res.headers['content-type']).toBe('text/calendar; charset=utf-8');
    expect(res.text).toContain('METHOD:PUBLISH\r\n');
    expect(res.text.match(/BEGIN:VEVENT/g)).toHaveLength(1);
    const b = await t.tenant();
    await t.raw().get(`/api/v1/bookings/${booking.id}/calendar.ics`).set(b.auth).expect(404);
  });

  it('is read by our own import: another organization imports exactly the PENDING and CONFIRMED bookings, and later drops a cancelled one', async () => {
    const source = await t.tenant();
    const scheduleId = await createSchedule(t, source);
    const kept = await book(source, scheduleId, 7);
    const confirmed = await book(source, scheduleId, 8);
    await t.api
      .patch(`/api/v1/bookings/${confirmed.id}`)
      .set(source.auth)
      .send({ status: 'CONFIRMED' })
      .expect(200);
    const cancelled = await book(source, scheduleId, 9);
    await t.api.delete(`/api/v1/bookings/${cancelled.id}`).set(source.auth).expect(200);
    const feedUrl = `${base}${pathOf((await t.api.post(`/api/v1/schedules/${scheduleId}/calendar-feed`).set(source.auth).expect(201)).body.data.url)}`;

    const target = await t.tenant();
    await t.identity.createUser({
      organizationId: target.orgId,
      email: 'sync@target.example',
      name: 'Sync',
      password: 'correct horse battery',
      role: 'admin',
    });
    const login = await t.api
      .post('/api/auth/login')
      .set('Origin', ORIGIN)
      .send({ email: 'sync@target.example', password: 'correct horse battery' })
      .expect(200);
    const cookie = String(login.headers['set-cookie']![0]).split(';')[0]!;
    const targetSchedule = await createSchedule(t, target);
    await t.api
      .put(`/api/organizations/${target.orgId}/calendar-integration`)
      .set('Cookie', cookie)
      .set('Origin', ORIGIN)
      .send({ provider: 'ics', url: feedUrl, schedule_id: targetSchedule })
      .expect(200);
    const range = { organizationId: target.orgId, startDate: at(0, 0), endDate: at(30, 0) };
    const sync = () =>
      t.api.post('/api/bookings/sync-external').set('Cookie', cookie).set('Origin', ORIGIN).send(range);
    const first = await sync().expect(200);
    expect(first.body).toMatchObject({ synced: 2, updated: 0, cancelled: 0 });
    const imported = await t.query<{ start_time: Date; external_uid: string }>(
      `SELECT start_time, external_uid FROM bookings WHERE organization_id = $1 AND status = 'CONFIRMED' ORDER BY start_time`,
      [target.orgId],
    );
    expect(imported.map((r) => r.external_uid)).toEqual([`${kept.id}@almanac`, `${confirmed.id}@almanac`]);
    expect(imported.map((r) => r.start_time.toISOString())).toEqual([kept.start_time, confirmed.start_time]);

    await t.api.delete(`/api/v1/bookings/${kept.id}`).set(source.auth).expect(200);
    const second = await sync().expect(200);
    expect(second.body).toMatchObject({ synced: 0, cancelled: 1 });
    const active = await t.query(
      `SELECT 1 FROM bookings WHERE organization_id = $1 AND status = 'CONFIRMED'`,
      [target.orgId],
    );
    expect(active).toHaveLength(1);
  });
});
