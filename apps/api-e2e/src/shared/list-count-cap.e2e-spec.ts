import { createTestApp, Tenant, TestApp } from '../support/test-app';
import { createSchedule, slot } from '../scheduling/scheduling-helpers';
import { BlogFixtures, blogFixtures } from '../blog/blog-fixtures';

/**
 * Lists count their matches only up to a cap: beyond it `meta.total` is the cap and
 * `meta.total_is_lower_bound` is true. The cap is 10,000 in production; this app counts up to 5, so
 * that a handful of records crosses it. The cap is never below offset + limit + 1, and `hasMore`
 * stays exact on every page.
 */
const CAP = 5;

describe('lists: totals exact up to a cap, then a lower bound (e2e)', () => {
  let t: TestApp;
  let blog: BlogFixtures;

  beforeAll(async () => {
    t = await createTestApp({ config: { listCountCap: CAP, rateLimitPerMinute: 1_000_000 } });
    blog = blogFixtures(t);
    t.clock.set('2027-02-01T00:00:00.000Z');
  });
  afterAll(async () => {
    await t.close();
  });

  /** The meta a page must carry when `ids` (in list order) are all the records that match. */
  function expectedMeta(matching: number, offset: number, limit: number, returned: number) {
    const cap = Math.max(CAP, offset + limit + 1);
    if (matching > cap) return { total: cap, limit, offset, hasMore: true, total_is_lower_bound: true };
    return { total: matching, limit, offset, hasMore: offset + returned < matching };
  }

  /**
   * Every page of `path` from offset 0 to past the end, with limits 1 to 3: the records are exactly
   * the slice of `ids` (the database's own order of every matching record), the meta as above.
   */
  async function expectEveryPage(path: string, tenant: Tenant, ids: string[]): Promise<void> {
    const separator = path.includes('?') ? '&' : '?';
    for (let limit = 1; limit <= 3; limit++) {
      for (let offset = 0; offset <= ids.length + 1; offset++) {
        const res = await t.api.get(`${path}${separator}limit=${limit}&offset=${offset}`).set(tenant.auth).expect(200);
        const page = ids.slice(offset, offset + limit);
        expect({ at: [offset, limit], ids: res.body.data.map((item: { id: string }) => item.id) }).toEqual({ at: [offset, limit], ids: page });
        expect({ at: [offset, limit], meta: res.body.meta }).toEqual({ at: [offset, limit], meta: expectedMeta(ids.length, offset, limit, page.length) });
      }
    }
  }

  /** Following `hasMore` from the first page sees every record once, and stops on the last one. */
  async function expectHasMoreWalk(path: string, tenant: Tenant, ids: string[], limit: number): Promise<void> {
    const separator = path.includes('?') ? '&' : '?';
    const seen: string[] = [];
    for (let offset = 0; ; offset += limit) {
      const res = await t.api.get(`${path}${separator}limit=${limit}&offset=${offset}`).set(tenant.auth).expect(200);
      seen.push(...res.body.data.map((item: { id: string }) => item.id));
      if (!res.body.meta.hasMore) break;
      expect(seen.length).toBeLessThan(ids.length);
    }
    expect(seen).toEqual(ids);
  }

  describe.each([5, 6, 8])('with %i matching records', (count) => {
    it('events: counts up to the cap', async () => {
      const tenant = await t.tenant();
      for (let i = 0; i < count; i++) {
        await t.api
          .post('/api/v1/events')
          .set(tenant.auth)
          // Two events on each date: the order goes on to start_time.
          .send({ title: `Event ${i}`, start_date: `2027-03-${String(10 + Math.floor(i / 2)).padStart(2, '0')}`, start_time: i % 2 ? '09:00' : '14:00' })
          .expect(201);
      }
      // A past event the upcoming filter leaves out.
      await t.api.post('/api/v1/events').set(tenant.auth).send({ title: 'Past', start_date: '2027-01-10' }).expect(201);
      const ids = await idsInOrder(
        'SELECT id FROM events WHERE organization_id = $1 AND ends_at > $2 ORDER BY start_date, start_time NULLS FIRST, id',
        [tenant.orgId, t.clock.now()],
      );
      expect(ids).toHaveLength(count);
      await expectEveryPage('/api/v1/events?upcoming=true&include_counts=true', tenant, ids);
      await expectHasMoreWalk('/api/v1/events?upcoming=true', tenant, ids, 2);
    });

    it('bookings: counts up to the cap', async () => {
      const tenant = await t.tenant();
      const schedule = await createSchedule(t, tenant);
      for (let i = 0; i < count; i++) {
        await t.api
          .post('/api/v1/bookings')
          .set(tenant.auth)
          .send({ schedule_id: schedule, ...slot(i), attendee: { name: `Guest ${i}`, email: `guest${i}@example.com` } })
          .expect(201);
      }
      const ids = await idsInOrder('SELECT id FROM bookings WHERE organization_id = $1 ORDER BY start_time, id', [tenant.orgId]);
      expect(ids).toHaveLength(count);
      await expectEveryPage(`/api/v1/bookings?schedule_id=${schedule}`, tenant, ids);
      await expectHasMoreWalk('/api/v1/bookings', tenant, ids, 3);
    });

    it('registrations: counts up to the cap', async () => {
      const tenant = await t.tenant();
      const event = await t.api.post('/api/v1/events').set(tenant.auth).send({ title: 'Workshop', start_date: '2027-03-10', status: 'published' }).expect(201);
      const eventId = event.body.data.id as string;
      for (let i = 0; i < count; i++) {
        await t.api
          .post(`/api/v1/events/${eventId}/registrations`)
          .set(tenant.auth)
          .send({ name: `Guest ${i}`, email: `guest${i}@example.com` })
          .expect(201);
      }
      const ids = await idsInOrder('SELECT id FROM event_registrations WHERE organization_id = $1 ORDER BY created_at, id', [tenant.orgId]);
      expect(ids).toHaveLength(count);
      await expectEveryPage(`/api/v1/events/${eventId}/registrations`, tenant, ids);
    });

    it('posts: counts up to the cap, with a filter and without', async () => {
      const tenant = await t.tenant();
      const category = await blog.category(tenant, { name: 'News' });
      for (let i = 0; i < count; i++) {
        await blog.post(tenant, { status: 'published', published_at: `2027-01-${String(10 + i).padStart(2, '0')}T09:00:00Z`, category_id: category.id });
      }
      // A draft the category filter leaves out.
      await blog.post(tenant, { status: 'draft' });
      const ids = await idsInOrder(
        'SELECT id FROM posts WHERE organization_id = $1 AND category_id = $2 ORDER BY published_at DESC NULLS LAST, id DESC',
        [tenant.orgId, category.id],
      );
      expect(ids).toHaveLength(count);
      await expectEveryPage(`/api/v1/posts?category=${category.slug}`, tenant, ids);
      await expectHasMoreWalk('/api/v1/posts', tenant, await idsInOrder('SELECT id FROM posts WHERE organization_id = $1 ORDER BY published_at DESC NULLS LAST, id DESC', [tenant.orgId]), 2);
    });
  });

  it('counts exactly below the cap, and a page reaching past the cap raises it', async () => {
    const tenant = await t.tenant();
    for (let i = 0; i < 12; i++) await blog.post(tenant, { status: 'published', published_at: `2027-01-${String(10 + i).padStart(2, '0')}T09:00:00Z` });
    const first = await t.api.get('/api/v1/posts?limit=2').set(tenant.auth).expect(200);
    expect(first.body.meta).toEqual({ total: CAP, limit: 2, offset: 0, hasMore: true, total_is_lower_bound: true });
    // The page ends at 9: the count goes on to 10, and 12 posts match, so 10 is still a lower bound.
    const middle = await t.api.get('/api/v1/posts?limit=3&offset=6').set(tenant.auth).expect(200);
    expect(middle.body.meta).toEqual({ total: 10, limit: 3, offset: 6, hasMore: true, total_is_lower_bound: true });
    // The page ends at 11: the count reaches every post, exact again.
    const last = await t.api.get('/api/v1/posts?limit=3&offset=9').set(tenant.auth).expect(200);
    expect(last.body.meta).toEqual({ total: 12, limit: 3, offset: 9, hasMore: false });
    expect(last.body.data).toHaveLength(3);
    const past = await t.api.get('/api/v1/posts?limit=3&offset=40').set(tenant.auth).expect(200);
    expect(past.body).toEqual({ data: [], meta: { total: 12, limit: 3, offset: 40, hasMore: false } });
  });

  it('documents the flag on every list', () => {
    const paths = t.document['paths'] as Record<string, { get?: { responses: Record<string, { content?: Record<string, { schema: unknown }> }> } }>;
    const metaOf = (path: string) =>
      JSON.stringify(paths[path]?.get?.responses['200']?.content?.['application/json']?.schema ?? null).match(/#\/components\/schemas\/(\w*PageMeta)/)?.[1];
    for (const path of ['/api/v1/events', '/api/v1/bookings', '/api/v1/posts', '/api/v1/events/{eventId}/registrations', '/api/v1/schedules']) {
      expect({ path, meta: metaOf(path) }).toEqual({ path, meta: 'PageMeta' });
    }
    const schemas = (t.document['components'] as { schemas: Record<string, { properties: Record<string, unknown>; required?: string[] }> }).schemas;
    expect(schemas['PageMeta']!.properties['total_is_lower_bound']).toMatchObject({ type: 'boolean', enum: [true] });
    expect(schemas['PageMeta']!.required).not.toContain('total_is_lower_bound');
  });

  async function idsInOrder(sql: string, params: unknown[]): Promise<string[]> {
    return (await t.query<{ id: string }>(sql, params)).map((row) => row.id);
  }
});
