import { Injectable } from '@nestjs/common';
import { AppConfig, exactTotal, ListTotal, pgErrorOf, PG_FOREIGN_KEY_VIOLATION, PG_UNIQUE_VIOLATION, SlugTakenError, InvalidReferenceError, SqlParams, Transactions } from '@almanac/shared';
import type { PostListCriteria, PostView, StoredPost } from '../domain/post';
import type { PostStatus } from '../domain/post-status';
import {
  claimDueScheduledPostsQuery,
  CountedQuery,
  idBySlugQuery,
  ListBounds,
  PostListFilter,
  postByIdQuery,
  postListQuery,
  postsByIdsQuery,
  SEARCH_SETTINGS_SQL,
  searchRankingKey,
  searchRankingQuery,
  SqlQuery,
} from './post-queries';
import { POST_TABLE } from './post.table';
import { SearchRankingCache } from './search-ranking-cache';

type ViewRow = Record<string, unknown>;

const toView = (row: ViewRow): PostView => POST_TABLE.fromRow(row);

/** Turns the constraint behind a failed write into the domain error the client should see. */
function translateWriteError(error: unknown, slug: string | undefined): never {
  const { code, constraint } = pgErrorOf(error);
  if (code === PG_UNIQUE_VIOLATION && constraint === 'posts_org_slug_key') throw new SlugTakenError(slug ?? '');
  if (code === PG_FOREIGN_KEY_VIOLATION) {
    // A referenced record vanished between the check and the write.
    if (constraint === 'posts_category_fkey') throw new InvalidReferenceError('category_id');
    if (constraint === 'posts_author_fkey') throw new InvalidReferenceError('author_id');
    if (constraint === 'post_tag_links_tag_fkey') throw new InvalidReferenceError('tag_ids');
  }
  throw error;
}

/** How the search reaches PostgreSQL. */
interface SearchStatements {
  /** The ranking statement, with the search's planner settings (they are transaction-local). */
  ranking(query: SqlQuery): Promise<Array<{ total: string | number; ids: string[] }>>;
  rows<T>(query: SqlQuery): Promise<T[]>;
}

/**
 * A page of a search in two statements: the ranking (total and the first ranks' ids, from the cache
 * when a broad search was ranked a moment ago), then the page's posts by id. Null when the page
 * ends past the ranking's depth: such deep pages take the one-statement list query.
 */
async function searchPage<T>(
  filter: PostListFilter & { readonly search: string },
  window: number,
  cache: SearchRankingCache,
  statements: SearchStatements,
): Promise<{ total: ListTotal; rows: T[] } | null> {
  const end = filter.offset + filter.limit;
  if (end > cache.options.depth) return null;
  const key = searchRankingKey(filter);
  const ranking =
    cache.get(filter.organizationId, key, end) ??
    (await cache.rank(filter.organizationId, key, async () => {
      const query = searchRankingQuery(filter, cache.options.depth, window);
      const [row] = await statements.ranking(query);
      const total = query.cap.totalOf(row?.total);
      return { total: total.count, totalIsLowerBound: total.isLowerBound, ids: row?.ids ?? [] };
    }));
  const total: ListTotal = { count: ranking.total, isLowerBound: ranking.totalIsLowerBound ?? false };
  const ids = ranking.ids.slice(filter.offset, end);
  if (ids.length === 0) return { total, rows: [] };
  return { total, rows: await statements.rows<T>(postsByIdsQuery(filter.organizationId, ids, filter.now)) };
}

/**
 * Posts in SQL. Every statement is scoped to one organization, except the publisher's claim, and runs
 * in the ambient unit of work (`Transactions`), or on its own.
 */
@Injectable()
export class PostRepository {
  constructor(
    private readonly db: Transactions,
    private readonly rankings: SearchRankingCache,
    private readonly config: AppConfig,
  ) {}

  async findView(organizationId: string, id: string, now: Date): Promise<PostView | null> {
    const query = postByIdQuery(organizationId, id, now);
    const rows = await this.db.rows<ViewRow>(query.text, query.values);
    return rows[0] ? toView(rows[0]) : null;
  }

  /**
   * A page of posts and the total. A search's statements run in a transaction of their own with
   * sequential scans turned off (see SEARCH_SETTINGS_SQL): a post's search vector is large and
   * stored out of line, so testing it on every row of the table costs far more than the planner
   * believes. Pages within the first ranks go through `searchPage` (ranking, cached when broad,
   * then the posts by id).
   */
  async list(criteria: PostListCriteria): Promise<{ posts: PostView[]; total: ListTotal }> {
    const filter = await this.resolveFilter(criteria);
    if (!filter) return { posts: [], total: exactTotal(0) };
    const bounds: ListBounds = { countCap: this.config.listCountCap, searchWindow: this.config.searchWindow };
    if (filter.search === undefined) return this.listRows(postListQuery(filter, bounds));
    const search = filter.search;
    const page = await searchPage<ViewRow>({ ...filter, search }, bounds.searchWindow, this.rankings, {
      ranking: (query) => this.withSearchSettings(() => this.db.rows(query.text, query.values)),
      rows: <T>(query: SqlQuery) => this.db.rows<T>(query.text, query.values),
    });
    if (page) return { total: page.total, posts: page.rows.map(toView) };
    return this.withSearchSettings(() => this.listRows(postListQuery(filter, bounds)));
  }

  private async listRows(query: CountedQuery): Promise<{ posts: PostView[]; total: ListTotal }> {
    const rows = await this.db.rows<ViewRow & { total: string }>(query.text, query.values);
    return {
      total: query.cap.totalOf(rows[0]?.total),
      posts: rows.filter((row) => row.id !== null).map(toView),
    };
  }

  /** In a transaction of its own (a list runs outside any): no sequential scan for the match. */
  private withSearchSettings<T>(work: () => Promise<T>): Promise<T> {
    return this.db.run(async () => {
      await this.db.rows(SEARCH_SETTINGS_SQL);
      return work();
    });
  }

  /**
   * The filters with category and tag slugs turned into ids, or null when a slug names nothing (or
   * another category than `category_id`): then no post can match.
   */
  private async resolveFilter(criteria: PostListCriteria): Promise<PostListFilter | null> {
    const { categorySlug, tagSlug, tagId, ...rest } = criteria;
    let categoryId = criteria.categoryId?.toLowerCase();
    if (categorySlug !== undefined) {
      const id = await this.idBySlug('post_categories', criteria.organizationId, categorySlug);
      if (id === null || (categoryId !== undefined && categoryId !== id)) return null;
      categoryId = id;
    }
    const tagIds = tagId !== undefined ? [tagId.toLowerCase()] : [];
    if (tagSlug !== undefined) {
      const id = await this.idBySlug('post_tags', criteria.organizationId, tagSlug);
      if (id === null) return null;
      if (!tagIds.includes(id)) tagIds.push(id);
    }
    return { ...rest, categoryId, tagIds };
  }

  private async idBySlug(table: 'post_categories' | 'post_tags', organizationId: string, slug: string): Promise<string | null> {
    const query = idBySlugQuery(table, organizationId, slug);
    const rows = await this.db.rows<{ id: string }>(query.text, query.values);
    return rows[0]?.id ?? null;
  }

  /**
   * Publishes up to `batchSize` scheduled posts due at `now` (one UPDATE over rows taken FOR UPDATE
   * SKIP LOCKED, so instances side by side claim disjoint rows); answers the claimed posts.
   */
  async claimDueScheduled(now: Date, batchSize: number): Promise<Array<{ id: string; organizationId: string }>> {
    const query = claimDueScheduledPostsQuery(now, batchSize);
    const rows = await this.db.rows<{ id: string; organization_id: string }>(query.text, query.values);
    return rows.map((row) => ({ id: row.id, organizationId: row.organization_id }));
  }

  /** The stored status and date, with the row locked until the transaction ends (PATCH vs publisher). */
  async lockForUpdate(
    organizationId: string,
    id: string,
  ): Promise<{ status: PostStatus; publishedAt: Date | null } | null> {
    const rows = await this.db.rowsInTransaction<{ status: PostStatus; published_at: Date | null }>(
      'SELECT status, published_at FROM posts WHERE organization_id = $1 AND id = $2 FOR UPDATE',
      [organizationId, id],
    );
    return rows[0] ? { status: rows[0].status, publishedAt: rows[0].published_at } : null;
  }

  /** The post as read back now, its row locked until the transaction ends (a write's precondition). */
  async lockView(organizationId: string, id: string, now: Date): Promise<PostView | null> {
    return (await this.lockForUpdate(organizationId, id)) ? this.findView(organizationId, id, now) : null;
  }

  async insert(post: StoredPost): Promise<void> {
    const insert = POST_TABLE.insert(post);
    try {
      await this.db.rows(insert.text, insert.values);
    } catch (error) {
      translateWriteError(error, post.slug);
    }
  }

  async update(organizationId: string, id: string, changes: Partial<StoredPost>): Promise<void> {
    const params = new SqlParams();
    const set = POST_TABLE.set(params, changes);
    if (set === '') return;
    try {
      await this.db.rows(
        `UPDATE posts SET ${set} WHERE organization_id = ${params.add(organizationId)} AND id = ${params.add(id)}`,
        params.values,
      );
    } catch (error) {
      translateWriteError(error, changes.slug);
    }
  }

  /** The post's tags become exactly `tagIds` (ids differing only in case count once). */
  async replaceTags(organizationId: string, postId: string, tagIds: readonly string[]): Promise<void> {
    await this.db.rows('DELETE FROM post_tag_links WHERE organization_id = $1 AND post_id = $2', [organizationId, postId]);
    if (tagIds.length === 0) return;
    try {
      await this.db.rows(
        `INSERT INTO post_tag_links (organization_id, post_id, tag_id)
         SELECT DISTINCT $1::uuid, $2::uuid, tag_id FROM unnest($3::uuid[]) AS tag_id`,
        [organizationId, postId, tagIds],
      );
    } catch (error) {
      translateWriteError(error, undefined);
    }
  }

  /** Returns the deleted id, or null when there was no such post. Tag links go with it. */
  async delete(organizationId: string, id: string): Promise<string | null> {
    const rows = await this.db.rows<{ id: string }>('DELETE FROM posts WHERE organization_id = $1 AND id = $2 RETURNING id', [
      organizationId,
      id,
    ]);
    return rows[0]?.id ?? null;
  }

  async categoryExists(organizationId: string, id: string): Promise<boolean> {
    const rows = await this.db.rows('SELECT 1 FROM post_categories WHERE organization_id = $1 AND id = $2', [organizationId, id]);
    return rows.length > 0;
  }

  async userExists(organizationId: string, id: string): Promise<boolean> {
    const rows = await this.db.rows('SELECT 1 FROM user_directory WHERE organization_id = $1 AND id = $2', [organizationId, id]);
    return rows.length > 0;
  }

  /** The ids among `ids` that name no tag of the organization. */
  async missingTagIds(organizationId: string, ids: readonly string[]): Promise<string[]> {
    if (ids.length === 0) return [];
    const rows = await this.db.rows<{ id: string }>(
      `SELECT wanted.id FROM unnest($2::uuid[]) AS wanted(id)
       WHERE NOT EXISTS (SELECT 1 FROM post_tags t WHERE t.organization_id = $1 AND t.id = wanted.id)`,
      [organizationId, ids],
    );
    return rows.map((row) => row.id);
  }
}
