import { ScheduledPostPublisher, SearchRankingCache } from '@almanac/blog';
import { AppConfig, Outbox, Transactions } from '@almanac/shared';
import { createTestApp, Tenant, TestApp } from '../support/test-app';
import { BlogFixtures, blogFixtures, idsOf } from './blog-fixtures';

/**
 * Scheduled posts: read as published once due, published for real by the
 * publisher exactly once even with several instances, and caught up at start-up.
 */
describe('posts: scheduled publishing (e2e)', () => {
  let t: TestApp;
  let f: BlogFixtures;
  let a: Tenant;
  const start = new Date('2026-11-21T10:00:00.000Z');
  const hour = 3_600_000;

  const storedStatus = async (id: string): Promise<string> =>
    (await t.query<{ status: string }>('SELECT status FROM posts WHERE id = $1', [id]))[0]!.status;
  const counts = async (kind: 'categories' | 'tags'): Promise<Record<string, number>> => {
    const res = await t.api.get(`/api/v1/posts/${kind}`).set(a.auth).expect(200);
    return Object.fromEntries(res.body.data.map((term: { slug: string; post_count: number }) => [term.slug, term.post_count]));
  };
  const listed = async (query: string): Promise<string[]> => idsOf((await t.api.get(`/api/v1/posts${query}`).set(a.auth).expect(200)).body);

  /** Inserts `n` scheduled posts due at `at` straight into the table (faster than n requests). */
  const insertScheduled = async (tenant: Tenant, n: number, at: Date, prefix: string): Promise<void> => {
    await t.query(
      `INSERT INTO posts (id, organization_id, title, slug, status, published_at, created_at, updated_at)
       SELECT gen_random_uuid(), $1, 'Bulk ' || i, $2 || '-' || i, 'scheduled', $3, $4, $4 FROM generate_series(1, $5) AS i`,
      [tenant.orgId, prefix, at, start, n],
    );
  };

  beforeAll(async () => {
    t = await createTestApp();
    f = blogFixtures(t);
    // The app's own publisher would race the assertions on stored rows; the tests drive publishers by hand.
    await t.app.get(ScheduledPostPublisher).stop();
    t.clock.set(start);
    a = await t.tenant();
  });
  afterAll(async () => {
    await t.close();
  });

  beforeEach(() => t.clock.set(start));

  it('reads a scheduled post as published once its time has passed, in every read', async () => {
    const category = await f.category(a, { name: 'News' });
    const tag = await f.tag(a, { name: 'Launch' });
    const due = new Date(start.getTime() + hour).toISOString();
    const post = await f.post(a, { status: 'scheduled', published_at: due, category_id: category.id, tag_ids: [tag.id] });
    expect(post).toMatchObject({ status: 'scheduled', published_at: due });
    expect(await listed('?status=scheduled')).toEqual([post['id']]);
    expect(await listed('?status=published')).toEqual([]);
    expect(await counts('categories')).toEqual({ news: 0 });
    expect(await counts('tags')).toEqual({ launch: 0 });

    t.clock.set(new Date(start.getTime() + hour - 1));
    expect((await t.api.get(`/api/v1/posts/${post['id']}`).set(a.auth).expect(200)).body.data.status).toBe('scheduled');

    t.clock.set(due);
    const read = (await t.api.get(`/api/v1/posts/${post['id']}`).set(a.auth).expect(200)).body.data;
    expect(read).toMatchObject({ status: 'published', published_at: due, updated_at: post['updated_at'] });
    expect(await storedStatus(post['id'])).toBe('scheduled');
    expect(await listed('?status=published')).toEqual([post['id']]);
    expect(await listed('?status=scheduled')).toEqual([]);
    const all = (await t.api.get('/api/v1/posts').set(a.auth).expect(200)).body.data;
    expect(all.find((item: { id: string }) => item.id === post['id']).status).toBe('published');
    expect(await counts('categories')).toEqual({ news: 1 });
    expect(await counts('tags')).toEqual({ launch: 1 });

    // Once the publisher has flipped it, nothing a reader sees changes.
    expect(await new ScheduledPostPublisher(t.app.get(Transactions), t.clock, t.app.get(SearchRankingCache), t.app.get(Outbox), t.app.get(AppConfig)).publishDue()).toEqual([post['id']]);
    expect(await storedStatus(post['id'])).toBe('published');
    expect(await t.query('SELECT post_status FROM post_tag_links WHERE post_id = $1', [post['id']])).toEqual([{ post_status: 'published' }]);
    expect((await t.api.get(`/api/v1/posts/${post['id']}`).set(a.auth).expect(200)).body.data).toEqual(read);
    expect(await counts('categories')).toEqual({ news: 1 });
    expect(await counts('tags')).toEqual({ launch: 1 });
  });

  it('publishes a due post exactly once when two publishers run at the same time', async () => {
    const tenant = await t.tenant();
    const post = await f.post(tenant, { status: 'scheduled', published_at: new Date(start.getTime() + hour).toISOString() });
    t.clock.set(new Date(start.getTime() + 2 * hour));
    const first = new ScheduledPostPublisher(t.app.get(Transactions), t.clock, t.app.get(SearchRankingCache), t.app.get(Outbox), t.app.get(AppConfig));
    const second = new ScheduledPostPublisher(t.app.get(Transactions), t.clock, t.app.get(SearchRankingCache), t.app.get(Outbox), t.app.get(AppConfig));
    const [byFirst, bySecond] = await Promise.all([first.publishDue(), second.publishDue()]);
    const published = [...byFirst, ...bySecond].filter((id) => id === post['id']);
    expect(published).toEqual([post['id']]);
    const [row] = await t.query('SELECT status, published_at, updated_at FROM posts WHERE id = $1', [post['id']]);
    expect(row).toEqual({ status: 'published', published_at: new Date(start.getTime() + hour), updated_at: start });
    expect(await first.publishDue()).toEqual([]);
    expect(await second.publishDue()).toEqual([]);
    // Announced once, by the publisher that published it.
    const events = await t.query<{ type: string }>(`SELECT type FROM outbox_events WHERE data->>'id' = $1 ORDER BY seq`, [post['id']]);
    expect(events.map((e) => e.type)).toEqual(['post.created', 'post.published']);
  });

  it('splits a large backlog between concurrent publishers without publishing any post twice', async () => {
    const tenant = await t.tenant();
    await insertScheduled(tenant, 250, new Date(start.getTime() + hour), 'backlog');
    await insertScheduled(tenant, 5, new Date(start.getTime() + 10 * hour), 'later');
    t.clock.set(new Date(start.getTime() + 2 * hour));
    const publishers = [0, 1, 2].map(() => new ScheduledPostPublisher(t.app.get(Transactions), t.clock, t.app.get(SearchRankingCache), t.app.get(Outbox), t.app.get(AppConfig)));
    const results = await Promise.all(publishers.map((publisher) => publisher.publishDue()));
    const all = results.flat();
    expect(all).toHaveLength(250);
    expect(new Set(all).size).toBe(250);
    const rows = await t.query<{ status: string; n: number }>(
      'SELECT status, count(*)::int AS n FROM posts WHERE organization_id = $1 GROUP BY status ORDER BY status',
      [tenant.orgId],
    );
    expect(rows).toEqual([
      { status: 'published', n: 250 },
      { status: 'scheduled', n: 5 },
    ]);
  });

  it('never publishes a post before its time', async () => {
    const tenant = await t.tenant();
    const post = await f.post(tenant, { status: 'scheduled', published_at: new Date(start.getTime() + hour).toISOString() });
    t.clock.set(new Date(start.getTime() + hour - 1));
    const ids = await new ScheduledPostPublisher(t.app.get(Transactions), t.clock, t.app.get(SearchRankingCache), t.app.get(Outbox), t.app.get(AppConfig)).publishDue();
    expect(ids).not.toContain(post['id']);
    expect(await storedStatus(post['id'])).toBe('scheduled');
  });

  it('catches up on start-up with whatever fell due while no instance ran', async () => {
    const tenant = await t.tenant();
    await insertScheduled(tenant, 3, new Date(start.getTime() - hour), 'overdue');
    const publisher = new ScheduledPostPublisher(t.app.get(Transactions), t.clock, t.app.get(SearchRankingCache), t.app.get(Outbox), t.app.get(AppConfig));
    try {
      await publisher.onApplicationBootstrap();
      const rows = await t.query('SELECT DISTINCT status FROM posts WHERE organization_id = $1', [tenant.orgId]);
      expect(rows).toEqual([{ status: 'published' }]);
    } finally {
      await publisher.stop();
    }
  });

  it("is wired into the app: the module's publisher publishes due posts", async () => {
    const tenant = await t.tenant();
    const post = await f.post(tenant, { status: 'scheduled', published_at: new Date(start.getTime() + hour).toISOString() });
    t.clock.set(new Date(start.getTime() + hour));
    const ids = await t.app.get(ScheduledPostPublisher).publishDue();
    expect(ids).toContain(post['id']);
    expect(await storedStatus(post['id'])).toBe('published');
  });

  it('writes an overdue scheduled post as published when it is edited', async () => {
    const tenant = await t.tenant();
    const post = await f.post(tenant, { status: 'scheduled', published_at: new Date(start.getTime() + hour).toISOString() });
    t.clock.set(new Date(start.getTime() + 2 * hour));
    const res = await t.api.patch(`/api/v1/posts/${post['id']}`).set(tenant.auth).send({ title: 'Edited' }).expect(200);
    expect(res.body.data).toMatchObject({ status: 'published', published_at: new Date(start.getTime() + hour).toISOString() });
    expect(await storedStatus(post['id'])).toBe('published');
    const again = await t.api.patch(`/api/v1/posts/${post['id']}`).set(tenant.auth).send({ status: 'scheduled' }).expect(400);
    expect(again.body.errors[0].field).toBe('published_at');
  });

  it('lets an edit and the publisher race without losing either', async () => {
    const tenant = await t.tenant();
    const post = await f.post(tenant, { status: 'scheduled', published_at: new Date(start.getTime() + hour).toISOString() });
    t.clock.set(new Date(start.getTime() + 2 * hour));
    const publisher = new ScheduledPostPublisher(t.app.get(Transactions), t.clock, t.app.get(SearchRankingCache), t.app.get(Outbox), t.app.get(AppConfig));
    const [patch, ids] = await Promise.all([
      t.api.patch(`/api/v1/posts/${post['id']}`).set(tenant.auth).send({ title: 'Raced' }),
      publisher.publishDue(),
    ]);
    expect(patch.status).toBe(200);
    expect(ids.filter((id) => id === post['id']).length).toBeLessThanOrEqual(1);
    const [row] = await t.query('SELECT status, title FROM posts WHERE id = $1', [post['id']]);
    expect(row).toEqual({ status: 'published', title: 'Raced' });
  });

  it('starts a timer at bootstrap and stops it on shutdown', async () => {
    const publisher = new ScheduledPostPublisher(t.app.get(Transactions), t.clock, t.app.get(SearchRankingCache), t.app.get(Outbox), t.app.get(AppConfig));
    const spy = jest.spyOn(global, 'setInterval');
    try {
      await publisher.onApplicationBootstrap();
      expect(spy).toHaveBeenCalledWith(expect.any(Function), ScheduledPostPublisher.INTERVAL_MS);
    } finally {
      spy.mockRestore();
      await publisher.onModuleDestroy();
    }
  });
});
