import { createTestApp, Tenant, TestApp } from '../support/test-app';
import { BlogFixtures, blogFixtures, idsOf } from './blog-fixtures';

/**
 * GET /api/v1/posts: every filter, order, pagination rule and default (docs/contract/blog.md), against a fixed
 * set of eight posts whose expected orders are written out by hand.
 */
describe('posts: list, filters, order and pagination (e2e)', () => {
  let t: TestApp;
  let f: BlogFixtures;
  let a: Tenant;
  let other: Tenant;
  const now = new Date('2026-11-21T10:00:00.000Z');
  const minute = 60_000;
  const p: Record<string, Record<string, any>> = {};
  let eng: { id: string };
  let foreignCategory: { id: string };
  let tags: Record<string, { id: string }>;
  let alice: { id: string };
  let bob: { id: string };

  const list = async (query = '', tenant = a) => (await t.api.get(`/api/v1/posts${query}`).set(tenant.auth).expect(200)).body;
  const names = (body: { data: Array<{ id: string }> }): string[] =>
    idsOf(body).map((id) => Object.keys(p).find((key) => p[key]!['id'] === id) ?? `foreign:${id}`);

  beforeAll(async () => {
    t = await createTestApp();
    f = blogFixtures(t);
    t.clock.set(now);
    a = await t.tenant();
    other = await t.tenant();
    eng = await f.category(a, { name: 'Engineering', slug: 'eng' });
    await f.category(a, { name: 'Life', slug: 'life' });
    foreignCategory = await f.category(other, { name: 'Engineering', slug: 'eng' });
    tags = {
      pg: await f.tag(a, { name: 'PostgreSQL', slug: 'pg' }),
      node: await f.tag(a, { name: 'Node', slug: 'node' }),
      ux: await f.tag(a, { name: 'UX', slug: 'ux' }),
    };
    alice = await f.author(a, 'Alice');
    bob = await f.author(a, 'Bob');
    const life = (await t.query<{ id: string }>('SELECT id FROM post_categories WHERE organization_id = $1 AND slug = $2', [a.orgId, 'life']))[0]!;

    const specs: Array<[string, Record<string, unknown>]> = [
      ['alpha', { status: 'published', category_id: eng.id, tag_ids: [tags['pg']!.id, tags['node']!.id], author_id: alice.id, is_featured: true, published_at: '2026-01-01T00:00:00Z' }],
      ['bravo', { status: 'published', category_id: life.id, tag_ids: [tags['ux']!.id], author_id: bob.id, published_at: '2026-02-01T00:00:00Z' }],
      ['charlie', { status: 'draft', category_id: eng.id, tag_ids: [tags['pg']!.id], author_id: alice.id }],
      ['delta', { status: 'archived', author_id: bob.id, published_at: '2025-12-01T00:00:00Z' }],
      ['echo', { status: 'scheduled', category_id: eng.id, tag_ids: [tags['node']!.id], author_id: alice.id, is_featured: true, published_at: '2026-12-01T00:00:00Z' }],
      ['foxtrot', { status: 'published', category_id: eng.id, tag_ids: [tags['pg']!.id, tags['node']!.id, tags['ux']!.id], author_id: null, published_at: '2026-03-01T00:00:00Z' }],
      ['golf', { status: 'published', category_id: life.id, author_id: alice.id, published_at: '2026-03-01T00:00:00Z' }],
      ['hotel', { status: 'draft', author_id: bob.id }],
    ];
    for (const [index, [name, body]] of specs.entries()) {
      t.clock.set(new Date(now.getTime() + (index + 1) * minute));
      const title = name[0]!.toUpperCase() + name.slice(1);
      p[name] = await f.post(a, { title, slug: name, excerpt: `About ${name}`, ...body, content: [{ type: 'paragraph', text: name }] });
    }
    // alpha becomes the most recently updated post.
    t.clock.set(new Date(now.getTime() + 30 * minute));
    p['alpha'] = (await t.api.patch(`/api/v1/posts/${p['alpha']!['id']}`).set(a.auth).send({ excerpt: 'About alpha, revised' }).expect(200)).body.data;
    t.clock.set(now);
    await f.post(other, { title: 'Foreign', slug: 'alpha', status: 'published', category_id: foreignCategory.id, is_featured: true });
  });
  afterAll(async () => {
    await t.close();
  });

  it('lists by published_at desc, nulls last, ties by id, with meta and without content', async () => {
    const body = await list();
    expect(names(body)).toEqual(['echo', 'golf', 'foxtrot', 'bravo', 'alpha', 'delta', 'hotel', 'charlie']);
    expect(body.meta).toEqual({ total: 8, limit: 20, offset: 0, hasMore: false });
    const { content: _content, ...alphaWithoutContent } = p['alpha']!;
    expect(body.data.find((item: { id: string }) => item.id === p['alpha']!['id'])).toEqual(alphaWithoutContent);
    for (const item of body.data) expect(item).not.toHaveProperty('content');
    expect(Object.keys(body.data[0]).sort()).toEqual(
      ['author', 'category', 'created_at', 'excerpt', 'featured_image_url', 'id', 'is_featured', 'published_at', 'slug', 'status', 'tags', 'title', 'updated_at'].sort(),
    );
  });

  it.each<[string, string[]]>([
    ['?order=asc', ['delta', 'alpha', 'bravo', 'foxtrot', 'golf', 'echo', 'charlie', 'hotel']],
    ['?order_by=published_at&order=desc', ['echo', 'golf', 'foxtrot', 'bravo', 'alpha', 'delta', 'hotel', 'charlie']],
    ['?order_by=created_at', ['hotel', 'golf', 'foxtrot', 'echo', 'delta', 'charlie', 'bravo', 'alpha']],
    ['?order_by=created_at&order=asc', ['alpha', 'bravo', 'charlie', 'delta', 'echo', 'foxtrot', 'golf', 'hotel']],
    ['?order_by=updated_at', ['alpha', 'hotel', 'golf', 'foxtrot', 'echo', 'delta', 'charlie', 'bravo']],
    ['?order_by=updated_at&order=asc', ['bravo', 'charlie', 'delta', 'echo', 'foxtrot', 'golf', 'hotel', 'alpha']],
    ['?order_by=title&order=asc', ['alpha', 'bravo', 'charlie', 'delta', 'echo', 'foxtrot', 'golf', 'hotel']],
    ['?order_by=title', ['hotel', 'golf', 'foxtrot', 'echo', 'delta', 'charlie', 'bravo', 'alpha']],
  ])('orders %s', async (query, expected) => {
    const body = await list(query);
    expect(names(body)).toEqual(expected);
    expect(body.meta.total).toBe(8);
  });

  it.each<[string, string[]]>([
    ['?status=published', ['golf', 'foxtrot', 'bravo', 'alpha']],
    ['?status=draft', ['hotel', 'charlie']],
    ['?status=scheduled', ['echo']],
    ['?status=archived', ['delta']],
    [`?category=eng`, ['echo', 'foxtrot', 'alpha', 'charlie']],
    [`?category=life`, ['golf', 'bravo']],
    [`?category=nope`, []],
    ['?tag=pg', ['foxtrot', 'alpha', 'charlie']],
    ['?tag=node', ['echo', 'foxtrot', 'alpha']],
    ['?tag=ux', ['foxtrot', 'bravo']],
    ['?tag=nope', []],
    ['?featured=true', ['echo', 'alpha']],
    ['?featured=1', ['echo', 'alpha']],
    ['?featured=false', ['echo', 'golf', 'foxtrot', 'bravo', 'alpha', 'delta', 'hotel', 'charlie']],
    ['?featured=0', ['echo', 'golf', 'foxtrot', 'bravo', 'alpha', 'delta', 'hotel', 'charlie']],
    ['?category=eng&tag=node&status=published', ['foxtrot', 'alpha']],
    ['?status=published&featured=true', ['alpha']],
    ['?tag=ux&category=life', ['bravo']],
    ['?tag=pg&tag_id=TAG:node', ['foxtrot', 'alpha']],
    ['?category=eng&category_id=CAT:eng&order_by=title&order=asc', ['alpha', 'charlie', 'echo', 'foxtrot']],
    ['?tag_id=TAG:ux', ['foxtrot', 'bravo']],
    ['?category_id=CAT:eng', ['echo', 'foxtrot', 'alpha', 'charlie']],
    ['?category_id=CAT:foreign', []],
    ['?category=life&category_id=CAT:eng', []],
    ['?category=eng&category_id=UPPER:eng', ['echo', 'foxtrot', 'alpha', 'charlie']],
    ['?tag=ux&tag_id=TAG:ux', ['foxtrot', 'bravo']],
    ['?author_id=USER:alice', ['echo', 'golf', 'alpha', 'charlie']],
    ['?author_id=USER:bob&tag=ux', ['bravo']],
  ])('filters %s (AND), counting each post once', async (template, expected) => {
    const query = template
      .replace('TAG:node', tags['node']!.id)
      .replace('TAG:ux', tags['ux']!.id)
      .replace('UPPER:eng', eng.id.toUpperCase())
      .replace('CAT:eng', eng.id)
      .replace('CAT:foreign', foreignCategory.id)
      .replace('USER:alice', alice.id)
      .replace('USER:bob', bob.id);
    const body = await list(query);
    expect(names(body)).toEqual(expected);
    expect(body.meta).toEqual({ total: expected.length, limit: 20, offset: 0, hasMore: false });
  });

  it('paginates with limit and offset, hasMore = offset + returned < total', async () => {
    const first = await list('?limit=3');
    expect(names(first)).toEqual(['echo', 'golf', 'foxtrot']);
    expect(first.meta).toEqual({ total: 8, limit: 3, offset: 0, hasMore: true });
    const middle = await list('?limit=3&offset=3');
    expect(names(middle)).toEqual(['bravo', 'alpha', 'delta']);
    expect(middle.meta).toEqual({ total: 8, limit: 3, offset: 3, hasMore: true });
    const last = await list('?limit=3&offset=6');
    expect(names(last)).toEqual(['hotel', 'charlie']);
    expect(last.meta).toEqual({ total: 8, limit: 3, offset: 6, hasMore: false });
    const beyond = await list('?offset=50');
    expect(beyond).toEqual({ data: [], meta: { total: 8, limit: 20, offset: 50, hasMore: false } });
    const filtered = await list('?tag=pg&limit=2&offset=1');
    expect(names(filtered)).toEqual(['alpha', 'charlie']);
    expect(filtered.meta).toEqual({ total: 3, limit: 2, offset: 1, hasMore: false });
  });

  it('clamps limit to 100 and says so in meta', async () => {
    const body = await list('?limit=1000');
    expect(body.meta).toEqual({ total: 8, limit: 100, offset: 0, hasMore: false });
  });

  it('defaults limit to 20', async () => {
    const many = await t.tenant();
    for (let i = 0; i < 23; i++) await f.post(many, { title: `Bulk ${i}`, slug: `bulk-${i}` });
    const body = await list('', many);
    expect(body.data).toHaveLength(20);
    expect(body.meta).toEqual({ total: 23, limit: 20, offset: 0, hasMore: true });
    const rest = await list('?offset=20', many);
    expect(rest.data).toHaveLength(3);
    expect(new Set([...idsOf(body), ...idsOf(rest)]).size).toBe(23);
  });

  it("never lists another organization's posts", async () => {
    const mine = await list('?limit=100');
    expect(names(mine).every((name) => !name.startsWith('foreign:'))).toBe(true);
    const theirs = await list('', other);
    expect(theirs.data.map((item: { title: string }) => item.title)).toEqual(['Foreign']);
    expect(theirs.meta.total).toBe(1);
    const crossed = await list(`?category_id=${eng.id}`, other);
    expect(crossed.meta.total).toBe(0);
  });

  it.each<[string, string]>([
    ['?order_by=views', 'order_by'],
    ['?order_by=PUBLISHED_AT', 'order_by'],
    ['?order=up', 'order'],
    ['?status=live', 'status'],
    ['?status=draft&status=published', 'status'],
    ['?featured=yes', 'featured'],
    ['?limit=0', 'limit'],
    ['?limit=-5', 'limit'],
    ['?limit=abc', 'limit'],
    ['?limit=1.5', 'limit'],
    ['?offset=-1', 'offset'],
    ['?offset=99999999999999999999', 'offset'],
    ['?category_id=eng', 'category_id'],
    ['?tag_id=1', 'tag_id'],
    ['?author_id=alice', 'author_id'],
    ['?category=Not%20A%20Slug', 'category'],
    ['?tag=UPPER', 'tag'],
    [`?search=${'x'.repeat(501)}`, 'search'],
  ])('answers %s with 400 naming %s', async (query, field) => {
    const res = await t.api.get(`/api/v1/posts${query}`).set(a.auth).expect(400);
    expect(res.body).toMatchObject({ status: 400, code: 'validation_failed' });
    expect(res.body.errors.map((e: { field: string }) => e.field)).toContain(field);
  });

  it('documents the default limit of 20 and every parameter', async () => {
    const operation = (t.document as any).paths['/api/v1/posts'].get;
    const parameters = Object.fromEntries(operation.parameters.map((p: { name: string; schema: object }) => [p.name, p.schema]));
    expect(Object.keys(parameters).sort()).toEqual(
      ['author_id', 'category', 'category_id', 'featured', 'limit', 'offset', 'order', 'order_by', 'search', 'status', 'tag', 'tag_id'].sort(),
    );
    expect(parameters['limit']).toMatchObject({ default: 20, minimum: 1 });
    expect(parameters['order_by']).toMatchObject({ enum: ['published_at', 'created_at', 'updated_at', 'title'], default: 'published_at' });
  });

  it('ignores unknown query parameters', async () => {
    const body = await list('?colour=blue&status=archived');
    expect(names(body)).toEqual(['delta']);
  });

  it('pages a lone tag newest first (from the links), ties by id and undated posts last, and follows date changes', async () => {
    const tenant = await t.tenant();
    const tag = await f.tag(tenant, { name: 'Busy', slug: 'busy' });
    const dates = ['2026-05-01T00:00:00Z', '2026-05-01T00:00:00Z', '2026-05-01T00:00:00Z', '2026-04-01T00:00:00Z', null, null, '2026-06-01T00:00:00Z'];
    const posts: Array<{ id: string; published_at: string | null }> = [];
    for (let i = 0; i < 21; i++) {
      const date = dates[i % dates.length]!;
      const body = date === null ? { status: 'draft' } : { status: 'published', published_at: date };
      posts.push((await f.post(tenant, { title: `Busy ${i}`, tag_ids: [tag.id], ...body })) as { id: string; published_at: string | null });
    }
    await f.post(tenant, { title: 'Untagged', status: 'published', published_at: '2026-07-01T00:00:00Z' });
    const expected = () =>
      [...posts]
        .sort((x, y) => {
          if (x.published_at !== y.published_at) {
            if (x.published_at === null) return 1;
            if (y.published_at === null) return -1;
            return y.published_at.localeCompare(x.published_at);
          }
          return y.id.localeCompare(x.id);
        })
        .map((post) => post.id);
    const pages = async () => {
      const seen: string[] = [];
      for (let offset = 0; offset < 21; offset += 5) {
        const body = (await t.api.get(`/api/v1/posts?tag=busy&limit=5&offset=${offset}`).set(tenant.auth).expect(200)).body;
        expect(body.meta).toEqual({ total: 21, limit: 5, offset, hasMore: offset + 5 < 21 });
        seen.push(...idsOf(body));
      }
      return seen;
    };
    expect(await pages()).toEqual(expected());
    // A post's new date moves it (the links' copy follows the post).
    const moved = (await t.api.patch(`/api/v1/posts/${posts[4]!.id}`).set(tenant.auth).send({ status: 'published', published_at: '2026-08-01T00:00:00Z' }).expect(200)).body.data;
    posts[4] = moved;
    expect((await pages())[0]).toBe(moved.id);
    expect(await pages()).toEqual(expected());
  });
});
