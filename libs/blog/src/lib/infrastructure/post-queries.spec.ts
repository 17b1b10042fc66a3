import { endsWithPlainWord, postByIdQuery, postListQuery, SEARCH_SCAN, type PostListFilter } from './post-queries';

const base = {
  organizationId: '0193a3c2-7d1e-7c4e-9a57-2f5b8e1c0d9a',
  order: 'desc' as const,
  limit: 20,
  offset: 0,
  now: new Date('2026-11-21T10:00:00Z'),
  tagIds: [] as string[],
};

const bounds = { countCap: 10_000, searchWindow: 200 };

describe('post queries', () => {
  it.each<[string, boolean]>([
    ['sched', true],
    ['running fast', true],
    ['café', true],
    ['2026', true],
    ['sched ', true],
    ['"exact phrase"', false],
    ['"unclosed phrase', false],
    ['cats -dogs', false],
    ['cats -', false],
    ['cats or', true],
    ['what?', false],
    ['', false],
  ])('decides whether the last word of %j becomes a prefix: %s', (search, expected) => {
    expect(endsWithPlainWord(search)).toBe(expected);
  });

  it('never puts user text into the SQL, only into the parameters', () => {
    const hostile = "x'; DROP TABLE posts; -- :* & | !";
    const query = postListQuery({
      ...base,
      search: hostile,
      status: 'published',
      tagIds: [base.organizationId, 'tag-b'],
      categoryId: 'category-a',
      authorId: base.organizationId,
      featuredOnly: true,
    }, bounds);
    expect(query.text).not.toContain('DROP');
    expect(query.text).not.toContain('category-a');
    expect(query.text).not.toContain('tag-b');
    expect(query.values).toContain(hostile);
    const placeholders = new Set(query.text.match(/\$\d+/g));
    expect(placeholders.size).toBe(query.values.length);
  });

  it('filters tags with EXISTS so that a post matches once', () => {
    const query = postListQuery({ ...base, tagIds: ['a', 'b'] }, bounds);
    expect(query.text.match(/EXISTS \(SELECT 1 FROM post_tag_links l WHERE l\.post_id = p\.id AND l\.tag_id = \$\d+\)/g)).toHaveLength(4); // in the count and in the page
  });

  it('counts a lone tag filter from the links alone, and anything more from the posts', () => {
    const alone = postListQuery({ ...base, tagIds: ['a'] }, bounds);
    expect(alone.text).toMatch(
      /total AS \(\s*SELECT count\(\*\) AS total FROM \(SELECT 1 FROM post_tag_links l\s*WHERE l\.organization_id = \$2 AND l\.tag_id = \$3 LIMIT \$4\) AS matching\s*\)/,
    );
    expect(alone.values.slice(1, 4)).toEqual([base.organizationId, 'a', 10_001]);
    // Newest first (the default), the page comes from the links' index too; in any other order it
    // reads the posts, through the same EXISTS.
    expect(alone.text).toMatch(
      /page AS \(\s*SELECT l\.post_id AS id, NULL::real AS rank FROM post_tag_links l\s*WHERE l\.organization_id = \$2 AND l\.tag_id = \$3\s*ORDER BY l\.post_published_at DESC NULLS LAST, l\.post_id DESC\s*LIMIT/,
    );
    const orders: Array<Partial<PostListFilter>> = [{ order: 'asc' }, { orderBy: 'title' }, { orderBy: 'created_at', order: 'desc' }];
    for (const order of orders) {
      expect(postListQuery({ ...base, tagIds: ['a'], ...order }, bounds).text).toMatch(
        /page AS \(\s*SELECT p\.id, NULL::real AS rank FROM posts p\s*WHERE p\.organization_id = \$2\s*AND EXISTS \(SELECT 1 FROM post_tag_links l WHERE l\.post_id = p\.id AND l\.tag_id = \$3\)/,
      );
    }
    const withMore: object[] = [
      { status: 'published' },
      { status: 'draft' },
      { categoryId: 'c' },
      { authorId: 'u' },
      { featuredOnly: true },
      { tagIds: ['a', 'b'] },
    ];
    for (const extra of withMore) {
      expect(postListQuery({ ...base, tagIds: ['a'], ...extra }, bounds).text).toMatch(/total AS \(\s*SELECT count\(\*\) AS total FROM \(SELECT 1 FROM posts p/);
    }
    expect(postListQuery({ ...base, tagIds: ['a'], search: 'x' }, bounds).text).toMatch(/total AS \(\s*SELECT count\(\*\) AS total FROM matches\s*\)/);
    expect(postListQuery(base, bounds).text).toMatch(/total AS \(\s*SELECT count\(\*\) AS total FROM \(SELECT 1 FROM posts p/);
  });

  it.each<[string, object, RegExp]>([
    ['published_at desc, nulls last, by default', {}, /ORDER BY p\.published_at DESC NULLS LAST, p\.id DESC/],
    ['published_at asc, nulls last', { order: 'asc' }, /ORDER BY p\.published_at ASC NULLS LAST, p\.id ASC/],
    ['title asc', { orderBy: 'title', order: 'asc' }, /ORDER BY p\.title ASC, p\.id ASC/],
    ['relevance when searching', { search: 'x' }, /ts_rank\(p\.rank_vector, .*\) AS rank[\s\S]*ORDER BY p\.rank DESC, p\.id DESC/],
    ['order_by wins over relevance', { search: 'x', orderBy: 'created_at' }, /ORDER BY p\.created_at DESC, p\.id DESC/],
  ])('orders by %s', (_name, criteria, pattern) => {
    expect(postListQuery({ ...base, ...criteria }, bounds).text).toMatch(pattern);
  });

  it('gathers a search’s candidates newest first among a bounded number of the newest posts, else through the full-text index, with every filter, one more than the window', () => {
    const query = postListQuery({ ...base, search: 'x', status: 'draft', tagIds: ['t'] }, bounds);
    const filters = String.raw`p\.status = \$3\s*AND EXISTS \(SELECT 1 FROM post_tag_links l WHERE l\.post_id = p\.id AND l\.tag_id = \$4\)`;
    const recent = new RegExp(
      String.raw`recent AS MATERIALIZED \(\s*SELECT p\.id, p\.published_at, p\.rank_vector\s*FROM \(\s*SELECT p\.id, p\.published_at, p\.rank_vector, p\.search_vector FROM posts p\s*WHERE p\.organization_id = \$2 AND ${filters}\s*ORDER BY p\.published_at DESC NULLS LAST, p\.id DESC\s*LIMIT \$(\d+)\s*\) p\s*WHERE p\.search_vector @@ [^\n]*\n\s*ORDER BY p\.published_at DESC NULLS LAST, p\.id DESC\s*LIMIT \$(\d+)\s*\)`,
    ).exec(query.text);
    expect(recent).not.toBeNull();
    const [, scanned, limit] = recent!;
    expect([query.values[Number(scanned) - 1], query.values[Number(limit) - 1]]).toEqual([SEARCH_SCAN, 201]);
    // The full-text index's way, only when the newest posts held too few matches; ordered by an
    // expression the newest-first index cannot give.
    expect(query.text).toMatch(
      new RegExp(
        String.raw`WHERE \(SELECT count\(\*\) FROM recent\) <= \$(\d+)\s*AND p\.organization_id = \$2 AND p\.search_vector @@ [^\n]*\n\s*AND ${filters}\s*ORDER BY \(p\.published_at \+ interval '0 seconds'\) DESC NULLS LAST, p\.id DESC\s*LIMIT \$${limit}\)`,
      ),
    );
    // Relevance for the window's posts only.
    expect(query.text).toMatch(
      /hits AS \(\s*SELECT p\.\*, ts_rank\(p\.rank_vector, [^\n]*\) AS rank\s*FROM \(SELECT \* FROM matches p ORDER BY p\.published_at DESC NULLS LAST, p\.id DESC LIMIT \$(\d+)\) p\s*\)/,
    );
    expect(query.text).toMatch(/page AS \(\s*SELECT p\.id, p\.rank FROM hits p\s*ORDER BY p\.rank DESC, p\.id DESC\s*LIMIT/);
    const [, hitsLimit] = /FROM matches p ORDER BY [^)]*LIMIT \$(\d+)/.exec(query.text)!;
    expect(query.values[Number(hitsLimit) - 1]).toEqual(200);
  });

  it('reads one post within its organization', () => {
    const query = postByIdQuery(base.organizationId, 'id-1', base.now);
    expect(query.text).toMatch(/WHERE p\.organization_id = \$2 AND p\.id = \$3/);
    expect(query.values).toEqual([base.now, base.organizationId, 'id-1']);
  });
});
