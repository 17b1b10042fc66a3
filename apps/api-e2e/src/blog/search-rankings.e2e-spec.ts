import { SearchRankingCache } from '@almanac/blog';
import { newId } from '@almanac/shared';
import { createTestApp, Tenant, TestApp } from '../support/test-app';
import { BlogFixtures, blogFixtures } from './blog-fixtures';

/**
 * Broad searches (200 matches or more) keep their ranking for 5 s; writes through the API drop it
 * at once. Rows inserted here with SQL stand for writes made through another instance. The search
 * window is wider than every search here, so totals are exact.
 */
describe('posts: cached rankings of broad searches (e2e)', () => {
  let t: TestApp;
  let f: BlogFixtures;
  let a: Tenant;
  let cache: SearchRankingCache;

  const insertPosts = async (tenant: Tenant, count: number, title: string): Promise<string[]> => {
    const ids = Array.from({ length: count }, () => newId());
    await t.query(
      `INSERT INTO posts (id, organization_id, title, slug, content, status, created_at, updated_at)
       SELECT id, $2, $3, 'bulk-' || replace(id::text, '-', ''), '[]'::jsonb, 'draft', now(), now()
       FROM unnest($1::uuid[]) WITH ORDINALITY AS u(id, n)`,
      [ids, tenant.orgId, title],
    );
    return ids;
  };
  const search = async (query: string, extra = '') =>
    (await t.api.get(`/api/v1/posts?search=${encodeURIComponent(query)}${extra}`).set(a.auth).expect(200)).body;

  beforeAll(async () => {
    t = await createTestApp({ config: { searchWindow: 5_000 } });
    f = blogFixtures(t);
    a = await t.tenant();
    cache = t.app.get(SearchRankingCache);
    await insertPosts(a, 1200, 'Calendar tips');
    await insertPosts(a, 30, 'Orchard notes');
  });
  afterAll(async () => {
    await t.close();
  });

  it('serves a broad search from its ranking for 5 s, then ranks again', async () => {
    const first = await search('calendar', '&limit=50');
    expect(first.meta).toEqual({ total: 1200, limit: 50, offset: 0, hasMore: true });
    // Another instance adds a matching post: this instance keeps its ranking for a while.
    await insertPosts(a, 1, 'Calendar extra');
    t.clock.advance(4_000);
    const cached = await search('calendar', '&limit=50');
    expect(cached.meta.total).toBe(1200);
    expect(cached.data).toEqual(first.data);
    // Pages within the first 200 ranks come from the same ranking; deeper ones are read live.
    expect((await search('calendar', '&limit=50&offset=150')).meta.total).toBe(1200);
    expect((await search('calendar', '&limit=50&offset=151')).meta.total).toBe(1201);
    t.clock.advance(1_000);
    expect((await search('calendar', '&limit=50')).meta.total).toBe(1201);
  });

  it('pages through a cached ranking exactly as through a live one', async () => {
    const live = new Map<number, string[]>();
    for (const offset of [0, 20, 40, 180]) {
      t.clock.advance(10_000); // nothing cached
      cache.invalidate(a.orgId);
      live.set(offset, (await search('calendar', `&offset=${offset}`)).data.map((p: { id: string }) => p.id));
    }
    await search('calendar'); // ranks and keeps
    for (const [offset, ids] of live) {
      expect((await search('calendar', `&offset=${offset}`)).data.map((p: { id: string }) => p.id)).toEqual(ids);
    }
    expect(new Set([...live.values()].flat()).size).toBe(80);
  });

  it('drops the ranking as soon as a post is written through the API', async () => {
    const before = (await search('calendar')).meta.total;
    const created = await f.post(a, { title: 'Calendar news', status: 'published', published_at: t.clock.now().toISOString() });
    const after = await search('calendar');
    expect(after.meta.total).toBe(before + 1);
    // Title matches rank first: the new post is on the first page.
    expect(after.data.map((p: { id: string }) => p.id)).toContain(created['id']);
    await t.api.patch(`/api/v1/posts/${created['id']}`).set(a.auth).send({ title: 'Garden news' }).expect(200);
    expect((await search('calendar')).meta.total).toBe(before);
    await t.api.delete(`/api/v1/posts/${created['id']}`).set(a.auth).expect(200);
    expect((await search('calendar')).meta.total).toBe(before);
  });

  it('drops it when a tag or category changes, so a filtered search follows', async () => {
    const tag = await f.tag(a, { name: 'Planning' });
    const ids = (await t.query<{ id: string }>("SELECT id FROM posts WHERE organization_id = $1 AND title = 'Calendar tips' LIMIT 1100", [a.orgId])).map((r) => r.id);
    await t.query('INSERT INTO post_tag_links (organization_id, post_id, tag_id) SELECT $1, unnest($2::uuid[]), $3', [a.orgId, ids, tag['id']]);
    cache.invalidate(a.orgId);
    expect((await search('calendar', '&tag=planning')).meta.total).toBe(1100);
    await t.api.delete(`/api/v1/posts/tags/${tag['id']}`).set(a.auth).expect(200);
    expect((await search('calendar', '&tag=planning')).meta.total).toBe(0);
  });

  it('never caches a selective search: another instance’s post shows at once', async () => {
    expect((await search('orchard')).meta.total).toBe(30);
    await insertPosts(a, 1, 'Orchard extra');
    expect((await search('orchard')).meta.total).toBe(31);
  });

  it('keeps each organization’s rankings apart', async () => {
    const other = await t.tenant();
    await insertPosts(other, 1000, 'Calendar elsewhere');
    const mine = await search('calendar');
    const theirs = (await t.api.get('/api/v1/posts?search=calendar').set(other.auth).expect(200)).body;
    expect(theirs.meta.total).toBe(1000);
    expect(mine.meta.total).not.toBe(1000);
    const theirIds = new Set((await t.query<{ id: string }>('SELECT id FROM posts WHERE organization_id = $1', [other.orgId])).map((r) => r.id));
    expect(mine.data.some((p: { id: string }) => theirIds.has(p.id))).toBe(false);
  });
});
