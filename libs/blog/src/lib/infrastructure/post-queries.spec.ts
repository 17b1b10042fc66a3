import { endsWithPlainWord, postByIdQuery, postListQuery, type PostListFilter } from './post-queries';

const base = {
  organizationId: '0193a3c2-7d1e-7c4e-9a57-2f5b8e1c0d9a',
  order: 'desc' as const,
  limit: 20,
  offset: 0,
  now: new Date('2026-11-21T10:00:00Z'),
  tagIds: [] as string[],
};

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
    });
    expect(query.text).not.toContain('DROP');
    expect(query.text).not.toContain('category-a');
    expect(query.text).not.toContain('tag-b');
    expect(query.values).toContain(hostile);
    const placeholders = new Set(query.text.match(/\$\d+/g));
    expect(placeholders.size).toBe(query.values.length);
  });

  it('filters tags with EXISTS so that a post matches once', () => {
    const query = postListQuery({ ...base, tagIds: ['a', 'b'] });
    expect(query.text.match(/EXISTS \(SELECT 1 FROM post_tag_links l WHERE l\.post_id = p\.id AND l\.tag_id = \$\d+\)/g)).toHaveLength(4); // in the count and in the page
  });

  it('counts a lone tag filter from the links alone, and anything more from the posts', () => {
    const alone = postListQuery({ ...base, tagIds: ['a'] });
    expect(alone.text).toMatch(/total AS \(\s*SELECT count\(\*\) AS total FROM post_tag_links l\s*WHERE l\.organization_id = \$2 AND l\.tag_id = \$3\s*\)/);
    expect(alone.values.slice(1, 3)).toEqual([base.organizationId, 'a']);
    // Newest first (the default), the page comes from the links' index too; in any other order it
    // reads the posts, through the same EXISTS.
    expect(alone.text).toMatch(
      /page AS \(\s*SELECT l\.post_id AS id, NULL::real AS rank FROM post_tag_links l\s*WHERE l\.organization_id = \$2 AND l\.tag_id = \$3\s*ORDER BY l\.post_published_at DESC NULLS LAST, l\.post_id DESC\s*LIMIT/,
    );
    const orders: Array<Partial<PostListFilter>> = [{ order: 'asc' }, { orderBy: 'title' }, { orderBy: 'created_at', order: 'desc' }];
    for (const order of orders) {
      expect(postListQuery({ ...base, tagIds: ['a'], ...order }).text).toMatch(
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
      expect(postListQuery({ ...base, tagIds: ['a'], ...extra }).text).toMatch(/total AS \(\s*SELECT count\(\*\) AS total FROM posts p/);
    }
    expect(postListQuery({ ...base, tagIds: ['a'], search: 'x' }).text).toMatch(/total AS \(\s*SELECT count\(\*\) AS total FROM hits p/);
    expect(postListQuery(base).text).toMatch(/total AS \(\s*SELECT count\(\*\) AS total FROM posts p/);
  });

  it.each<[string, object, RegExp]>([
    ['published_at desc, nulls last, by default', {}, /ORDER BY p\.published_at DESC NULLS LAST, p\.id DESC/],
    ['published_at asc, nulls last', { order: 'asc' }, /ORDER BY p\.published_at ASC NULLS LAST, p\.id ASC/],
    ['title asc', { orderBy: 'title', order: 'asc' }, /ORDER BY p\.title ASC, p\.id ASC/],
    ['relevance when searching', { search: 'x' }, /ts_rank\(p\.rank_vector, .*\) AS rank[\s\S]*ORDER BY p\.rank DESC, p\.id DESC/],
    ['order_by wins over relevance', { search: 'x', orderBy: 'created_at' }, /ORDER BY p\.created_at DESC, p\.id DESC/],
  ])('orders by %s', (_name, criteria, pattern) => {
    expect(postListQuery({ ...base, ...criteria }).text).toMatch(pattern);
  });

  it('matches the search alone, through the index, before any other filter', () => {
    const text = postListQuery({ ...base, search: 'x', status: 'draft', tagIds: ['t'] }).text;
    expect(text).toMatch(/hits AS MATERIALIZED \(\s*SELECT [^;]*WHERE p\.organization_id = \$2 AND p\.search_vector @@ [^\n]*\n\s*\)/);
    expect(text).toMatch(/hits AS MATERIALIZED \(\s*SELECT p\.id, p\.status, p\.published_at, ts_rank/);
    expect(text).toMatch(/page AS \(\s*SELECT p\.id, p\.rank FROM hits p\s*WHERE p\.status = \$3\s*AND EXISTS/);
  });

  it('reads one post within its organization', () => {
    const query = postByIdQuery(base.organizationId, 'id-1', base.now);
    expect(query.text).toMatch(/WHERE p\.organization_id = \$2 AND p\.id = \$3/);
    expect(query.values).toEqual([base.now, base.organizationId, 'id-1']);
  });
});
