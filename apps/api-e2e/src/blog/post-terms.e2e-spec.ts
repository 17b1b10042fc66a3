import { createTestApp, Tenant, TestApp } from '../support/test-app';
import { BlogFixtures, blogFixtures } from './blog-fixtures';

/** Categories and tags: `/posts/categories` and `/posts/tags`, slugs, post_count, detaching on delete. */
describe('posts: categories and tags (e2e)', () => {
  let t: TestApp;
  let f: BlogFixtures;
  let a: Tenant;
  let other: Tenant;

  beforeAll(async () => {
    t = await createTestApp();
    f = blogFixtures(t);
    t.clock.set('2026-11-21T10:00:00.000Z');
    a = await t.tenant();
    other = await t.tenant();
  });
  afterAll(async () => {
    await t.close();
  });

  describe.each([
    ['categories', 'post_categories'],
    ['tags', 'post_tags'],
  ])('/posts/%s', (kind, table) => {
    const path = `/api/v1/posts/${kind}`;

    it('is a fixed word, never taken for a post id', async () => {
      const tenant = await t.tenant();
      const res = await t.api.get(path).set(tenant.auth).expect(200);
      expect(res.body).toEqual({ data: [] });
      await t.api.get(`${path}/not-a-uuid`).set(tenant.auth).expect(404);
    });

    it('generates slugs from names, made unique with -2, -3…', async () => {
      const tenant = await t.tenant();
      const first = await t.api.post(path).set(tenant.auth).send({ name: 'Café Crème: Tips!' }).expect(201);
      expect(first.body.data).toEqual({ id: expect.any(String), name: 'Café Crème: Tips!', slug: 'cafe-creme-tips', post_count: 0 });
      expect(first.headers.location).toBe(`${path}/${first.body.data.id}`);
      const second = await t.api.post(path).set(tenant.auth).send({ name: 'Cafe creme tips' }).expect(201);
      expect(second.body.data.slug).toBe('cafe-creme-tips-2');
      const third = await t.api.post(path).set(tenant.auth).send({ name: 'café crème tips' }).expect(201);
      expect(third.body.data.slug).toBe('cafe-creme-tips-3');
      const symbols = await t.api.post(path).set(tenant.auth).send({ name: '***' }).expect(201);
      expect(symbols.body.data.slug).toBe('item');
      const rows = await t.query(`SELECT slug FROM ${table} WHERE organization_id = $1 ORDER BY slug`, [tenant.orgId]);
      expect(rows.map((r) => r['slug'])).toEqual(['cafe-creme-tips', 'cafe-creme-tips-2', 'cafe-creme-tips-3', 'item']);
    });

    it('gives concurrent creates of one name distinct slugs', async () => {
      const tenant = await t.tenant();
      const results = await Promise.all(Array.from({ length: 5 }, () => t.raw().post(path).set(tenant.auth).send({ name: 'Rush' })));
      expect(results.map((r) => r.status)).toEqual([201, 201, 201, 201, 201]);
      expect(results.map((r) => r.body.data.slug).sort()).toEqual(['rush', 'rush-2', 'rush-3', 'rush-4', 'rush-5']);
    });

    it('refuses a supplied slug that is taken (409 slug_taken), per organization', async () => {
      const tenant = await t.tenant();
      await t.api.post(path).set(tenant.auth).send({ name: 'One', slug: 'shared' }).expect(201);
      const res = await t.api.post(path).set(tenant.auth).send({ name: 'Two', slug: 'shared' }).expect(409);
      expect(res.body).toMatchObject({ code: 'slug_taken', errors: [{ field: 'slug', message: 'already taken' }] });
      await t.api.post(path).set(other.auth).send({ name: 'Elsewhere', slug: 'shared' }).expect(201);
      expect(await t.query(`SELECT name FROM ${table} WHERE organization_id = $1`, [tenant.orgId])).toEqual([{ name: 'One' }]);
    });

    it.each([
      ['no name', {}, 'name'],
      ['a blank name', { name: '   ' }, 'name'],
      ['a name over 300 characters', { name: 'n'.repeat(301) }, 'name'],
      ['a number name', { name: 5 }, 'name'],
      ['a bad slug', { name: 'X', slug: 'Bad Slug' }, 'slug'],
      ['an unknown field', { name: 'X', color: 'red' }, 'color'],
    ])('answers %s with 400', async (_case, body, field) => {
      const res = await t.api.post(path).set(a.auth).send(body).expect(400);
      expect(res.body.code).toBe('validation_failed');
      expect(res.body.errors.map((e: { field: string }) => e.field)).toContain(field);
    });

    it('lists all terms by name, without meta, each with post_count', async () => {
      const tenant = await t.tenant();
      for (const name of ['Zulu', 'alpha', 'Mike']) await t.api.post(path).set(tenant.auth).send({ name }).expect(201);
      const res = await t.api.get(path).set(tenant.auth).expect(200);
      expect(Object.keys(res.body)).toEqual(['data']);
      expect(res.body.data.map((term: { name: string }) => term.name)).toEqual(['Mike', 'Zulu', 'alpha']);
      expect(res.body.data.every((term: { post_count: number }) => term.post_count === 0)).toBe(true);
    });

    it('renames without touching the slug, changes the slug on request, and refuses a taken one', async () => {
      const tenant = await t.tenant();
      const term = (await t.api.post(path).set(tenant.auth).send({ name: 'Old name' }).expect(201)).body.data;
      await t.api.post(path).set(tenant.auth).send({ name: 'Other', slug: 'other' }).expect(201);
      const renamed = await t.api.patch(`${path}/${term.id}`).set(tenant.auth).send({ name: 'New name' }).expect(200);
      expect(renamed.body.data).toEqual({ id: term.id, name: 'New name', slug: 'old-name', post_count: 0 });
      const reslugged = await t.api.patch(`${path}/${term.id}`).set(tenant.auth).send({ slug: 'new-name' }).expect(200);
      expect(reslugged.body.data.slug).toBe('new-name');
      const taken = await t.api.patch(`${path}/${term.id}`).set(tenant.auth).send({ slug: 'other' }).expect(409);
      expect(taken.body.code).toBe('slug_taken');
      await t.api.patch(`${path}/${term.id}`).set(tenant.auth).send({}).expect(400);
      await t.api.patch(`${path}/${term.id}`).set(tenant.auth).send({ name: null }).expect(400);
      const got = await t.api.get(`${path}/${term.id}`).set(tenant.auth).expect(200);
      expect(got.body.data).toEqual({ id: term.id, name: 'New name', slug: 'new-name', post_count: 0 });
    });

    it("answers 404 for another organization's term and changes nothing", async () => {
      const theirs = (await t.api.post(path).set(other.auth).send({ name: 'Private' }).expect(201)).body.data;
      await t.api.get(`${path}/${theirs.id}`).set(a.auth).expect(404);
      await t.api.patch(`${path}/${theirs.id}`).set(a.auth).send({ name: 'Mine now' }).expect(404);
      await t.api.delete(`${path}/${theirs.id}`).set(a.auth).expect(404);
      expect(await t.query(`SELECT name FROM ${table} WHERE id = $1`, [theirs.id])).toEqual([{ name: 'Private' }]);
      const mine = await t.api.get(path).set(a.auth).expect(200);
      expect(mine.body.data.map((term: { id: string }) => term.id)).not.toContain(theirs.id);
    });
  });

  describe('post_count', () => {
    it('counts published posts only and follows publish, archive and delete', async () => {
      const tenant = await t.tenant();
      const category = await f.category(tenant, { name: 'Counted' });
      const tag = await f.tag(tenant, { name: 'Counted tag' });
      const refs = { category_id: category.id, tag_ids: [tag.id] };
      const count = async (): Promise<[number, number]> => {
        const categories = (await t.api.get('/api/v1/posts/categories').set(tenant.auth).expect(200)).body.data;
        const tags = (await t.api.get('/api/v1/posts/tags').set(tenant.auth).expect(200)).body.data;
        const one = (await t.api.get(`/api/v1/posts/categories/${category.id}`).set(tenant.auth).expect(200)).body.data;
        expect(one.post_count).toBe(categories[0].post_count);
        return [categories[0].post_count, tags[0].post_count];
      };

      const published = await f.post(tenant, { ...refs, status: 'published' });
      const draft = await f.post(tenant, { ...refs });
      await f.post(tenant, { ...refs, status: 'archived' });
      await f.post(tenant, { ...refs, status: 'scheduled', published_at: '2027-01-01T00:00:00Z' });
      await f.post(tenant, { status: 'published' });
      expect(await count()).toEqual([1, 1]);

      await t.api.patch(`/api/v1/posts/${draft['id']}`).set(tenant.auth).send({ status: 'published' }).expect(200);
      expect(await count()).toEqual([2, 2]);

      await t.api.patch(`/api/v1/posts/${published['id']}`).set(tenant.auth).send({ status: 'archived' }).expect(200);
      expect(await count()).toEqual([1, 1]);

      await t.api.delete(`/api/v1/posts/${draft['id']}`).set(tenant.auth).expect(200);
      expect(await count()).toEqual([0, 0]);

      const moved = await f.post(tenant, { ...refs, status: 'published' });
      expect(await count()).toEqual([1, 1]);
      await t.api.patch(`/api/v1/posts/${moved['id']}`).set(tenant.auth).send({ category_id: null, tag_ids: [] }).expect(200);
      expect(await count()).toEqual([0, 0]);

      t.clock.set('2027-01-01T00:00:00.000Z');
      expect(await count()).toEqual([1, 1]);
      t.clock.set('2026-11-21T10:00:00.000Z');

      // The links' copies of status and date follow every write of the post.
      const stale = await t.query<{ n: number }>(
        `SELECT count(*)::int AS n FROM post_tag_links l JOIN posts p ON p.id = l.post_id
         WHERE l.post_status IS DISTINCT FROM p.status OR l.post_published_at IS DISTINCT FROM p.published_at`,
      );
      expect(stale).toEqual([{ n: 0 }]);
    });

    it('counts each post once per tag however many tags it has', async () => {
      const tenant = await t.tenant();
      const tags = [await f.tag(tenant, { name: 'A' }), await f.tag(tenant, { name: 'B' }), await f.tag(tenant, { name: 'C' })];
      await f.post(tenant, { status: 'published', tag_ids: tags.map((tag) => tag.id) });
      await f.post(tenant, { status: 'published', tag_ids: [tags[0]!.id] });
      const res = await t.api.get('/api/v1/posts/tags').set(tenant.auth).expect(200);
      expect(res.body.data.map((tag: { name: string; post_count: number }) => [tag.name, tag.post_count])).toEqual([
        ['A', 2],
        ['B', 1],
        ['C', 1],
      ]);
    });
  });

  describe('delete', () => {
    it('detaches a deleted category from its posts, which stay', async () => {
      const tenant = await t.tenant();
      const category = await f.category(tenant, { name: 'Doomed' });
      const post = await f.post(tenant, { category_id: category.id, status: 'published' });
      const res = await t.api.delete(`/api/v1/posts/categories/${category.id}`).set(tenant.auth).expect(200);
      expect(res.body).toEqual({ data: { id: category.id, deleted: true } });
      const read = await t.api.get(`/api/v1/posts/${post['id']}`).set(tenant.auth).expect(200);
      expect(read.body.data.category).toBeNull();
      expect(await t.query('SELECT category_id FROM posts WHERE id = $1', [post['id']])).toEqual([{ category_id: null }]);
      await t.api.delete(`/api/v1/posts/categories/${category.id}`).set(tenant.auth).expect(404);
      const filtered = await t.api.get(`/api/v1/posts?category_id=${category.id}`).set(tenant.auth).expect(200);
      expect(filtered.body.meta.total).toBe(0);
    });

    it('detaches a deleted tag from its posts, which stay with their other tags', async () => {
      const tenant = await t.tenant();
      const doomed = await f.tag(tenant, { name: 'Doomed tag' });
      const kept = await f.tag(tenant, { name: 'Kept tag' });
      const post = await f.post(tenant, { tag_ids: [doomed.id, kept.id] });
      await t.api.delete(`/api/v1/posts/tags/${doomed.id}`).set(tenant.auth).expect(200);
      const read = await t.api.get(`/api/v1/posts/${post['id']}`).set(tenant.auth).expect(200);
      expect(read.body.data.tags).toEqual([{ id: kept.id, name: 'Kept tag', slug: 'kept-tag' }]);
      expect(await t.query('SELECT tag_id FROM post_tag_links WHERE post_id = $1', [post['id']])).toEqual([{ tag_id: kept.id }]);
      await t.api.delete(`/api/v1/posts/tags/${doomed.id}`).set(tenant.auth).expect(404);
    });
  });
});
