import { createTestApp, Tenant, TestApp } from '../support/test-app';
import { BlogFixtures, blogFixtures, idsOf } from './blog-fixtures';

/**
 * A search considers only the most recent matching posts (the window: 1,000 in production, 4 here)
 * and orders those by relevance: an older post, however good a match, is not among the results. The
 * total counts the window's posts, and says it is a lower bound when more posts matched.
 */
const WINDOW = 4;

describe('posts: a search ranks the most recent matches only (e2e)', () => {
  let t: TestApp;
  let blog: BlogFixtures;

  beforeAll(async () => {
    t = await createTestApp({ config: { searchWindow: WINDOW, rateLimitPerMinute: 1_000_000 } });
    blog = blogFixtures(t);
  });
  afterAll(async () => {
    await t.close();
  });

  /** Posts published a day apart, oldest first, with the word where each spec puts it. */
  async function postsWith(tenant: Tenant, specs: Array<'title' | 'excerpt' | 'content' | 'none'>): Promise<string[]> {
    const ids: string[] = [];
    for (const [i, where] of specs.entries()) {
      const post = await blog.post(tenant, {
        status: 'published',
        published_at: `2027-01-${String(10 + i).padStart(2, '0')}T09:00:00Z`,
        title: where === 'title' ? `Gardening, gardening and more gardening ${i}` : `Notes ${i}`,
        excerpt: where === 'excerpt' ? 'A word on gardening' : 'A word on cooking',
        content: [{ type: 'paragraph', text: where === 'content' ? 'Some gardening at the end' : 'Nothing to see' }],
      });
      ids.push(post['id'] as string);
    }
    return ids;
  }

  it('ranks within the window of recent matches, and counts the window', async () => {
    const tenant = await t.tenant();
    // The oldest post is the best match of all; the four newest matches form the window.
    const [best, older, inTitle, inContent, inExcerpt, unrelated, newest] = await postsWith(tenant, [
      'title',
      'content',
      'title',
      'content',
      'excerpt',
      'none',
      'content',
    ]);
    // A match in the title ranks above one in the excerpt; content alone ranks 0 (newest id first).
    const contentOnly = [inContent!, newest!].sort().reverse();
    const expected = [inTitle!, inExcerpt!, ...contentOnly];

    const first = await t.api.get('/api/v1/posts?search=gardening&limit=2').set(tenant.auth).expect(200);
    expect(idsOf(first.body)).toEqual(expected.slice(0, 2));
    expect(first.body.meta).toEqual({ total: WINDOW, limit: 2, offset: 0, hasMore: true, total_is_lower_bound: true });
    const second = await t.api.get('/api/v1/posts?search=gardening&limit=2&offset=2').set(tenant.auth).expect(200);
    expect(idsOf(second.body)).toEqual(expected.slice(2));
    expect(second.body.meta).toEqual({ total: WINDOW, limit: 2, offset: 2, hasMore: false, total_is_lower_bound: true });
    const past = await t.api.get('/api/v1/posts?search=gardening&limit=2&offset=4').set(tenant.auth).expect(200);
    expect(past.body).toEqual({ data: [], meta: { total: WINDOW, limit: 2, offset: 4, hasMore: false, total_is_lower_bound: true } });
    // A page past the ranks the instance keeps takes the one-statement query: the same window.
    const deep = await t.api.get('/api/v1/posts?search=gardening&limit=100&offset=150').set(tenant.auth).expect(200);
    expect(deep.body).toEqual({ data: [], meta: { total: WINDOW, limit: 100, offset: 150, hasMore: false, total_is_lower_bound: true } });

    for (const id of [best, older, unrelated]) expect(idsOf(first.body).concat(idsOf(second.body))).not.toContain(id);
    // Another order applies to the same window.
    const byTitle = await t.api.get('/api/v1/posts?search=gardening&order_by=title&order=asc').set(tenant.auth).expect(200);
    expect(byTitle.body.data.map((post: { title: string }) => post.title)).toEqual(['Gardening, gardening and more gardening 2', 'Notes 3', 'Notes 4', 'Notes 6']);
  });

  it.each([
    [WINDOW - 1, { total: WINDOW - 1 }],
    [WINDOW, { total: WINDOW }],
    [WINDOW + 1, { total: WINDOW, total_is_lower_bound: true }],
  ])('with %i matches: %j', async (matches, expected) => {
    const tenant = await t.tenant();
    // The oldest match is the best one (the word in its title); the others tie (in the excerpt).
    const [, best, ...others] = await postsWith(tenant, ['none', 'title', ...Array.from({ length: matches - 1 }, () => 'excerpt' as const)]);
    const res = await t.api.get('/api/v1/posts?search=gardening&limit=3').set(tenant.auth).expect(200);
    expect(res.body.meta).toEqual({ limit: 3, offset: 0, hasMore: expected.total > 3, ...expected });
    // Ties: newest id first. The best match leads while it is among the window's posts.
    const ties = [...others].sort().reverse();
    expect(idsOf(res.body)).toEqual((matches <= WINDOW ? [best!, ...ties] : ties).slice(0, 3));
  });

  it('applies the filters before the window: older matches that pass them count', async () => {
    const tenant = await t.tenant();
    const category = await blog.category(tenant, { name: 'Garden' });
    const [old] = await postsWith(tenant, ['title']);
    await t.api.patch(`/api/v1/posts/${old}`).set(tenant.auth).send({ category_id: category.id }).expect(200);
    // Five newer matches outside the category.
    await postsWith(tenant, ['excerpt', 'excerpt', 'excerpt', 'excerpt', 'excerpt']);
    const res = await t.api.get(`/api/v1/posts?search=gardening&category=${category.slug}`).set(tenant.auth).expect(200);
    expect(idsOf(res.body)).toEqual([old]);
    expect(res.body.meta).toEqual({ total: 1, limit: 20, offset: 0, hasMore: false });
  });
});
