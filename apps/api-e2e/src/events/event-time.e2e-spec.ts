import { createTestApp, Tenant, TestApp } from '../support/test-app';

/**
 * upcoming=true keeps events not yet ended, past=true those ended. An event runs from start_date +
 * start_time (00:00 when absent) to start_date + end_time (end of day when absent), in its own zone.
 */
describe('events upcoming / past (e2e)', () => {
  let t: TestApp;
  let a: Tenant;

  beforeAll(async () => {
    t = await createTestApp();
  });
  beforeEach(async () => {
    a = await t.tenant();
  });
  afterAll(async () => {
    await t.close();
  });

  async function make(title: string, fields: Record<string, unknown>): Promise<void> {
    await t.api.post('/api/v1/events').set(a.auth).send({ title, ...fields }).expect(201);
  }

  async function titles(query: string): Promise<string[]> {
    const res = await t.api.get(`/api/v1/events?${query}`).set(a.auth).expect(200);
    expect(res.body.meta.total).toBe(res.body.data.length);
    return (res.body.data as { title: string }[]).map((e) => e.title).sort();
  }

  async function split(): Promise<{ upcoming: string[]; past: string[] }> {
    return { upcoming: await titles('upcoming=true'), past: await titles('past=true') };
  }

  it('counts an event happening now as upcoming, not past', async () => {
    t.clock.set('2026-11-21T10:00:00.000Z');
    await make('happening-now', { start_date: '2026-11-21', start_time: '09:00', end_time: '11:00' });
    await make('ended-an-hour-ago', { start_date: '2026-11-21', start_time: '08:00', end_time: '09:00' });
    await make('ends-exactly-now', { start_date: '2026-11-21', start_time: '09:00', end_time: '10:00' });
    await make('all-day-today', { start_date: '2026-11-21' });
    await make('started-no-end-time', { start_date: '2026-11-21', start_time: '06:00' });
    await make('yesterday', { start_date: '2026-11-20' });
    await make('tomorrow', { start_date: '2026-11-22' });
    expect(await split()).toEqual({
      upcoming: ['all-day-today', 'happening-now', 'started-no-end-time', 'tomorrow'],
      past: ['ended-an-hour-ago', 'ends-exactly-now', 'yesterday'],
    });
    // Without upcoming/past every event is listed.
    expect(await titles('')).toHaveLength(7);
  });

  it('uses the event zone: later today in Tokyo and Kiritimati (ahead of UTC)', async () => {
    // 10:00 UTC is 19:00 in Tokyo (UTC+9) and 00:00 the next day in Kiritimati (UTC+14).
    t.clock.set('2026-11-21T10:00:00.000Z');
    await make('tokyo-tonight', { start_date: '2026-11-21', start_time: '21:00', end_time: '22:00', timezone: 'Asia/Tokyo' });
    await make('tokyo-this-afternoon', { start_date: '2026-11-21', start_time: '15:00', end_time: '18:59', timezone: 'Asia/Tokyo' });
    await make('tokyo-today-all-day', { start_date: '2026-11-21', timezone: 'Asia/Tokyo' });
    // Kiritimati's 2026-11-21 ended exactly now; its 2026-11-22 has just begun ("later today" there).
    await make('kiritimati-yesterday-all-day', { start_date: '2026-11-21', timezone: 'Pacific/Kiritimati' });
    await make('kiritimati-today-08:00', { start_date: '2026-11-22', start_time: '08:00', timezone: 'Pacific/Kiritimati' });
    // Behind UTC: Honolulu (UTC-10) is still at 00:00 on 2026-11-21.
    await make('honolulu-today', { start_date: '2026-11-21', start_time: '23:00', timezone: 'Pacific/Honolulu' });
    expect(await split()).toEqual({
      upcoming: ['honolulu-today', 'kiritimati-today-08:00', 'tokyo-today-all-day', 'tokyo-tonight'],
      past: ['kiritimati-yesterday-all-day', 'tokyo-this-afternoon'],
    });

    // Eight hours later (18:00 UTC = 03:00 next day in Tokyo): Tokyo's evening is over.
    t.clock.set('2026-11-21T18:00:00.000Z');
    expect(await split()).toEqual({
      upcoming: ['honolulu-today', 'kiritimati-today-08:00'],
      past: ['kiritimati-yesterday-all-day', 'tokyo-this-afternoon', 'tokyo-today-all-day', 'tokyo-tonight'],
    });
  });

  it('keeps the events furthest behind UTC while they last (the list bounds start_date for upcoming)', async () => {
    // UTC-12: 2026-11-20 ends at 2026-11-21T12:00Z, a day and a half after its start_date's UTC midnight.
    t.clock.set('2026-11-21T11:30:00.000Z');
    await make('utc-12-yesterday', { start_date: '2026-11-20', timezone: 'Etc/GMT+12' });
    await make('utc-12-two-days-ago', { start_date: '2026-11-19', timezone: 'Etc/GMT+12' });
    await make('utc-today', { start_date: '2026-11-21', start_time: '12:00' });
    expect(await split()).toEqual({ upcoming: ['utc-12-yesterday', 'utc-today'], past: ['utc-12-two-days-ago'] });
    const page = await t.api.get('/api/v1/events?upcoming=true&limit=1').set(a.auth).expect(200);
    expect(page.body.data.map((e: { title: string }) => e.title)).toEqual(['utc-12-yesterday']);
    expect(page.body.meta).toEqual({ total: 2, limit: 1, offset: 0, hasMore: true });
    const beyond = await t.api.get('/api/v1/events?upcoming=true&offset=5').set(a.auth).expect(200);
    expect(beyond.body).toEqual({ data: [], meta: { total: 2, limit: 50, offset: 5, hasMore: false } });

    // The largest offset behind UTC the tz database knows: Manila's local mean time until 1844 (-15:56).
    t.clock.set('1844-12-30T15:00:00.000Z');
    await make('manila-1844', { start_date: '1844-12-29', timezone: 'Asia/Manila' });
    const [row] = await t.query<{ ends_at: Date }>("SELECT ends_at FROM events WHERE organization_id = $1 AND title = 'manila-1844'", [a.orgId]);
    expect(row!.ends_at.getTime() - Date.parse('1844-12-29T00:00:00Z')).toBeGreaterThan(39 * 3600 * 1000);
    expect((await split()).upcoming).toEqual(['manila-1844', 'utc-12-two-days-ago', 'utc-12-yesterday', 'utc-today']);
  });

  it('is DST-correct in spring (Europe/Paris, 23-hour day)', async () => {
    // Clocks go 02:00 → 03:00 on 2026-03-29; that day ends at 22:00 UTC, not 23:00.
    await make('paris-dst-day', { start_date: '2026-03-29', timezone: 'Europe/Paris' });
    // After the change Paris is UTC+2: 10:00-11:00 local is 08:00-09:00 UTC.
    await make('paris-after-change', { start_date: '2026-03-29', start_time: '10:00', end_time: '11:00', timezone: 'Europe/Paris' });
    // Before the change Paris is UTC+1: 01:00-01:30 local is 00:00-00:30 UTC.
    await make('paris-before-change', { start_date: '2026-03-29', start_time: '01:00', end_time: '01:30', timezone: 'Europe/Paris' });

    t.clock.set('2026-03-29T00:15:00.000Z');
    expect(await split()).toEqual({ upcoming: ['paris-after-change', 'paris-before-change', 'paris-dst-day'], past: [] });
    t.clock.set('2026-03-29T00:30:00.000Z');
    expect(await split()).toEqual({ upcoming: ['paris-after-change', 'paris-dst-day'], past: ['paris-before-change'] });
    t.clock.set('2026-03-29T09:30:00.000Z');
    expect(await split()).toEqual({ upcoming: ['paris-dst-day'], past: ['paris-after-change', 'paris-before-change'] });
    t.clock.set('2026-03-29T21:59:00.000Z');
    expect((await split()).upcoming).toEqual(['paris-dst-day']);
    t.clock.set('2026-03-29T22:30:00.000Z');
    expect(await split()).toEqual({ upcoming: [], past: ['paris-after-change', 'paris-before-change', 'paris-dst-day'] });

    const rows = await t.query<{ title: string; starts_at: Date; ends_at: Date }>(
      'SELECT title, starts_at, ends_at FROM events WHERE organization_id = $1 ORDER BY title',
      [a.orgId],
    );
    expect(rows.map((r) => [r.title, r.starts_at.toISOString(), r.ends_at.toISOString()])).toEqual([
      ['paris-after-change', '2026-03-29T08:00:00.000Z', '2026-03-29T09:00:00.000Z'],
      ['paris-before-change', '2026-03-29T00:00:00.000Z', '2026-03-29T00:30:00.000Z'],
      ['paris-dst-day', '2026-03-28T23:00:00.000Z', '2026-03-29T22:00:00.000Z'],
    ]);
  });

  it('is DST-correct in autumn (America/New_York, 25-hour day)', async () => {
    // Clocks go 02:00 → 01:00 on 2026-11-01; that day runs 04:00 UTC to 05:00 UTC the next day.
    await make('ny-fallback-day', { start_date: '2026-11-01', timezone: 'America/New_York' });
    // 23:00-23:59 local on the change day is EST (UTC-5): 04:00-04:59 UTC next day.
    await make('ny-late-evening', { start_date: '2026-11-01', start_time: '23:00', end_time: '23:59', timezone: 'America/New_York' });
    // The day before is EDT (UTC-4): ends at 2026-11-01T04:00Z.
    await make('ny-day-before', { start_date: '2026-10-31', timezone: 'America/New_York' });

    t.clock.set('2026-11-02T04:30:00.000Z');
    expect(await split()).toEqual({ upcoming: ['ny-fallback-day', 'ny-late-evening'], past: ['ny-day-before'] });
    t.clock.set('2026-11-02T04:59:00.000Z');
    expect(await split()).toEqual({ upcoming: ['ny-fallback-day'], past: ['ny-day-before', 'ny-late-evening'] });
    t.clock.set('2026-11-02T05:00:00.000Z');
    expect(await split()).toEqual({ upcoming: [], past: ['ny-day-before', 'ny-fallback-day', 'ny-late-evening'] });
  });

  it('recomputes the window when a PATCH moves the event to another zone', async () => {
    t.clock.set('2026-11-21T10:00:00.000Z');
    const res = await t.api
      .post('/api/v1/events')
      .set(a.auth)
      .send({ title: 'moving', start_date: '2026-11-21', start_time: '12:00', end_time: '13:00' })
      .expect(201);
    expect(await split()).toEqual({ upcoming: ['moving'], past: [] });
    // 12:00-13:00 in Tokyo was 03:00-04:00 UTC: over.
    await t.api.patch(`/api/v1/events/${res.body.data.id}`).set(a.auth).send({ timezone: 'Asia/Tokyo' }).expect(200);
    expect(await split()).toEqual({ upcoming: [], past: ['moving'] });
  });

  it('combines upcoming with the other filters', async () => {
    t.clock.set('2026-11-21T10:00:00.000Z');
    await make('up-published', { start_date: '2026-12-01', status: 'published' });
    await make('up-draft', { start_date: '2026-12-02' });
    await make('past-published', { start_date: '2026-11-01', status: 'published' });
    expect(await titles('upcoming=true&status=published')).toEqual(['up-published']);
    expect(await titles('past=true&status=published')).toEqual(['past-published']);
    expect(await titles('upcoming=true&end_date=2026-12-01')).toEqual(['up-published']);
  });
});
