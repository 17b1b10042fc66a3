import { ScheduledPostPublisher, SearchRankingCache } from '@almanac/blog';
import { AppConfig, Outbox, Transactions } from '@almanac/shared';
import { createTestApp, Tenant, TestApp } from '../support/test-app';
import { BlogFixtures, blogFixtures } from './blog-fixtures';

const MISSING = '0194a7a0-0000-7000-8000-0000000000bb';

describe('post revisions (e2e)', () => {
  let t: TestApp;
  let f: BlogFixtures;
  let a: Tenant;
  let other: Tenant;
  const start = new Date('2026-11-21T10:00:00.000Z');
  const tick = () => t.clock.advance(1000);

  beforeAll(async () => {
    t = await createTestApp({ config: { webhookDispatcher: false } });
    f = blogFixtures(t);
    t.clock.set(start);
    a = await t.tenant();
    other = await t.tenant();
  });
  afterAll(async () => {
    await t.close();
  });

  const revisions = async (postId: string, tenant = a, query = '') =>
    (await t.api.get(`/api/v1/posts/${postId}/revisions${query}`).set(tenant.auth).expect(200)).body;
  const patch = (postId: string, body: Record<string, unknown>) => t.api.patch(`/api/v1/posts/${postId}`).set(a.auth).send(body).expect(200);
  const stored = (postId: string) => t.query<{ n: string }>('SELECT count(*) AS n FROM post_revisions WHERE post_id = $1', [postId]).then((r) => Number(r[0]!.n));

  it('records the create and each PATCH that changes a stored field, newest first; a PATCH that changes nothing records none', async () => {
    const tag = await f.tag(a, { name: 'History' });
    const post = await f.post(a, { title: 'First', excerpt: 'One', content: [{ type: 'paragraph', text: 'v1' }], tag_ids: [tag.id] });
    const created = await revisions(post['id']);
    expect(created).toEqual({
      data: [{ id: expect.any(String), created_at: start.toISOString(), title: 'First', status: 'draft' }],
      meta: { total: 1, limit: 50, offset: 0, hasMore: false },
    });

    tick();
    await patch(post['id'], { title: 'Second', content: [{ type: 'heading', level: 2, text: 'v2' }] });
    tick();
    await patch(post['id'], { title: 'Second' }); // the same value: nothing changes
    await patch(post['id'], { content: [{ type: 'heading', level: 2, text: 'v2' }], tag_ids: [tag.id] });
    tick();
    await patch(post['id'], { is_featured: true }); // a stored field a revision does not show
    const list = await revisions(post['id']);
    expect(list.data.map((r: { title: string }) => r.title)).toEqual(['Second', 'Second', 'First']);
    expect(list.data.map((r: { created_at: string }) => r.created_at)).toEqual([
      new Date(start.getTime() + 3000).toISOString(),
      new Date(start.getTime() + 1000).toISOString(),
      start.toISOString(),
    ]);

    const one = (await t.api.get(`/api/v1/posts/${post['id']}/revisions/${list.data[1].id}`).set(a.auth).expect(200)).body.data;
    expect(one).toEqual({
      id: list.data[1].id,
      post_id: post['id'],
      created_at: new Date(start.getTime() + 1000).toISOString(),
      title: 'Second',
      slug: post['slug'],
      excerpt: 'One',
      content: [{ type: 'heading', level: 2, text: 'v2' }],
      status: 'draft',
      featured_image_url: null,
      category_id: null,
      tag_ids: [tag.id],
    });
  });

  it('restores title, excerpt, content and featured image, keeps slug, status and terms, records it and announces post.updated', async () => {
    const category = await f.category(a, { name: 'Restorable' });
    const post = await f.post(a, {
      title: 'Original',
      excerpt: 'Before',
      content: [{ type: 'paragraph', text: 'original text' }],
      featured_image_url: 'https://cdn.example.com/a.jpg',
      status: 'published',
    });
    const [original] = (await revisions(post['id'])).data;
    tick();
    const edited = (
      await patch(post['id'], {
        title: 'Edited',
        slug: `${post['slug']}-edited`,
        excerpt: null,
        content: [],
        featured_image_url: null,
        category_id: category.id,
        status: 'archived',
      })
    ).body.data;
    tick();
    const res = await t.api.post(`/api/v1/posts/${post['id']}/revisions/${original.id}/restore`).set(a.auth).expect(200);
    expect(res.body.data).toMatchObject({
      id: post['id'],
      title: 'Original',
      excerpt: 'Before',
      content: [{ type: 'paragraph', text: 'original text' }],
      featured_image_url: 'https://cdn.example.com/a.jpg',
      slug: edited.slug,
      status: 'archived',
      category: { id: category.id, name: 'Restorable', slug: 'restorable' },
      updated_at: t.clock.now().toISOString(),
    });
    expect(res.headers['etag']).toBeDefined();
    expect((await t.api.get(`/api/v1/posts/${post['id']}`).set(a.auth).expect(200)).body.data).toEqual(res.body.data);
    const list = (await revisions(post['id'])).data;
    expect(list.map((r: { title: string; status: string }) => [r.title, r.status])).toEqual([
      ['Original', 'archived'],
      ['Edited', 'archived'],
      ['Original', 'published'],
    ]);
    const events = await t.query<{ type: string; title: string }>(
      `SELECT type, data->>'title' AS title FROM outbox_events WHERE data->>'id' = $1 ORDER BY seq`,
      [post['id']],
    );
    expect(events.at(-1)).toEqual({ type: 'post.updated', title: 'Original' });

    // Restoring what the post already is still records a revision (a restore is one).
    await t.api.post(`/api/v1/posts/${post['id']}/revisions/${list[0].id}/restore`).set(a.auth).expect(200);
    expect(await stored(post['id'])).toBe(4);
  });

  it('honours If-Match on restore: a stale tag is 412 and nothing changes', async () => {
    const post = await f.post(a, { title: 'Tagged' });
    const [first] = (await revisions(post['id'])).data;
    const etag = (await t.api.get(`/api/v1/posts/${post['id']}`).set(a.auth).expect(200)).headers['etag'];
    await patch(post['id'], { title: 'Moved on' });
    const refused = await t.api.post(`/api/v1/posts/${post['id']}/revisions/${first.id}/restore`).set(a.auth).set('If-Match', etag).expect(412);
    expect(refused.body.code).toBe('precondition_failed');
    expect((await t.api.get(`/api/v1/posts/${post['id']}`).set(a.auth).expect(200)).body.data.title).toBe('Moved on');
    expect(await stored(post['id'])).toBe(2);
    const current = (await t.api.get(`/api/v1/posts/${post['id']}`).set(a.auth).expect(200)).headers['etag'];
    await t.api.post(`/api/v1/posts/${post['id']}/revisions/${first.id}/restore`).set(a.auth).set('If-Match', current).expect(200);
  });

  it('keeps the newest 100 revisions of a post', async () => {
    const post = await f.post(a, { title: 'v0' });
    for (let i = 1; i <= 104; i++) await patch(post['id'], { title: `v${i}` });
    expect(await stored(post['id'])).toBe(100);
    const page = await revisions(post['id'], a, '?limit=100');
    expect(page.meta.total).toBe(100);
    expect(page.data[0].title).toBe('v104');
    expect(page.data[99].title).toBe('v5');
    const numbers = await t.query<{ number: number }>('SELECT number FROM post_revisions WHERE post_id = $1 ORDER BY number', [post['id']]);
    expect(numbers.map((r) => r.number)).toEqual(Array.from({ length: 100 }, (_, i) => i + 6));
  });

  it('numbers concurrent writes of one post without gaps or repeats (the post row is locked)', async () => {
    const post = await f.post(a, { title: 'race' });
    const results = await Promise.all(Array.from({ length: 20 }, (_, i) => t.api.patch(`/api/v1/posts/${post['id']}`).set(a.auth).send({ title: `racer ${i}` })));
    expect(results.map((r) => r.status)).toEqual(Array(20).fill(200));
    const numbers = await t.query<{ number: number }>('SELECT number FROM post_revisions WHERE post_id = $1 ORDER BY number', [post['id']]);
    expect(numbers.map((r) => r.number)).toEqual(Array.from({ length: 21 }, (_, i) => i + 1));
  });

  it('records the scheduled publication (the stored status changes) as a revision', async () => {
    const due = new Date(t.clock.now().getTime() + 60_000);
    const post = await f.post(a, { title: 'Later', status: 'scheduled', published_at: due.toISOString() });
    t.clock.set(new Date(due.getTime() + 1));
    const publisher = new ScheduledPostPublisher(t.app.get(Transactions), t.clock, t.app.get(SearchRankingCache), t.app.get(Outbox), t.app.get(AppConfig));
    expect(await publisher.publishDue()).toContain(post['id']);
    expect((await revisions(post['id'])).data.map((r: { status: string }) => r.status)).toEqual(['published', 'scheduled']);
  });

  it('answers 404 for another organization, an unknown revision or one of another post; revisions go with their post', async () => {
    const post = await f.post(a, { title: 'Mine' });
    const second = await f.post(a, { title: 'Other' });
    const [revision] = (await revisions(post['id'])).data;
    await t.api.get(`/api/v1/posts/${post['id']}/revisions`).set(other.auth).expect(404);
    await t.api.get(`/api/v1/posts/${post['id']}/revisions/${revision.id}`).set(other.auth).expect(404);
    await t.api.post(`/api/v1/posts/${post['id']}/revisions/${revision.id}/restore`).set(other.auth).expect(404);
    await t.api.get(`/api/v1/posts/${second['id']}/revisions/${revision.id}`).set(a.auth).expect(404);
    await t.api.get(`/api/v1/posts/${post['id']}/revisions/${MISSING}`).set(a.auth).expect(404);
    await t.api.get(`/api/v1/posts/${post['id']}/revisions/not-a-uuid`).set(a.auth).expect(404);
    const reader = await t.tenant({ scopes: ['posts:read'] });
    await t.api.post(`/api/v1/posts/${MISSING}/revisions/${revision.id}/restore`).set(reader.auth).expect(403);

    await t.api.delete(`/api/v1/posts/${post['id']}`).set(a.auth).expect(200);
    await t.api.get(`/api/v1/posts/${post['id']}/revisions`).set(a.auth).expect(404);
    expect(await stored(post['id'])).toBe(0);
  });
});
