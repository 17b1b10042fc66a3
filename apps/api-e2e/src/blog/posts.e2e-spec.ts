import { createTestApp, Tenant, TestApp } from '../support/test-app';
import { BlogFixtures, blogFixtures } from './blog-fixtures';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[0-9a-f]{4}-[0-9a-f]{12}$/;

describe('posts: create, read, update, delete (e2e)', () => {
  let t: TestApp;
  let f: BlogFixtures;
  let a: Tenant;
  let other: Tenant;
  const start = new Date('2026-11-21T10:00:00.000Z');

  beforeAll(async () => {
    t = await createTestApp();
    f = blogFixtures(t);
    t.clock.set(start);
    a = await t.tenant();
    other = await t.tenant();
  });
  afterAll(async () => {
    await t.close();
  });

  describe('create', () => {
    it('applies the create defaults (draft, not featured) and answers 201 with Location and the full representation', async () => {
      const res = await t.api.post('/api/v1/posts').set(a.auth).send({ title: 'Minimal', slug: 'minimal' }).expect(201);
      const post = res.body.data;
      expect(post).toEqual({
        id: expect.stringMatching(UUID),
        title: 'Minimal',
        slug: 'minimal',
        excerpt: null,
        featured_image_url: null,
        status: 'draft',
        is_featured: false,
        published_at: null,
        category: null,
        author: null,
        tags: [],
        content: [],
        created_at: start.toISOString(),
        updated_at: start.toISOString(),
      });
      expect(res.headers.location).toBe(`/api/v1/posts/${post.id}`);
      const [row] = await t.query('SELECT organization_id, status, is_featured, published_at, content FROM posts WHERE id = $1', [post.id]);
      expect(row).toEqual({ organization_id: a.orgId, status: 'draft', is_featured: false, published_at: null, content: [] });
    });

    it('stores and returns every field of the create operation', async () => {
      const category = await f.category(a, { name: 'Engineering' });
      const tagZ = await f.tag(a, { name: 'Zebra' });
      const tagA = await f.tag(a, { name: 'Aardvark' });
      const body = {
        title: 'Everything <b>"quoted"</b> \' ; DROP TABLE posts; -- 🎉',
        slug: 'everything',
        excerpt: 'Short summary with ünïcödé',
        content: [
          { type: 'heading', level: 2, text: 'Intro' },
          { type: 'paragraph', text: 'Body' },
        ],
        featured_image_url: 'https://cdn.example.com/cover.jpg?x=1',
        category_id: category.id,
        tag_ids: [tagZ.id, tagA.id],
        status: 'published',
        is_featured: true,
        published_at: '2026-11-01T09:30:00+02:00',
      };
      const res = await t.api.post('/api/v1/posts').set(a.auth).send(body).expect(201);
      expect(res.body.data).toEqual({
        id: expect.stringMatching(UUID),
        title: body.title,
        slug: 'everything',
        excerpt: body.excerpt,
        featured_image_url: body.featured_image_url,
        status: 'published',
        is_featured: true,
        published_at: '2026-11-01T07:30:00.000Z',
        category: { id: category.id, name: 'Engineering', slug: 'engineering' },
        author: null,
        tags: [
          { id: tagA.id, name: 'Aardvark', slug: 'aardvark' },
          { id: tagZ.id, name: 'Zebra', slug: 'zebra' },
        ],
        content: body.content,
        created_at: start.toISOString(),
        updated_at: start.toISOString(),
      });
      const links = await t.query('SELECT tag_id FROM post_tag_links WHERE post_id = $1 ORDER BY tag_id', [res.body.data.id]);
      expect(links.map((l) => l['tag_id']).sort()).toEqual([tagZ.id, tagA.id].sort());
    });

    it('makes the user the API key was issued for the author, unless author_id says otherwise', async () => {
      const alice = await f.author(a, 'Alice');
      const bob = await f.author(a, 'Bob');
      const byKey = await t.api.post('/api/v1/posts').set(alice.auth).send({ title: 'By Alice', slug: 'by-alice' }).expect(201);
      expect(byKey.body.data.author).toEqual({ id: alice.id, name: 'Alice' });
      const explicit = await t.api
        .post('/api/v1/posts')
        .set(alice.auth)
        .send({ title: 'By Bob', slug: 'by-bob', author_id: bob.id })
        .expect(201);
      expect(explicit.body.data.author).toEqual({ id: bob.id, name: 'Bob' });
      const none = await t.api.post('/api/v1/posts').set(alice.auth).send({ title: 'Anon', slug: 'anon', author_id: null }).expect(201);
      expect(none.body.data.author).toBeNull();
      const rows = await t.query('SELECT slug, author_id FROM posts WHERE slug IN ($1, $2, $3) ORDER BY slug', ['anon', 'by-alice', 'by-bob']);
      expect(rows).toEqual([
        { slug: 'anon', author_id: null },
        { slug: 'by-alice', author_id: alice.id },
        { slug: 'by-bob', author_id: bob.id },
      ]);
    });

    it('sets published_at to now when a post is published without one, and leaves a draft without one', async () => {
      t.clock.set('2026-11-21T12:00:00.000Z');
      const published = await f.post(a, { status: 'published' });
      expect(published['published_at']).toBe('2026-11-21T12:00:00.000Z');
      const draft = await f.post(a, {});
      expect(draft['published_at']).toBeNull();
      const datedDraft = await f.post(a, { published_at: '2027-01-01T00:00:00Z' });
      expect(datedDraft['published_at']).toBe('2027-01-01T00:00:00.000Z');
      expect(datedDraft['status']).toBe('draft');
      t.clock.set(start);
    });

    it('refuses a slug taken in the organization (409 slug_taken) but allows it in another one', async () => {
      await f.post(a, { slug: 'taken-slug' });
      const res = await t.api.post('/api/v1/posts').set(a.auth).send({ title: 'Again', slug: 'taken-slug' }).expect(409);
      expect(res.body).toMatchObject({ status: 409, code: 'slug_taken', errors: [{ field: 'slug', message: 'already taken' }] });
      await t.api.post('/api/v1/posts').set(other.auth).send({ title: 'Elsewhere', slug: 'taken-slug' }).expect(201);
      const rows = await t.query('SELECT organization_id FROM posts WHERE slug = $1', ['taken-slug']);
      expect(rows).toHaveLength(2);
    });

    it('lets exactly one of many concurrent creates with one slug win', async () => {
      const results = await Promise.all(
        Array.from({ length: 8 }, (_, i) => t.raw().post('/api/v1/posts').set(a.auth).send({ title: `Race ${i}`, slug: 'race' })),
      );
      expect(results.map((r) => r.status).sort()).toEqual([201, 409, 409, 409, 409, 409, 409, 409]);
      expect(results.filter((r) => r.status === 409).every((r) => r.body.code === 'slug_taken')).toBe(true);
      const rows = await t.query('SELECT count(*)::int AS n FROM posts WHERE organization_id = $1 AND slug = $2', [a.orgId, 'race']);
      expect(rows[0]!['n']).toBe(1);
    });

    it.each([
      ['category_id', { category_id: '0193a3c2-7d1e-7c4e-9a57-2f5b8e1c0d9a' }, 'category_id'],
      ['author_id', { author_id: '0193a3c2-7d1e-7c4e-9a57-2f5b8e1c0d9a' }, 'author_id'],
    ])('answers an unknown %s with 422 invalid_reference', async (_name, extra, field) => {
      const before = await t.query('SELECT count(*)::int AS n FROM posts');
      const res = await t.api.post('/api/v1/posts').set(a.auth).send({ title: 'Ref', slug: 'ref', ...extra }).expect(422);
      expect(res.body).toMatchObject({ status: 422, code: 'invalid_reference', errors: [{ field }] });
      expect(await t.query('SELECT count(*)::int AS n FROM posts')).toEqual(before);
    });

    it('names each unknown tag by its index, and refuses records of another organization', async () => {
      const mine = await f.tag(a, { name: 'Mine' });
      const theirs = await f.tag(other, { name: 'Theirs' });
      const theirCategory = await f.category(other, { name: 'Their category' });
      const theirUser = await f.author(other, 'Stranger');
      const res = await t.api
        .post('/api/v1/posts')
        .set(a.auth)
        .send({ title: 'Refs', slug: 'refs', tag_ids: [mine.id, theirs.id], category_id: theirCategory.id, author_id: theirUser.id })
        .expect(422);
      expect(res.body.code).toBe('invalid_reference');
      expect(res.body.errors.map((e: { field: string }) => e.field)).toEqual(['category_id', 'tag_ids[1]', 'author_id']);
      expect(await t.query('SELECT 1 FROM posts WHERE organization_id = $1 AND slug = $2', [a.orgId, 'refs'])).toHaveLength(0);
    });

    it.each([
      ['no body', undefined, ['title', 'slug']],
      ['missing title', { slug: 'x' }, ['title']],
      ['empty title', { title: '', slug: 'x' }, ['title']],
      ['blank title', { title: '   ', slug: 'x' }, ['title']],
      ['title over 300 characters', { title: 'x'.repeat(301), slug: 'x' }, ['title']],
      ['bad slug', { title: 'X', slug: 'Not A Slug' }, ['slug']],
      ['slug over 100 characters', { title: 'X', slug: 'a'.repeat(101) }, ['slug']],
      ['excerpt over 5,000 characters', { title: 'X', slug: 'x', excerpt: 'e'.repeat(5001) }, ['excerpt']],
      ['relative featured_image_url', { title: 'X', slug: 'x', featured_image_url: '/cover.jpg' }, ['featured_image_url']],
      ['javascript: featured_image_url', { title: 'X', slug: 'x', featured_image_url: 'javascript:alert(1)' }, ['featured_image_url']],
      ['unknown status', { title: 'X', slug: 'x', status: 'live' }, ['status']],
      ['string boolean', { title: 'X', slug: 'x', is_featured: 'true' }, ['is_featured']],
      ['published_at without a zone', { title: 'X', slug: 'x', published_at: '2026-12-01T10:00:00' }, ['published_at']],
      ['impossible published_at', { title: 'X', slug: 'x', published_at: '2026-02-30T10:00:00Z' }, ['published_at']],
      ['non-uuid category_id', { title: 'X', slug: 'x', category_id: 'engineering' }, ['category_id']],
      ['tag_ids not an array', { title: 'X', slug: 'x', tag_ids: 'a' }, ['tag_ids']],
      ['duplicate tag_ids', { title: 'X', slug: 'x', tag_ids: ['0193a3c2-7d1e-7c4e-9a57-2f5b8e1c0d9a', '0193a3c2-7d1e-7c4e-9a57-2f5b8e1c0d9a'] }, ['tag_ids']],
      ['unknown field', { title: 'X', slug: 'x', views: 3 }, ['views']],
      ['read-only field', { title: 'X', slug: 'x', created_at: '2026-01-01T00:00:00Z' }, ['created_at']],
      ['number title', { title: 42, slug: 'x' }, ['title']],
    ])('answers %s with 400 validation_failed naming the field', async (_case, body, fields) => {
      const req = t.api.post('/api/v1/posts').set(a.auth);
      const res = await (body === undefined ? req : req.send(body as object)).expect(400);
      expect(res.body).toMatchObject({ status: 400, code: 'validation_failed' });
      expect([...new Set(res.body.errors.map((e: { field: string }) => e.field))]).toEqual(fields);
    });

    it('refuses a scheduled post without a future published_at (400, field published_at)', async () => {
      const none = await t.api.post('/api/v1/posts').set(a.auth).send({ title: 'S', slug: 's1', status: 'scheduled' }).expect(400);
      expect(none.body.errors).toEqual([{ field: 'published_at', message: 'is required when status is scheduled' }]);
      const past = await t.api
        .post('/api/v1/posts')
        .set(a.auth)
        .send({ title: 'S', slug: 's2', status: 'scheduled', published_at: new Date(start.getTime() - 1000).toISOString() })
        .expect(400);
      expect(past.body.errors).toEqual([{ field: 'published_at', message: 'must be in the future when status is scheduled' }]);
      const now = await t.api
        .post('/api/v1/posts')
        .set(a.auth)
        .send({ title: 'S', slug: 's3', status: 'scheduled', published_at: start.toISOString() })
        .expect(400);
      expect(now.body.code).toBe('validation_failed');
      expect(await t.query("SELECT 1 FROM posts WHERE slug IN ('s1', 's2', 's3')")).toHaveLength(0);
    });
  });

  describe('read', () => {
    it('returns one post with its content; another organization gets 404', async () => {
      const post = await f.post(a, { content: [{ type: 'quote', text: 'Q', author: 'A' }] });
      const res = await t.api.get(`/api/v1/posts/${post['id']}`).set(a.auth).expect(200);
      expect(res.body.data).toEqual(post);
      const foreign = await t.api.get(`/api/v1/posts/${post['id']}`).set(other.auth).expect(404);
      expect(foreign.body).toMatchObject({ status: 404, code: 'not_found' });
    });

    it('answers an unknown or malformed id with 404', async () => {
      await t.api.get('/api/v1/posts/0193a3c2-7d1e-7c4e-9a57-2f5b8e1c0d9a').set(a.auth).expect(404);
      const res = await t.api.get('/api/v1/posts/not-a-uuid').set(a.auth).expect(404);
      expect(res.body.code).toBe('not_found');
    });
  });

  describe('update', () => {
    it('changes only the fields given and stamps updated_at', async () => {
      const category = await f.category(a, { name: 'Patch category' });
      const post = await f.post(a, { excerpt: 'Keep me', category_id: category.id, content: [{ type: 'paragraph', text: 'Keep' }] });
      t.clock.set('2026-11-22T08:00:00.000Z');
      const res = await t.api.patch(`/api/v1/posts/${post['id']}`).set(a.auth).send({ title: 'Renamed' }).expect(200);
      expect(res.body.data).toEqual({ ...post, title: 'Renamed', updated_at: '2026-11-22T08:00:00.000Z' });
      const [row] = await t.query('SELECT title, excerpt, updated_at FROM posts WHERE id = $1', [post['id']]);
      expect(row).toEqual({ title: 'Renamed', excerpt: 'Keep me', updated_at: new Date('2026-11-22T08:00:00.000Z') });
      t.clock.set(start);
    });

    it('replaces content, tags, category and author, and clears nullable fields with null', async () => {
      const alice = await f.author(a, 'Alice P');
      const tag1 = await f.tag(a, { name: 'One' });
      const tag2 = await f.tag(a, { name: 'Two' });
      const category = await f.category(a, { name: 'Cat P' });
      const post = await f.post(a, {
        excerpt: 'E',
        featured_image_url: 'https://img.example.com/a.png',
        category_id: category.id,
        tag_ids: [tag1.id],
      });
      const content = [{ type: 'list', items: ['a', 'b'] }];
      const res = await t.api
        .patch(`/api/v1/posts/${post['id']}`)
        .set(a.auth)
        .send({ content, tag_ids: [tag2.id, tag1.id], author_id: alice.id, excerpt: null, featured_image_url: null, category_id: null })
        .expect(200);
      expect(res.body.data).toMatchObject({
        content,
        tags: [
          { id: tag1.id, name: 'One', slug: 'one' },
          { id: tag2.id, name: 'Two', slug: 'two' },
        ],
        author: { id: alice.id, name: 'Alice P' },
        excerpt: null,
        featured_image_url: null,
        category: null,
      });
      const cleared = await t.api.patch(`/api/v1/posts/${post['id']}`).set(a.auth).send({ tag_ids: [], author_id: null }).expect(200);
      expect(cleared.body.data.tags).toEqual([]);
      expect(cleared.body.data.author).toBeNull();
      expect(await t.query('SELECT 1 FROM post_tag_links WHERE post_id = $1', [post['id']])).toHaveLength(0);
    });

    it('takes tag ids in any case, and the same id in two cases once', async () => {
      const tag = await f.tag(a, { name: 'Cased' });
      const post = await f.post(a, { tag_ids: [tag.id.toUpperCase(), tag.id] });
      expect(post['tags']).toEqual([{ id: tag.id, name: 'Cased', slug: 'cased' }]);
      expect(await t.query('SELECT tag_id FROM post_tag_links WHERE post_id = $1', [post['id']])).toEqual([{ tag_id: tag.id }]);
    });

    it('refuses a slug taken by another post, and keeps its own slug', async () => {
      const first = await f.post(a, { slug: 'first-slug' });
      const second = await f.post(a, { slug: 'second-slug' });
      const res = await t.api.patch(`/api/v1/posts/${second['id']}`).set(a.auth).send({ slug: 'first-slug' }).expect(409);
      expect(res.body.code).toBe('slug_taken');
      await t.api.patch(`/api/v1/posts/${first['id']}`).set(a.auth).send({ slug: 'first-slug' }).expect(200);
      expect((await t.query('SELECT slug FROM posts WHERE id = $1', [second['id']]))[0]!['slug']).toBe('second-slug');
    });

    it.each([
      ['an empty body', {}, 'body'],
      ['a null title', { title: null }, 'title'],
      ['a null slug', { slug: null }, 'slug'],
      ['null content', { content: null }, 'content'],
      ['a null status', { status: null }, 'status'],
      ['an unknown field', { color: 'red' }, 'color'],
      ['a read-only field', { id: '0193a3c2-7d1e-7c4e-9a57-2f5b8e1c0d9a' }, 'id'],
    ])('answers %s with 400', async (_case, body, field) => {
      const post = await f.post(a, {});
      const res = await t.api.patch(`/api/v1/posts/${post['id']}`).set(a.auth).send(body).expect(400);
      expect(res.body.code).toBe('validation_failed');
      expect(res.body.errors.map((e: { field: string }) => e.field)).toContain(field);
      const [row] = await t.query('SELECT title, updated_at FROM posts WHERE id = $1', [post['id']]);
      expect(row!['title']).toBe(post['title']);
    });

    it('answers 422 for an unknown category and leaves the post unchanged', async () => {
      const post = await f.post(a, {});
      const res = await t.api
        .patch(`/api/v1/posts/${post['id']}`)
        .set(a.auth)
        .send({ title: 'Changed', category_id: '0193a3c2-7d1e-7c4e-9a57-2f5b8e1c0d9a' })
        .expect(422);
      expect(res.body.errors).toEqual([{ field: 'category_id', message: 'no such category in the organization' }]);
      expect((await t.query('SELECT title FROM posts WHERE id = $1', [post['id']]))[0]!['title']).toBe(post['title']);
    });

    it('answers 404 for a post of another organization and changes nothing', async () => {
      const post = await f.post(other, {});
      await t.api.patch(`/api/v1/posts/${post['id']}`).set(a.auth).send({ title: 'Hijack' }).expect(404);
      expect((await t.query('SELECT title FROM posts WHERE id = $1', [post['id']]))[0]!['title']).toBe(post['title']);
    });
  });

  describe('status moves', () => {
    // Every move among the four statuses is allowed; only the publication date constrains them.
    const future = '2026-12-24T18:00:00.000Z';
    const moves: Array<[string, Record<string, unknown>, Record<string, unknown>, string, string | null]> = [
      ['draft → published sets published_at to now', {}, { status: 'published' }, 'published', start.toISOString()],
      ['draft → scheduled with a future date', {}, { status: 'scheduled', published_at: future }, 'scheduled', future],
      ['draft → archived keeps no date', {}, { status: 'archived' }, 'archived', null],
      ['published → draft keeps the date', { status: 'published', published_at: '2026-10-01T00:00:00Z' }, { status: 'draft' }, 'draft', '2026-10-01T00:00:00.000Z'],
      ['published → archived keeps the date', { status: 'published', published_at: '2026-10-01T00:00:00Z' }, { status: 'archived' }, 'archived', '2026-10-01T00:00:00.000Z'],
      ['published → scheduled with a future date', { status: 'published' }, { status: 'scheduled', published_at: future }, 'scheduled', future],
      ['scheduled → published ahead of time publishes now', { status: 'scheduled', published_at: future }, { status: 'published' }, 'published', start.toISOString()],
      ['scheduled → published with a date takes that date', { status: 'scheduled', published_at: future }, { status: 'published', published_at: '2026-11-20T00:00:00Z' }, 'published', '2026-11-20T00:00:00.000Z'],
      ['scheduled → draft keeps the planned date', { status: 'scheduled', published_at: future }, { status: 'draft' }, 'draft', future],
      ['scheduled → archived', { status: 'scheduled', published_at: future }, { status: 'archived' }, 'archived', future],
      ['archived → published keeps the original date', { status: 'archived', published_at: '2026-01-01T00:00:00Z' }, { status: 'published' }, 'published', '2026-01-01T00:00:00.000Z'],
      ['archived → draft', { status: 'archived' }, { status: 'draft' }, 'draft', null],
      ['archived → scheduled with a future date', { status: 'archived' }, { status: 'scheduled', published_at: future }, 'scheduled', future],
      ['published → published is a no-op', { status: 'published', published_at: '2026-10-01T00:00:00Z' }, { status: 'published' }, 'published', '2026-10-01T00:00:00.000Z'],
      ['rescheduling a scheduled post', { status: 'scheduled', published_at: future }, { published_at: '2027-01-01T00:00:00Z' }, 'scheduled', '2027-01-01T00:00:00.000Z'],
    ];

    it.each(moves)('%s', async (_name, create, patch, status, publishedAt) => {
      const post = await f.post(a, create);
      const res = await t.api.patch(`/api/v1/posts/${post['id']}`).set(a.auth).send(patch).expect(200);
      expect(res.body.data).toMatchObject({ status, published_at: publishedAt });
      const [row] = await t.query('SELECT status, published_at FROM posts WHERE id = $1', [post['id']]);
      expect(row).toEqual({ status, published_at: publishedAt === null ? null : new Date(publishedAt) });
    });

    it.each([
      ['to scheduled without a date', {}, { status: 'scheduled' }],
      ['to scheduled with a past date', {}, { status: 'scheduled', published_at: '2026-01-01T00:00:00Z' }],
      ['a scheduled post to a past date', { status: 'scheduled', published_at: future }, { published_at: '2026-01-01T00:00:00Z' }],
      ['a scheduled post losing its date', { status: 'scheduled', published_at: future }, { published_at: null }],
    ])('refuses a move %s with 400 and leaves the post as it was', async (_name, create, patch) => {
      const post = await f.post(a, create);
      const res = await t.api.patch(`/api/v1/posts/${post['id']}`).set(a.auth).send(patch).expect(400);
      expect(res.body.errors[0].field).toBe('published_at');
      const [row] = await t.query('SELECT status FROM posts WHERE id = $1', [post['id']]);
      expect(row!['status']).toBe(post['status']);
    });
  });

  describe('delete', () => {
    it('deletes the post and its tag links, then answers 404', async () => {
      const tag = await f.tag(a, { name: 'Doomed tag' });
      const post = await f.post(a, { tag_ids: [tag.id] });
      const res = await t.api.delete(`/api/v1/posts/${post['id']}`).set(a.auth).expect(200);
      expect(res.body).toEqual({ data: { id: post['id'], deleted: true } });
      expect(await t.query('SELECT 1 FROM posts WHERE id = $1', [post['id']])).toHaveLength(0);
      expect(await t.query('SELECT 1 FROM post_tag_links WHERE post_id = $1', [post['id']])).toHaveLength(0);
      expect(await t.query('SELECT 1 FROM post_tags WHERE id = $1', [tag.id])).toHaveLength(1);
      await t.api.delete(`/api/v1/posts/${post['id']}`).set(a.auth).expect(404);
      await t.api.get(`/api/v1/posts/${post['id']}`).set(a.auth).expect(404);
    });

    it("answers 404 for another organization's post and keeps it", async () => {
      const post = await f.post(other, {});
      await t.api.delete(`/api/v1/posts/${post['id']}`).set(a.auth).expect(404);
      expect(await t.query('SELECT 1 FROM posts WHERE id = $1', [post['id']])).toHaveLength(1);
    });
  });

  describe('authentication and scopes', () => {
    it('requires a bearer key (401)', async () => {
      const res = await t.api.get('/api/v1/posts').expect(401);
      expect(res.body.code).toBe('unauthorized');
      await t.api.post('/api/v1/posts').send({ title: 'X', slug: 'x' }).expect(401);
    });

    it('needs posts:read to read and posts:write to write (403 forbidden)', async () => {
      const reader = await t.tenant({ scopes: ['posts:read'] });
      const writer = await t.tenant({ scopes: ['posts:write'] });
      const stranger = await t.tenant({ scopes: ['bookings:read', 'bookings:write'] });
      await t.api.get('/api/v1/posts').set(reader.auth).expect(200);
      const denied = await t.api.post('/api/v1/posts').set(reader.auth).send({ title: 'X', slug: 'x' }).expect(403);
      expect(denied.body.code).toBe('forbidden');
      await t.api.get('/api/v1/posts').set(writer.auth).expect(403);
      const created = await t.api.post('/api/v1/posts').set(writer.auth).send({ title: 'X', slug: 'x' }).expect(201);
      await t.api.get(`/api/v1/posts/${created.body.data.id}`).set(writer.auth).expect(403);
      await t.api.patch(`/api/v1/posts/${created.body.data.id}`).set(writer.auth).send({ title: 'Y' }).expect(200);
      await t.api.get('/api/v1/posts').set(stranger.auth).expect(403);
      await t.api.delete(`/api/v1/posts/${created.body.data.id}`).set(stranger.auth).expect(403);
      await t.api.get('/api/v1/posts/categories').set(stranger.auth).expect(403);
      await t.api.post('/api/v1/posts/tags').set(reader.auth).send({ name: 'T' }).expect(403);
      expect(await t.query('SELECT 1 FROM post_tags WHERE organization_id = $1', [reader.orgId])).toHaveLength(0);
    });
  });
});
