import { TrustedProxies } from '@almanac/shared';
import { request as httpRequest } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createTestApp, Tenant, TestApp } from '../support/test-app';
import { createSchedule } from './scheduling-helpers';

type Answer = { status: number; headers: Record<string, string | string[] | undefined>; text: string };

/** A GET sent from a chosen loopback address (127.0.0.x), as a distinct client. */
function getFrom(t: TestApp, localAddress: string, path: string, headers: Record<string, string> = {}): Promise<Answer> {
  const { port } = t.server.address() as AddressInfo;
  return new Promise((resolve, reject) => {
    const req = httpRequest({ host: '127.0.0.1', port, localAddress, path, method: 'GET', agent: false, headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, text: Buffer.concat(chunks).toString('utf8') }));
    });
    req.on('error', reject);
    req.end();
  });
}

const uids = (ics: string) => [...ics.matchAll(/\r\nUID:([0-9a-f-]+)@almanac\r\n/g)].map((m) => m[1]!);

/**
 * The unauthenticated feed address was the costliest read of all (a 40,000-booking feed: 12 MB and
 * 0.7 s, on every poll): it shows at most 2,000 events, the nearest to now; an unchanged feed is
 * served from memory by its ETag; and it is rate-limited per feed and per client.
 */
describe('calendar feed costs (e2e)', () => {
  describe('size and rendering', () => {
    let t: TestApp;
    let a: Tenant;

    beforeAll(async () => {
      t = await createTestApp({ config: { rateLimitPerMinute: 0 } });
      a = await t.tenant();
    });
    afterAll(() => t.close());

    const newFeed = async (scheduleId: string) =>
      new URL((await t.api.post(`/api/v1/schedules/${scheduleId}/calendar-feed`).set(a.auth).expect(201)).body.data.url).pathname;

    it('shows at most 2,000 events, the ones nearest to now, and its ETag follows what it shows as time passes', async () => {
      const scheduleId = await createSchedule(t, a);
      const now = t.clock.now().getTime();
      const base = now - 29 * 86_400_000;
      // 2,010 half-hour bookings two hours apart: 348 in the past 29 days, the rest up to ~138 days ahead.
      const ids = (
        await t.query<{ id: string }>(
          `INSERT INTO bookings (id, organization_id, schedule_id, start_time, end_time, timezone, status, title, attendee_name, created_at, updated_at)
           SELECT gen_random_uuid(), $1, $2, $3::timestamptz + k * interval '2 hours', $3::timestamptz + k * interval '2 hours' + interval '30 minutes',
                  'UTC', 'CONFIRMED', 'Visit ' || k, 'Guest ' || k, $4, $4
             FROM generate_series(0, 2009) AS k
           RETURNING id`,
          [a.orgId, scheduleId, new Date(base), new Date(now)],
        )
      ).map((row) => row.id);
      const path = await newFeed(scheduleId);

      const first = await t.raw().get(path).buffer(true).expect(200);
      const shown = uids(first.text);
      expect(shown).toHaveLength(2000);
      // The farthest ten (the last ones ahead) are left out; everything nearer is there.
      expect(shown.sort()).toEqual(ids.slice(0, 2000).sort());

      // A day later the same bookings are the nearest ones: the same feed, 304.
      t.clock.advance(86_400_000);
      await t.raw().get(path).set('If-None-Match', first.headers['etag'] as string).expect(304);
      // Three days later the oldest ones have left the 30-day window, and the farthest come in.
      t.clock.advance(2 * 86_400_000);
      const later = await t.raw().get(path).set('If-None-Match', first.headers['etag'] as string).buffer(true).expect(200);
      expect(later.headers['etag']).not.toBe(first.headers['etag']);
      expect(uids(later.text)).toHaveLength(2010 - 24);
      expect(uids(later.text)).toEqual(expect.arrayContaining(ids.slice(2000)));
    });

    it('serves an unchanged feed from memory by its ETag, without reading or rendering it again', async () => {
      const scheduleId = await createSchedule(t, a);
      const [booking] = await t.query<{ id: string }>(
        `INSERT INTO bookings (id, organization_id, schedule_id, start_time, end_time, timezone, status, title, attendee_name, created_at, updated_at)
         VALUES (gen_random_uuid(), $1, $2, $3, $4, 'UTC', 'CONFIRMED', 'Checkup', 'Ada', $5, $5) RETURNING id`,
        [a.orgId, scheduleId, new Date(t.clock.now().getTime() + 86_400_000), new Date(t.clock.now().getTime() + 90_000_000), t.clock.now()],
      );
      const path = await newFeed(scheduleId);
      const first = await t.raw().get(path).buffer(true).expect(200);
      expect(first.text).toContain('SUMMARY:Checkup\r\n');

      // Behind the service's back, a title changes without the version every write bumps (the trigger
      // is switched off for it): the ETag cannot see it, so a rebuilt feed would show it, a kept one not.
      await t.dataSource.transaction(async (em) => {
        await em.query('ALTER TABLE bookings DISABLE TRIGGER bookings_bump_version');
        await em.query(`UPDATE bookings SET title = 'Changed behind the back' WHERE id = $1`, [booking!.id]);
        await em.query('ALTER TABLE bookings ENABLE TRIGGER bookings_bump_version');
      });
      const again = await t.raw().get(path).buffer(true).expect(200);
      expect(again.headers['etag']).toBe(first.headers['etag']);
      expect(again.text).toBe(first.text);
      expect(again.headers['content-length']).toBe(String(Buffer.byteLength(first.text)));

      // A real change (through the API, which bumps the version) is a new ETag and a new rendering.
      t.clock.advance(1_000);
      await t.api.patch(`/api/v1/bookings/${booking!.id}`).set(a.auth).send({ location: 'Room 2' }).expect(200);
      const changed = await t.raw().get(path).buffer(true).expect(200);
      expect(changed.headers['etag']).not.toBe(first.headers['etag']);
      expect(changed.text).toContain('SUMMARY:Changed behind the back\r\n');
      expect(changed.text).toContain('LOCATION:Room 2\r\n');
    });

    it('documents the cap and the limits', () => {
      const operation = (t.document['paths'] as any)['/calendar/{file}'].get;
      expect(operation.description).toContain('at most 2,000: when there are more, the ones starting nearest to now');
      expect(operation.description).toContain('CALENDAR_FEED_RATE_LIMIT_PER_MINUTE');
      expect(operation.responses['429'].headers['Retry-After']).toBeDefined();
    });
  });

  describe('rate limits', () => {
    let t: TestApp;
    let a: Tenant;
    const PROXY = '127.0.0.1';

    beforeAll(async () => {
      t = await createTestApp({
        config: { calendarFeedRateLimitPerMinute: 3, calendarFeedClientRateLimitPerMinute: 5, trustedProxies: TrustedProxies.parse(PROXY) },
      });
      await new Promise<void>((resolve) => t.server.listen(0, '127.0.0.1', resolve));
      a = await t.tenant();
    });
    afterAll(() => t.close());

    const newFeed = async () => {
      const scheduleId = await createSchedule(t, a);
      return new URL((await t.api.post(`/api/v1/schedules/${scheduleId}/calendar-feed`).set(a.auth).expect(201)).body.data.url).pathname;
    };
    const statuses = async (count: number, from: string, path: string, headers: Record<string, string> = {}) => {
      const answers: Answer[] = [];
      for (let i = 0; i < count; i++) answers.push(await getFrom(t, from, path, headers));
      return answers;
    };

    it('limits each feed address, whoever asks, and each client, whatever it asks for', async () => {
      const [feedA, feedB] = [await newFeed(), await newFeed()];
      expect((await statuses(3, '127.0.0.2', feedA)).map((r) => r.status)).toEqual([200, 200, 200]);
      const tokenLimited = await getFrom(t, '127.0.0.2', feedA);
      expect(tokenLimited.status).toBe(429);
      expect(tokenLimited.headers['content-type']).toMatch(/^application\/problem\+json/);
      expect(JSON.parse(tokenLimited.text)).toMatchObject({ code: 'rate_limited', detail: expect.stringContaining('this calendar feed') });
      expect(Number(tokenLimited.headers['retry-after'])).toBeGreaterThan(0);
      // The feed's limit holds for every client …
      expect((await getFrom(t, '127.0.0.3', feedA)).status).toBe(429);
      // … and the client's for every feed: 127.0.0.2 has made 4 requests, one more is allowed.
      expect((await getFrom(t, '127.0.0.2', feedB)).status).toBe(200);
      const clientLimited = await getFrom(t, '127.0.0.2', feedB);
      expect(clientLimited.status).toBe(429);
      expect(JSON.parse(clientLimited.text).detail).toContain('from this client');

      // Unknown tokens count too: they cost a lookup each.
      const unknown: number[] = [];
      for (const n of [1, 2, 3, 4, 5, 6]) unknown.push((await getFrom(t, '127.0.0.4', `/calendar/3kTMd9vQx2LpZs8NbR4cWy7Hf1JgA6U${n}.ics`)).status);
      expect(unknown).toEqual([404, 404, 404, 404, 404, 429]);

      // A minute later, both limits start again.
      t.clock.advance(60_000);
      expect((await getFrom(t, '127.0.0.2', feedA)).status).toBe(200);
    });

    it('behind the trusted proxy, counts the client the proxy names, not the proxy', async () => {
      const feeds = [await newFeed(), await newFeed()];
      const via = (client: string) => ({ 'X-Forwarded-For': `198.51.100.1, ${client}` });
      const first = await Promise.all([0, 1, 0, 1, 0].map((i) => getFrom(t, PROXY, feeds[i]!, via('203.0.113.5'))));
      expect(first.map((r) => r.status)).toEqual([200, 200, 200, 200, 200]);
      expect((await getFrom(t, PROXY, feeds[1]!, via('203.0.113.5'))).status).toBe(429);
      expect((await getFrom(t, PROXY, feeds[1]!, via('203.0.113.6'))).status).toBe(200);
    });
  });
});
