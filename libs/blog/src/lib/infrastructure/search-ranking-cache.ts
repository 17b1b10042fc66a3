/**
 * The first ranks of a broad search, kept for a few seconds.
 *
 * A search ranks at most its window of recent matches (see `postListQuery`), yet a broad one still
 * tests and ranks that many posts whatever the page. Such searches are also the ones people repeat
 * ("calendar" on a calendar blog). The ranking of one (organization, search, filters, order) — the
 * total and the ids of the first `depth` posts — is kept when the search matched at least
 * `minTotal` posts; pages within it are then read by id, one cheap statement.
 *
 * Freshness: every blog write of an organization made by this instance drops its rankings once the
 * write has committed (the generation check also drops a ranking computed while the write was under
 * way). A write made through another instance, or a scheduled post falling due, shows in a broad
 * search after at most `ttlMs`. Selective searches are never cached.
 */
export interface SearchRanking {
  /** The search's total (see `postListQuery`): its candidates, a lower bound when more matched. */
  readonly total: number;
  readonly totalIsLowerBound?: boolean;
  readonly ids: readonly string[];
}

export interface SearchRankingCacheOptions {
  /** How many ranks are kept: pages ending past this rank are read live. */
  readonly depth: number;
  /** Searches matching fewer posts are not cached (they are fast live). */
  readonly minTotal: number;
  readonly ttlMs: number;
  readonly maxEntries: number;
}

/** `minTotal`: a search whose window (200 posts, `AppConfig.searchWindow`) is full. */
export const SEARCH_RANKING_DEFAULTS: SearchRankingCacheOptions = { depth: 200, minTotal: 200, ttlMs: 5000, maxEntries: 1000 };

interface Entry {
  readonly organizationId: string;
  readonly generation: number;
  readonly expiresAt: number;
  readonly ranking: SearchRanking;
}

export class SearchRankingCache {
  private readonly entries = new Map<string, Entry>();
  private readonly generations = new Map<string, number>();
  /** Rankings being computed, by key and generation: concurrent misses share one statement. */
  private readonly pending = new Map<string, Promise<SearchRanking>>();

  constructor(
    readonly options: SearchRankingCacheOptions = SEARCH_RANKING_DEFAULTS,
    private readonly now: () => number = Date.now,
  ) {}

  /** Read before running a ranking; pass it to `set`, which ignores the ranking if a write came since. */
  generation(organizationId: string): number {
    return this.generations.get(organizationId) ?? 0;
  }

  /** A live ranking for `key` that covers ranks up to `end` (offset + limit), if there is one. */
  get(organizationId: string, key: string, end: number): SearchRanking | undefined {
    const entry = this.entries.get(key);
    if (!entry || entry.organizationId !== organizationId) return undefined;
    if (entry.generation !== this.generation(organizationId) || entry.expiresAt <= this.now()) {
      this.entries.delete(key);
      return undefined;
    }
    if (end > entry.ranking.ids.length && entry.ranking.ids.length < entry.ranking.total) return undefined;
    // Most recently used last, so that the oldest entry is the first to go.
    this.entries.delete(key);
    this.entries.set(key, entry);
    return entry.ranking;
  }

  set(organizationId: string, key: string, generation: number, ranking: SearchRanking): void {
    if (ranking.total < this.options.minTotal || generation !== this.generation(organizationId)) return;
    this.entries.delete(key);
    this.entries.set(key, { organizationId, generation, expiresAt: this.now() + this.options.ttlMs, ranking });
    while (this.entries.size > this.options.maxEntries) {
      const oldest = this.entries.keys().next().value as string;
      this.entries.delete(oldest);
    }
  }

  /**
   * Computes a ranking once for all the requests that miss it at the same time (when a broad
   * search's ranking expires under load, every request for it would otherwise run the same
   * costly statement), and keeps it when broad. A request that comes after a write of its
   * organization never joins a computation that started before the write.
   */
  rank(organizationId: string, key: string, compute: () => Promise<SearchRanking>): Promise<SearchRanking> {
    const generation = this.generation(organizationId);
    const pendingKey = `${generation}:${key}`;
    const running = this.pending.get(pendingKey);
    if (running) return running;
    const ranking = compute()
      .then((result) => {
        this.set(organizationId, key, generation, result);
        return result;
      })
      .finally(() => this.pending.delete(pendingKey));
    this.pending.set(pendingKey, ranking);
    return ranking;
  }

  /** Runs a blog write, then (committed or not) drops the organization's rankings. */
  async invalidatingAfter<T>(organizationId: string, write: Promise<T>): Promise<T> {
    try {
      return await write;
    } finally {
      this.invalidate(organizationId);
    }
  }

  /** After a committed blog write: the organization's rankings are dropped (lazily, by generation). */
  invalidate(organizationId: string): void {
    this.generations.set(organizationId, this.generation(organizationId) + 1);
  }

  get size(): number {
    return this.entries.size;
  }
}
