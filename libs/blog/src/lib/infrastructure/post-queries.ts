import { cappedCountSql, CountCap } from '@almanac/shared';
import type { PostListCriteria } from '../domain/post';
import { POST_TABLE } from './post.table';

/**
 * The list filters as the SQL takes them: slugs already resolved to ids (so that the planner sees
 * real values and its statistics apply), every tag in `tagIds` required.
 */
export type PostListFilter = Omit<PostListCriteria, 'categorySlug' | 'tagSlug' | 'tagId'> & { readonly tagIds: readonly string[] };

/** A parameterised statement. User input only ever travels in `values`. */
export interface SqlQuery {
  readonly text: string;
  readonly values: unknown[];
}

export class SqlParams {
  readonly values: unknown[] = [];
  add(value: unknown): string {
    this.values.push(value);
    return `$${this.values.length}`;
  }
}

/**
 * Transaction-local planner setting for a search's match: no sequential scan. The match then goes
 * either through the GIN index (a rare term: every match, few of them) or down the newest-first
 * index, testing each post until the window is full (a broad term: it fills fast).
 */
export const SEARCH_SETTINGS_SQL = "SELECT set_config('enable_seqscan', 'off', true)";

/** How far a list counts and how many recent matches a search considers (`AppConfig`). */
export interface ListBounds {
  readonly countCap: number;
  readonly searchWindow: number;
}

/** A list statement and where its count stops (its rows' `total` goes through `cap.totalOf`). */
export interface CountedQuery extends SqlQuery {
  readonly cap: CountCap;
}

/** A category's or tag's id by its slug, in its organization. */
export function idBySlugQuery(table: 'post_categories' | 'post_tags', organizationId: string, slug: string): SqlQuery {
  return { text: `SELECT id FROM ${table} WHERE organization_id = $1 AND slug = $2`, values: [organizationId, slug] };
}

/** The status a reader sees: a scheduled post whose time has passed is published. */
export function effectiveStatusSql(alias: string, now: string): string {
  return `CASE WHEN ${alias}.status = 'scheduled' AND ${alias}.published_at <= ${now} THEN 'published' ELSE ${alias}.status END`;
}

/**
 * "Is published" as a reader sees it; the same predicate feeds the status filter and post_count.
 * `prefix` reads the copies a tag link keeps (`post_status`, `post_published_at`).
 */
export function isPublishedSql(alias: string, now: string, prefix: '' | 'post_' = ''): string {
  const status = `${alias}.${prefix}status`;
  return `(${status} = 'published' OR (${status} = 'scheduled' AND ${alias}.${prefix}published_at <= ${now}))`;
}

/**
 * The search input as a tsquery: `websearch_to_tsquery` (quotes, `or`, `-word`), English stemming, and
 * the last lexeme turned into a prefix (`sched` finds `scheduling`) when the input ends in a plain word.
 * The prefix is added to PostgreSQL's own rendering of the parsed query, never to the user's text.
 */
export function searchQuerySql(search: string, params: SqlParams): string {
  const q = `websearch_to_tsquery('english'::regconfig, ${params.add(search)})`;
  if (!endsWithPlainWord(search)) return q;
  return `(CASE WHEN right(${q}::text, 1) = '''' THEN (${q}::text || ':*')::tsquery ELSE ${q} END)`;
}

/** True when the input ends in a word that is neither quoted nor negated (`-word`). */
export function endsWithPlainWord(search: string): boolean {
  const trimmed = search.trimEnd();
  if (!/[\p{L}\p{N}]$/u.test(trimmed)) return false;
  const lastToken = trimmed.split(/\s+/).pop() ?? '';
  return !lastToken.startsWith('-') && !lastToken.startsWith('"') && (trimmed.match(/"/g)?.length ?? 0) % 2 === 0;
}

/**
 * Columns of the post as read back, from `p` joined to `c` and `u`: the status as readers see it
 * `now`, the content only when asked (single reads).
 */
function viewColumns(now: string, content: 'with content' | 'without content'): string {
  return POST_TABLE.select('p', { status: effectiveStatusSql('p', now), ...(content === 'without content' ? { content: null } : {}) });
}

const VIEW_JOINS = `
    LEFT JOIN post_categories c ON c.id = p.category_id
    LEFT JOIN user_directory u ON u.organization_id = p.organization_id AND u.id = p.author_id`;

/** One post with its content, in its organization. */
export function postByIdQuery(organizationId: string, id: string, now: Date): SqlQuery {
  const params = new SqlParams();
  const nowParam = params.add(now);
  const text = `
    SELECT ${viewColumns(nowParam, 'with content')}
    FROM posts p ${VIEW_JOINS}
    WHERE p.organization_id = ${params.add(organizationId)} AND p.id = ${params.add(id)}`;
  return { text, values: params.values };
}

/** Newest first: the order in which a search gathers its candidates (the list's default order). */
/** How many of the newest posts a search reads newest first before it asks the full-text index instead. */
export const SEARCH_SCAN = 2_000;

const RECENT = (alias: string): string => `${alias}.published_at DESC NULLS LAST, ${alias}.id DESC`;

/** What the list and the search ranking share: parameters, filter conditions, the order. */
function listParts(criteria: PostListFilter, readsNow: boolean) {
  const params = new SqlParams();
  // A statement must use every parameter it is given: `now` is added first when the statement surely
  // reads it (the representation's status), else when a filter first needs it.
  let nowParam = readsNow ? params.add(criteria.now) : undefined;
  const now = (): string => (nowParam ??= params.add(criteria.now));
  const org = params.add(criteria.organizationId);
  const where: string[] = [];

  if (criteria.status === 'published') where.push(isPublishedSql('p', now()));
  else if (criteria.status === 'scheduled') where.push(`p.status = 'scheduled' AND p.published_at > ${now()}`);
  else if (criteria.status) where.push(`p.status = ${params.add(criteria.status)}`);

  if (criteria.categoryId) where.push(`p.category_id = ${params.add(criteria.categoryId)}`);
  // EXISTS, not a join: a post matches once however many links it has.
  const tagParams = criteria.tagIds.map((tagId) => params.add(tagId));
  for (const tagParam of tagParams) {
    where.push(`EXISTS (SELECT 1 FROM post_tag_links l WHERE l.post_id = p.id AND l.tag_id = ${tagParam})`);
  }
  if (criteria.authorId) where.push(`p.author_id = ${params.add(criteria.authorId)}`);
  if (criteria.featuredOnly) where.push('p.is_featured');

  const searching = criteria.search !== undefined;
  const orderBy = criteria.orderBy ?? (searching ? 'rank' : 'published_at');
  const dir = criteria.order === 'asc' ? 'ASC' : 'DESC';
  const order = (alias: string): string => {
    switch (orderBy) {
      case 'rank':
        return `${alias}.rank ${dir}, ${alias}.id ${dir}`;
      case 'published_at':
        return `${alias}.published_at ${dir} NULLS LAST, ${alias}.id ${dir}`;
      default:
        return `${alias}.${orderBy} ${dir}, ${alias}.id ${dir}`;
    }
  };
  const filter = (conditions: string[]): string => (conditions.length > 0 ? conditions.join('\n      AND ') : 'true');
  /**
   * A search's candidates (`hits`): the `window` most recent posts that match and pass the filters,
   * and nothing older; `matches` reads one more, to tell whether more matched. Bounded whatever the
   * term, without trusting the planner's guess of how many posts match (a prefix term's guess can be
   * off by a hundred times either way): first the newest SEARCH_SCAN posts that pass the filters are
   * read newest first, stopping as soon as `window + 1` of them match (a broad term stops after a few
   * posts); only when they hold fewer matches — a rarer term — are the matches gathered through the
   * GIN index instead and the newest kept, an order the newest-first index cannot give, so the plan
   * cannot walk every post checking each. Relevance is computed for the window's posts only:
   * `ts_rank` over the small title + excerpt vector (`rank_vector`, kept in the row), so a post that
   * matches only in its content ranks 0.
   */
  const candidates = (query: string, window: number): string => {
    const ranking = orderBy === 'rank';
    const carried = ['id', 'published_at', ...(ranking || orderBy === 'published_at' ? [] : [orderBy]), ...(ranking ? ['rank_vector'] : [])];
    const columns = carried.map((column) => `p.${column}`).join(', ');
    const limit = params.add(window + 1);
    const enough = params.add(window);
    return `
    WITH recent AS MATERIALIZED (
      SELECT ${columns}
      FROM (
        SELECT ${columns}, p.search_vector FROM posts p
        WHERE p.organization_id = ${org} AND ${filter(where)}
        ORDER BY ${RECENT('p')}
        LIMIT ${params.add(SEARCH_SCAN)}
      ) p
      WHERE p.search_vector @@ ${query}
      ORDER BY ${RECENT('p')}
      LIMIT ${limit}
    ),
    matches AS MATERIALIZED (
      SELECT * FROM recent WHERE (SELECT count(*) FROM recent) > ${enough}
      UNION ALL
      (SELECT ${columns}
      FROM posts p
      WHERE (SELECT count(*) FROM recent) <= ${enough}
        AND p.organization_id = ${org} AND p.search_vector @@ ${query}
        AND ${filter(where)}
      ORDER BY (p.published_at + interval '0 seconds') DESC NULLS LAST, p.id DESC
      LIMIT ${limit})
    ),
    hits AS (
      SELECT p.*, ${ranking ? `ts_rank(p.rank_vector, ${query})` : 'NULL::real'} AS rank
      FROM (SELECT * FROM matches p ORDER BY ${RECENT('p')} LIMIT ${params.add(window)}) p
    )`;
  };
  return { params, now, org, where, tagParams, order, filter, candidates };
}

/**
 * A page of posts and the number of matching posts, in one statement. Always returns one row at
 * least: when the page is empty, a single row with `id` null carries the total. The details
 * (category, author, tags) are joined for the page's rows only.
 *
 * Without `search`, the count (up to the cap, see `CountCap`) and the page each get their own plan
 * (the page can stop early on an index). With `search`, the page is ordered among the search's
 * candidates (see `candidates` in listParts), and the total counts them: when more posts matched
 * than the window holds, it is the window, a lower bound. `PostRepository.list` turns sequential
 * scans off for a search's statement.
 */
export function postListQuery(criteria: PostListFilter, bounds: ListBounds): CountedQuery {
  const { params, now, org, where, tagParams, order, filter, candidates } = listParts(criteria, true);

  let sources: string;
  let cap: CountCap;
  if (criteria.search !== undefined) {
    cap = new CountCap(bounds.searchWindow);
    sources = `${candidates(searchQuerySql(criteria.search, params), bounds.searchWindow)},
    total AS (
      SELECT count(*) AS total FROM matches
    ),
    page AS (
      SELECT p.id, p.rank FROM hits p
      ORDER BY ${order('p')}
      LIMIT ${params.add(criteria.limit)} OFFSET ${params.add(criteria.offset)}
    )`;
  } else {
    cap = CountCap.forPage(criteria, bounds.countCap);
    const rowsToRead = params.add(cap.rowsToRead);
    const conditions = filter([`p.organization_id = ${org}`, ...where]);
    // A single tag and nothing else: the posts matching are exactly the organization's links to
    // that tag (one link per post and tag, the primary key; a link's organization is its post's, the
    // foreign key), so the links' index counts them without visiting the posts.
    const tagOnly = tagParams.length === 1 && where.length === 1;
    const matching = tagOnly
      ? `SELECT 1 FROM post_tag_links l
      WHERE l.organization_id = ${org} AND l.tag_id = ${tagParams[0]}`
      : `SELECT 1 FROM posts p
      WHERE ${conditions}`;
    // The same lone tag, newest first: the links keep each post's published_at, and their index
    // gives the page in order (the tie-break post_id is the post's id).
    const pageSql =
      tagOnly && (criteria.orderBy ?? 'published_at') === 'published_at' && criteria.order !== 'asc'
        ? `SELECT l.post_id AS id, NULL::real AS rank FROM post_tag_links l
      WHERE l.organization_id = ${org} AND l.tag_id = ${tagParams[0]}
      ORDER BY l.post_published_at DESC NULLS LAST, l.post_id DESC`
        : `SELECT p.id, NULL::real AS rank FROM posts p
      WHERE ${conditions}
      ORDER BY ${order('p')}`;
    sources = `
    WITH total AS (
      ${cappedCountSql(matching, rowsToRead)}
    ),
    page AS (
      ${pageSql}
      LIMIT ${params.add(criteria.limit)} OFFSET ${params.add(criteria.offset)}
    )`;
  }

  const text = `${sources}
    SELECT total.total, d.*
    FROM total LEFT JOIN (
      SELECT ${viewColumns(now(), 'without content')}, page.rank
      FROM page JOIN posts p ON p.id = page.id ${VIEW_JOINS}
    ) d ON true
    ORDER BY ${order('d')}`;
  return { text, values: params.values, cap };
}

/**
 * A search's ranking: how many candidates there are (one more than the window when more matched)
 * and the ids of the first `depth` in order, without their details (see SearchRankingCache). The
 * same candidates and order as `postListQuery`.
 */
export function searchRankingQuery(criteria: PostListFilter & { readonly search: string }, depth: number, window: number): CountedQuery {
  const { params, order, candidates } = listParts(criteria, false);
  const text = `${candidates(searchQuerySql(criteria.search, params), window)}
    SELECT
      (SELECT count(*) FROM matches) AS total,
      ARRAY(SELECT p.id FROM hits p ORDER BY ${order('p')} LIMIT ${params.add(depth)}) AS ids`;
  return { text, values: params.values, cap: new CountCap(window) };
}

/** The list representation of the given posts of an organization, in the order of `ids`. */
export function postsByIdsQuery(organizationId: string, ids: readonly string[], now: Date): SqlQuery {
  const params = new SqlParams();
  const nowParam = params.add(now);
  const text = `
    SELECT ${viewColumns(nowParam, 'without content')}
    FROM unnest(${params.add(ids)}::uuid[]) WITH ORDINALITY AS r(id, n)
    JOIN posts p ON p.id = r.id AND p.organization_id = ${params.add(organizationId)} ${VIEW_JOINS}
    ORDER BY r.n`;
  return { text, values: params.values };
}

/** What identifies a search's ranking: everything but the page and the clock. */
export function searchRankingKey(criteria: PostListFilter): string {
  return JSON.stringify([
    criteria.organizationId,
    criteria.search,
    criteria.status ?? null,
    criteria.categoryId ?? null,
    [...criteria.tagIds].sort(),
    criteria.authorId ?? null,
    criteria.featuredOnly === true,
    criteria.orderBy ?? null,
    criteria.order ?? null,
  ]);
}

/**
 * The publisher's claim: due scheduled posts, oldest first, locked with SKIP LOCKED so that several
 * instances running at once each take different rows and a row is published once.
 */
export function claimDueScheduledPostsQuery(now: Date, batchSize: number): SqlQuery {
  return {
    text: `
      UPDATE posts SET status = 'published'
      WHERE status = 'scheduled' AND id IN (
        SELECT id FROM posts
        WHERE status = 'scheduled' AND published_at <= $1
        ORDER BY published_at
        LIMIT $2
        FOR UPDATE SKIP LOCKED
      )
      RETURNING id, organization_id`,
    values: [now, batchSize],
  };
}
