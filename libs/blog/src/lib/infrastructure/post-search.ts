import { PostListFilter, postsByIdsQuery, searchRankingKey, searchRankingQuery, SqlQuery } from './post-queries';
import type { SearchRankingCache } from './search-ranking-cache';

/** How the search reaches PostgreSQL. */
export interface SearchStatements {
  /** The ranking statement, with the search's planner settings (they are transaction-local). */
  ranking(query: SqlQuery): Promise<Array<{ total: string | number; ids: string[] }>>;
  rows<T>(query: SqlQuery): Promise<T[]>;
}

/**
 * A page of a search in two statements: the ranking (total and the first ranks' ids, from the cache
 * when a broad search was ranked a moment ago), then the page's posts by id. Null when the page
 * ends past the ranking's depth: such deep pages take the one-statement list query.
 * Framework-free: the bench's floor server runs it too.
 */
export async function searchPage<T>(
  filter: PostListFilter & { readonly search: string },
  cache: SearchRankingCache,
  statements: SearchStatements,
): Promise<{ total: number; rows: T[] } | null> {
  const end = filter.offset + filter.limit;
  if (end > cache.options.depth) return null;
  const key = searchRankingKey(filter);
  const ranking =
    cache.get(filter.organizationId, key, end) ??
    (await cache.rank(filter.organizationId, key, async () => {
      const [row] = await statements.ranking(searchRankingQuery(filter, cache.options.depth));
      return { total: Number(row?.total ?? 0), ids: row?.ids ?? [] };
    }));
  const ids = ranking.ids.slice(filter.offset, end);
  if (ids.length === 0) return { total: ranking.total, rows: [] };
  return { total: ranking.total, rows: await statements.rows<T>(postsByIdsQuery(filter.organizationId, ids, filter.now)) };
}
