'use strict';
// The post list on the floor: the statement comes from the API's own query builder
// (libs/blog/src/lib/infrastructure/post-queries.ts, compiled), so the SQL is the API's by construction.

const { Checks, knownQuery } = require('./checks');
const { validationFailed } = require('./problem');
const {
  postListQuery,
  searchPage,
  SearchRankingCache,
  SEARCH_SETTINGS_SQL,
  idBySlugQuery,
  POST_STATUSES,
  POST_ORDER_FIELDS,
  SORT_DIRECTIONS,
} = require('./domain');

// As the API's BlogModule: one cache of broad searches' rankings per process, the same defaults.
// The floor takes no blog writes, so nothing invalidates it here.
const rankings = new SearchRankingCache();

const DEFAULT_POST_LIMIT = 20;
const MAX_LIMIT = 100;
const MAX_SEARCH_LENGTH = 500;

const LIST_PARAMS = [
  'limit',
  'offset',
  'status',
  'category_id',
  'category',
  'tag_id',
  'tag',
  'author_id',
  'featured',
  'search',
  'order_by',
  'order',
];

function toListItem(row) {
  return {
    id: row.id,
    title: row.title,
    slug: row.slug,
    excerpt: row.excerpt,
    featured_image_url: row.featured_image_url,
    status: row.status,
    is_featured: row.is_featured,
    published_at: row.published_at ? row.published_at.toISOString() : null,
    category: row.category_id
      ? { id: row.category_id, name: row.category_name, slug: row.category_slug }
      : null,
    author: row.author_id ? { id: row.author_id, name: row.author_name } : null,
    tags: row.tags.map((tag) => ({ id: tag.id, name: tag.name, slug: tag.slug })),
    created_at: row.created_at.toISOString(),
    updated_at: row.updated_at.toISOString(),
  };
}

async function idBySlug(db, table, organizationId, slug) {
  const query = idBySlugQuery(table, organizationId, slug);
  const { rows } = await db.query(query.text, query.values);
  return rows[0]?.id ?? null;
}

/** A statement in a transaction of its own with the search's planner settings (SET LOCAL). */
async function withSearchSettings(pool, query) {
  const client = await pool.connect();
  try {
    await client.query('START TRANSACTION');
    try {
      await client.query(SEARCH_SETTINGS_SQL);
      const { rows } = await client.query(query.text, query.values);
      await client.query('COMMIT');
      return rows;
    } catch (error) {
      await client.query('ROLLBACK');
      throw error;
    }
  } finally {
    client.release();
  }
}

/** PostRepository.list: { total, rows } or null when a slug names nothing. */
async function listRows(pool, criteria) {
  const { categorySlug, tagSlug, tagId, ...rest } = criteria;
  let categoryId = criteria.categoryId?.toLowerCase();
  if (categorySlug !== undefined) {
    const id = await idBySlug(pool, 'post_categories', criteria.organizationId, categorySlug);
    if (id === null || (categoryId !== undefined && categoryId !== id)) return null;
    categoryId = id;
  }
  const tagIds = tagId !== undefined ? [tagId.toLowerCase()] : [];
  if (tagSlug !== undefined) {
    const id = await idBySlug(pool, 'post_tags', criteria.organizationId, tagSlug);
    if (id === null) return null;
    if (!tagIds.includes(id)) tagIds.push(id);
  }
  const filter = { ...rest, categoryId, tagIds };
  const fromList = (rows) => ({
    total: Number(rows[0]?.total ?? 0),
    rows: rows.filter((row) => row.id !== null),
  });
  if (filter.search === undefined) {
    const sql = postListQuery(filter);
    return fromList((await pool.query(sql.text, sql.values)).rows);
  }
  const page = await searchPage(filter, rankings, {
    ranking: (query) => withSearchSettings(pool, query),
    rows: async (query) => (await pool.query(query.text, query.values)).rows,
  });
  return page ?? fromList(await withSearchSettings(pool, postListQuery(filter)));
}

async function list({ pool, principal, query: raw }) {
  const query = knownQuery(raw, LIST_PARAMS);
  const c = new Checks();
  const limitIn = c.queryInt(query, 'limit', 1);
  const offsetIn = c.queryInt(query, 'offset', 0);
  const status = c.queryOneOf(query, 'status', POST_STATUSES);
  const categoryId = c.queryUuid(query, 'category_id');
  const categorySlug = c.querySlug(query, 'category');
  const tagId = c.queryUuid(query, 'tag_id');
  const tagSlug = c.querySlug(query, 'tag');
  const authorId = c.queryUuid(query, 'author_id');
  const featured = c.queryBool(query, 'featured');
  const searchIn = c.queryString(query, 'search', { max: MAX_SEARCH_LENGTH });
  const orderBy = c.queryOneOf(query, 'order_by', POST_ORDER_FIELDS);
  const order = c.queryOneOf(query, 'order', SORT_DIRECTIONS);
  if (!c.ok) throw validationFailed(c.errors);
  const page = { limit: Math.min(limitIn ?? DEFAULT_POST_LIMIT, MAX_LIMIT), offset: offsetIn ?? 0 };
  const search = searchIn !== undefined && searchIn.trim() !== '' ? searchIn : undefined;

  const criteria = {
    organizationId: principal.organizationId,
    status,
    categoryId,
    categorySlug,
    tagId,
    tagSlug,
    authorId,
    featuredOnly: featured === true,
    search,
    orderBy,
    order: order ?? 'desc',
    limit: page.limit,
    offset: page.offset,
    now: new Date(),
  };
  const result = await listRows(pool, criteria);
  if (result === null)
    return { body: { data: [], meta: { total: 0, limit: page.limit, offset: page.offset, hasMore: false } } };
  const total = result.total;
  const data = result.rows.map(toListItem);
  return {
    body: {
      data,
      meta: { total, limit: page.limit, offset: page.offset, hasMore: page.offset + data.length < total },
    },
  };
}

module.exports = { list, rankings };
