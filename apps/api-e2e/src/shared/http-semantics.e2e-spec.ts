import { changeFeedCaughtUp } from '../support/change-feed';
import { createTestApp, Tenant, TestApp } from '../support/test-app';

/**
 * HTTP semantics (docs/contract/http.md): strong ETags and If-None-Match on every single-record GET,
 * If-Match on every PATCH and DELETE (checked in the write's transaction), Link on every page,
 * RateLimit-Policy beside the rate-limit headers.
 */
describe('HTTP semantics: conditional requests, Link, RateLimit-Policy (e2e)', () => {
  let t: TestApp;
  let a: Tenant;
  let scheduleId: string;
  let minute = 0;

  beforeAll(async () => {
    t = await createTestApp({ config: { rateLimitPerMinute: 100_000, webhookDispatcher: false, webhookAllowPrivateHosts: true } });
    a = await t.tenant();
    scheduleId = (await t.api.post('/api/v1/schedules').set(a.auth).send({ name: 'Room' }).expect(201)).body.data.id;
  });
  afterAll(() => t.close());

  const booking = async (fields: Record<string, unknown> = {}) => {
    const start = new Date(Date.UTC(2031, 0, 1) + minute++ * 3_600_000);
    return (
      await t.api
        .post('/api/v1/bookings')
        .set(a.auth)
        .send({
          schedule_id: scheduleId,
          start_time: start.toISOString(),
          end_time: new Date(start.getTime() + 1_800_000).toISOString(),
          title: 'Call',
          attendee: { name: 'Ada', email: 'ada@example.com' },
          ...fields,
        })
        .expect(201)
    ).body.data as { id: string };
  };

  interface Resource {
    name: string;
    /** Creates one and answers its path. */
    create(): Promise<string>;
    /** A PATCH body that changes it (undefined: the resource has no PATCH). */
    patch?: (n: number) => Record<string, unknown>;
    /** A field the PATCH body sets, to read back. */
    field?: string;
  }

  const created = async (path: string, body: Record<string, unknown>) =>
    `${path}/${(await t.api.post(path).set(a.auth).send(body).expect(201)).body.data.id}`;
  let n = 0;
  const RESOURCES: Resource[] = [
    { name: 'schedule', create: () => created('/api/v1/schedules', { name: 'S' }), patch: (i) => ({ name: `S${i}` }), field: 'name' },
    {
      name: 'event type',
      create: () => created('/api/v1/event-types', { title: 'Intro', duration: 30, slug: `intro-${n++}` }),
      patch: (i) => ({ title: `Intro ${i}` }),
      field: 'title',
    },
    { name: 'booking', create: async () => `/api/v1/bookings/${(await booking()).id}`, patch: (i) => ({ title: `Call ${i}` }), field: 'title' },
    { name: 'event', create: () => created('/api/v1/events', { title: 'Talk', start_date: '2031-05-01' }), patch: (i) => ({ title: `Talk ${i}` }), field: 'title' },
    {
      name: 'registration',
      create: async () => {
        const eventPath = await created('/api/v1/events', { title: 'Open', start_date: '2031-05-01', status: 'published' });
        return created(`${eventPath}/registrations`, { name: 'Grace', email: `g${n++}@example.com` });
      },
    },
    { name: 'post', create: () => created('/api/v1/posts', { title: 'Hello', slug: `hello-${n++}` }), patch: (i) => ({ title: `Hello ${i}` }), field: 'title' },
    { name: 'category', create: () => created('/api/v1/posts/categories', { name: `Cat ${n++}` }), patch: (i) => ({ name: `Cat renamed ${i}` }), field: 'name' },
    { name: 'tag', create: () => created('/api/v1/posts/tags', { name: `Tag ${n++}` }), patch: (i) => ({ name: `Tag renamed ${i}` }), field: 'name' },
    {
      name: 'webhook',
      create: () => created('/api/v1/webhooks', { url: 'http://127.0.0.1:9/hook', events: ['booking.created'] }),
      patch: (i) => ({ description: `Hook ${i}` }),
      field: 'description',
    },
  ];

  const STRONG_ETAG = /^"[A-Za-z0-9_-]{20,}"$/;

  describe.each(RESOURCES)('$name', (resource) => {
    it('GET sends a strong ETag; If-None-Match with it (or its weak form) is 304 without a body', async () => {
      const path = await resource.create();
      const first = await t.api.get(path).set(a.auth).expect(200);
      const tag = first.headers['etag'] as string;
      expect(tag).toMatch(STRONG_ETAG);
      expect((await t.api.get(path).set(a.auth).expect(200)).headers['etag']).toBe(tag);

      const notModified = await t.api.get(path).set(a.auth).set('If-None-Match', tag).expect(304);
      expect(notModified.text ?? '').toBe('');
      expect(notModified.headers['etag']).toBe(tag);
      await t.api.get(path).set(a.auth).set('If-None-Match', `"other", W/${tag}`).expect(304);
      await t.api.get(path).set(a.auth).set('If-None-Match', '*').expect(304);
      const changed = await t.api.get(path).set(a.auth).set('If-None-Match', '"not-it"').expect(200);
      expect(changed.body.data).toEqual(first.body.data);
    });

    if (resource.patch) {
      const patch = resource.patch;
      it('PATCH honours If-Match: a wrong or stale tag is 412 and changes nothing; the answer carries the new ETag', async () => {
        const path = await resource.create();
        const before = await t.api.get(path).set(a.auth).expect(200);
        const tag = before.headers['etag'] as string;

        for (const wrong of ['"nope"', `W/${tag}`, 'garbage']) {
          const refused = await t.api.patch(path).set(a.auth).set('If-Match', wrong).send(patch(1)).expect(412);
          expect(refused.body.code).toBe('precondition_failed');
          expect(refused.headers['content-type']).toMatch(/^application\/problem\+json/);
        }
        const still = await t.api.get(path).set(a.auth).expect(200);
        expect(still.body.data).toEqual(before.body.data);
        expect(still.headers['etag']).toBe(tag);

        const ok = await t.api.patch(path).set(a.auth).set('If-Match', `"other", ${tag}`).send(patch(2)).expect(200);
        expect(ok.body.data[resource.field!]).toBe(patch(2)[resource.field!]);
        const newTag = ok.headers['etag'] as string;
        expect(newTag).toMatch(STRONG_ETAG);
        expect(newTag).not.toBe(tag);
        expect((await t.api.get(path).set(a.auth).expect(200)).headers['etag']).toBe(newTag);

        // The old tag is stale now.
        await t.api.patch(path).set(a.auth).set('If-Match', tag).send(patch(3)).expect(412);
        expect((await t.api.get(path).set(a.auth).expect(200)).body.data[resource.field!]).toBe(patch(2)[resource.field!]);
        // `*` matches any current record; no If-Match at all still writes.
        await t.api.patch(path).set(a.auth).set('If-Match', '*').send(patch(4)).expect(200);
        await t.api.patch(path).set(a.auth).send(patch(5)).expect(200);
      });

      it('a PATCH that changes nothing is 400 with the one message every context uses', async () => {
        const path = await resource.create();
        const refused = await t.api.patch(path).set(a.auth).send({}).expect(400);
        expect(refused.body.errors).toEqual([{ field: 'body', message: 'must contain at least one field to change' }]);
      });
    }

    it('DELETE honours If-Match: a stale tag is 412 and the record stays; the current one deletes', async () => {
      const path = await resource.create();
      const tag = (await t.api.get(path).set(a.auth).expect(200)).headers['etag'] as string;
      const refused = await t.api.delete(path).set(a.auth).set('If-Match', '"stale"').expect(412);
      expect(refused.body.code).toBe('precondition_failed');
      const kept = await t.api.get(path).set(a.auth).expect(200);
      expect(kept.headers['etag']).toBe(tag);
      await t.api.delete(path).set(a.auth).set('If-Match', tag).expect(200);
    });
  });

  it('a record of another organization is 404 whatever the precondition', async () => {
    const other = await t.tenant();
    const path = `/api/v1/bookings/${(await booking()).id}`;
    await t.api.get(path).set(other.auth).set('If-None-Match', '*').expect(404);
    await t.api.patch(path).set(other.auth).set('If-Match', '*').send({ title: 'x' }).expect(404);
    await t.api.delete(path).set(other.auth).set('If-Match', '"x"').expect(404);
  });

  it('the ETag follows the representation, not only the row: a waiting registration moves up, a post shows a renamed tag', async () => {
    const eventPath = await created('/api/v1/events', { title: 'Full', start_date: '2031-05-01', status: 'published', slots: 1, waitlist_enabled: true });
    const first = await created(`${eventPath}/registrations`, { name: 'A', email: 'a@example.com' });
    await created(`${eventPath}/registrations`, { name: 'B', email: 'b@example.com' });
    const third = await created(`${eventPath}/registrations`, { name: 'C', email: 'c@example.com' });
    const before = await t.api.get(third).set(a.auth).expect(200);
    expect(before.body.data.position).toBe(2);
    await t.api.delete(first).set(a.auth).expect(200); // B is promoted; C becomes first in line
    const after = await t.api.get(third).set(a.auth).set('If-None-Match', before.headers['etag'] as string).expect(200);
    expect(after.body.data.position).toBe(1);
    expect(after.headers['etag']).not.toBe(before.headers['etag']);

    const tagId = (await t.api.post('/api/v1/posts/tags').set(a.auth).send({ name: 'Old name' }).expect(201)).body.data.id;
    const postPath = await created('/api/v1/posts', { title: 'Tagged', slug: 'tagged', tag_ids: [tagId] });
    const postBefore = await t.api.get(postPath).set(a.auth).expect(200);
    await t.api.patch(`/api/v1/posts/tags/${tagId}`).set(a.auth).send({ name: 'New name' }).expect(200);
    const postAfter = await t.api.get(postPath).set(a.auth).set('If-None-Match', postBefore.headers['etag'] as string).expect(200);
    expect(postAfter.body.data.tags[0].name).toBe('New name');
    // A PATCH with the tag the client saw before the rename is refused: what it saw is not current.
    await t.api.patch(postPath).set(a.auth).set('If-Match', postBefore.headers['etag'] as string).send({ title: 'x' }).expect(412);
  });

  it.each([
    ['booking', async () => `/api/v1/bookings/${(await booking()).id}`, (i: number) => ({ title: `Racer ${i}` }), 'bookings', 'title'],
    ['post', () => created('/api/v1/posts', { title: 'Race', slug: `race-${n++}` }), (i: number) => ({ title: `Racer ${i}` }), 'posts', 'title'],
    ['event', () => created('/api/v1/events', { title: 'Race', start_date: '2031-05-01' }), (i: number) => ({ title: `Racer ${i}` }), 'events', 'title'],
  ] as const)(
    '20 concurrent PATCHes of a %s with the same If-Match: exactly one wins, the rest are 412, and the row holds the winner',
    async (_name, create, body, table, column) => {
      const path = await create();
      const tag = (await t.api.get(path).set(a.auth).expect(200)).headers['etag'] as string;
      const answers = await Promise.all(
        Array.from({ length: 20 }, (_, i) => t.api.patch(path).set(a.auth).set('If-Match', tag).send(body(i))),
      );
      const statuses = answers.map((r) => r.status).sort();
      expect(statuses).toEqual([200, ...Array(19).fill(412)]);
      const winner = answers.find((r) => r.status === 200)!;
      const id = path.split('/').pop();
      const [row] = await t.query<Record<string, string>>(`SELECT ${column} FROM ${table} WHERE id = $1`, [id]);
      expect(row![column]).toBe(winner.body.data[column]);
    },
  );

  it('concurrent DELETE and PATCH with the same If-Match: one wins, the other is 412', async () => {
    const path = `/api/v1/bookings/${(await booking()).id}`;
    const tag = (await t.api.get(path).set(a.auth).expect(200)).headers['etag'] as string;
    const [patched, deleted] = await Promise.all([
      t.api.patch(path).set(a.auth).set('If-Match', tag).send({ title: 'Moved' }),
      t.api.delete(path).set(a.auth).set('If-Match', tag),
    ]);
    expect([patched.status, deleted.status].sort()).toEqual([200, 412]);
    const [row] = await t.query<{ title: string; status: string }>('SELECT title, status FROM bookings WHERE id = $1', [path.split('/').pop()]);
    if (patched.status === 200) expect(row).toEqual({ title: 'Moved', status: 'PENDING' });
    else expect(row).toEqual({ title: 'Call', status: 'CANCELLED' });
  });

  describe('Link on lists', () => {
    const parseLinks = (header: string | undefined): Record<string, string> =>
      Object.fromEntries(
        (header ?? '')
          .split(/,\s*(?=<)/)
          .filter(Boolean)
          .map((part) => {
            const match = /^<([^>]*)>;\s*rel="([a-z]+)"$/.exec(part.trim());
            if (!match) throw new Error(`malformed link: ${part}`);
            return [match[2]!, match[1]!];
          }),
      );

    it('a walk along rel="next" visits every record of a filtered list exactly once, keeping the filter', async () => {
      const otherSchedule = (await t.api.post('/api/v1/schedules').set(a.auth).send({ name: 'Other' }).expect(201)).body.data.id;
      const walkSchedule = (await t.api.post('/api/v1/schedules').set(a.auth).send({ name: 'Walk' }).expect(201)).body.data.id;
      const mine = new Set<string>();
      for (let i = 0; i < 23; i++) {
        const b = await booking({ schedule_id: walkSchedule, attendee: { name: 'Walker', email: `walker${i}@example.com` } });
        mine.add(b.id);
        await booking({ schedule_id: otherSchedule });
      }
      // Cancel a few: a status filter must keep them out of every page.
      const cancelled = [...mine].slice(0, 3);
      for (const id of cancelled) await t.api.delete(`/api/v1/bookings/${id}`).set(a.auth).expect(200);
      for (const id of cancelled) mine.delete(id);

      const seen: string[] = [];
      let next: string | undefined = `/api/v1/bookings?schedule_id=${walkSchedule}&status=PENDING&attendee_email=walker&limit=6`;
      let pages = 0;
      let previous: Record<string, string> = {};
      while (next) {
        const page = await t.api.get(next).set(a.auth).expect(200);
        const links = parseLinks(page.headers['link'] as string);
        expect(links['first']).toBe(`/api/v1/bookings?schedule_id=${walkSchedule}&status=PENDING&attendee_email=walker&limit=6&offset=0`);
        if (page.body.meta.offset > 0) expect(links['prev']).toBeDefined();
        else expect(links['prev']).toBeUndefined();
        if (pages > 0) expect(links['prev']).toBe(previous['self']);
        expect(Boolean(links['next'])).toBe(page.body.meta.hasMore);
        seen.push(...page.body.data.map((b: { id: string; schedule_id: string; status: string }) => {
          expect(b.schedule_id).toBe(walkSchedule);
          expect(b.status).toBe('PENDING');
          return b.id;
        }));
        previous = { self: next.includes('offset=') ? next : `${next}&offset=0` };
        next = links['next'];
        pages++;
      }
      expect(pages).toBe(4);
      expect(seen).toHaveLength(20);
      expect(new Set(seen)).toEqual(mine);
    });

    it('prev from an offset that is not a multiple of the limit starts at 0; an empty page past the end still links first and prev', async () => {
      const res = await t.api.get('/api/v1/schedules?limit=2&offset=1').set(a.auth).expect(200);
      const links = parseLinks(res.headers['link'] as string);
      expect(links['prev']).toBe('/api/v1/schedules?limit=2&offset=0');
      const past = await t.api.get('/api/v1/schedules?offset=1000').set(a.auth).expect(200);
      const pastLinks = parseLinks(past.headers['link'] as string);
      expect(pastLinks).toEqual({ first: '/api/v1/schedules?offset=0&limit=50', prev: '/api/v1/schedules?offset=950&limit=50' });
    });

    it('the change feed links first and next (its cursor): following next reads every event once, then polls on', async () => {
      const other = await t.tenant();
      const schedule = (await t.api.post('/api/v1/schedules').set(other.auth).send({ name: 'Feed' }).expect(201)).body.data.id;
      const ids: string[] = [];
      for (let i = 0; i < 7; i++) {
        const start = new Date(Date.UTC(2032, 0, 1, i));
        const res = await t.api
          .post('/api/v1/bookings')
          .set(other.auth)
          .send({ schedule_id: schedule, start_time: start.toISOString(), end_time: new Date(start.getTime() + 600_000).toISOString(), attendee: { name: 'F', email: 'f@example.com' } })
          .expect(201);
        ids.push(res.body.data.id);
      }
      await changeFeedCaughtUp(t, other.orgId);
      const seen: string[] = [];
      let next: string | undefined = '/api/v1/changes?limit=3';
      for (let pages = 0; next && pages < 10; pages++) {
        const res = await t.api.get(next).set(other.auth).expect(200);
        const links = parseLinks(res.headers['link'] as string);
        expect(links['first']).toBe('/api/v1/changes?limit=3');
        seen.push(...res.body.data.filter((e: { type: string }) => e.type === 'booking.created').map((e: { data: { id: string } }) => e.data.id));
        if (res.body.data.length === 0) {
          // Caught up: next keeps the same cursor to poll from.
          expect(links['next']).toBe(next);
          break;
        }
        expect(links['next']).toBe(`/api/v1/changes?limit=3&after=${encodeURIComponent(res.body.meta.next_cursor)}`);
        next = links['next'];
      }
      expect(seen).toEqual(ids);
    });

    it('every list operation carries Link, and the document says so', async () => {
      const lists = [
        '/api/v1/schedules',
        '/api/v1/event-types',
        '/api/v1/bookings',
        '/api/v1/events',
        '/api/v1/posts',
        '/api/v1/webhooks',
        '/api/v1/changes',
      ];
      for (const path of lists) {
        const res = await t.api.get(path).set(a.auth).expect(200);
        expect(parseLinks(res.headers['link'] as string)['first']).toMatch(new RegExp(`^${path}(\\?|$)`));
      }
      const paths = t.document['paths'] as Record<string, Record<string, { responses: Record<string, { headers?: Record<string, unknown>; content?: Record<string, { schema?: { properties?: Record<string, unknown> } }> }> }>>;
      let documented = 0;
      for (const [path, item] of Object.entries(paths)) {
        const ok = item['get']?.responses['200'];
        if (!ok?.content?.['application/json']?.schema?.properties?.['meta']) continue;
        expect([path, Object.keys(ok.headers ?? {})]).toEqual([path, expect.arrayContaining(['Link'])]);
        documented++;
      }
      expect(documented).toBeGreaterThanOrEqual(lists.length);
    });
  });

  it('rate-limited answers carry RateLimit-Policy and RateLimit as the current draft spells them', async () => {
    const res = await t.api.get('/api/v1/schedules').set(a.auth).expect(200);
    expect(res.headers['ratelimit-policy']).toBe('"per-key";q=100000;w=60');
    expect(res.headers['ratelimit']).toMatch(/^"per-key";r=\d+;t=\d+$/);
    expect(res.headers['ratelimit-limit']).toBe('100000');
    const remaining = Number(/r=(\d+)/.exec(res.headers['ratelimit'] as string)![1]);
    expect(String(remaining)).toBe(res.headers['ratelimit-remaining']);
  });

  it('the document states ETag, 304 and If-None-Match on each single-record GET, and If-Match and 412 on each PATCH and DELETE', () => {
    const paths = t.document['paths'] as Record<string, Record<string, { parameters?: Array<{ $ref?: string }>; responses: Record<string, { headers?: Record<string, unknown> }> }>>;
    const records = [
      '/api/v1/schedules/{id}',
      '/api/v1/event-types/{id}',
      '/api/v1/bookings/{id}',
      '/api/v1/events/{id}',
      '/api/v1/events/{eventId}/registrations/{registrationId}',
      '/api/v1/posts/{id}',
      '/api/v1/posts/categories/{id}',
      '/api/v1/posts/tags/{id}',
      '/api/v1/webhooks/{id}',
    ];
    for (const path of records) {
      const item = paths[path]!;
      expect([path, item['get']!.responses['304']]).toEqual([path, expect.anything()]);
      expect(item['get']!.responses['200']!.headers).toHaveProperty('ETag');
      expect(item['get']!.parameters).toContainEqual({ $ref: '#/components/parameters/IfNoneMatch' });
      for (const method of ['patch', 'delete']) {
        if (!item[method]) continue;
        expect([path, method, item[method]!.responses['412']]).toEqual([path, method, expect.anything()]);
        expect(item[method]!.parameters).toContainEqual({ $ref: '#/components/parameters/IfMatch' });
      }
      if (item['patch']) expect(item['patch'].responses['200']!.headers).toHaveProperty('ETag');
    }
    expect(JSON.stringify(t.document)).not.toContain('x-almanac-conditional');
  });
});
