import { SearchRankingCache } from './search-ranking-cache';

describe('SearchRankingCache', () => {
  let now = 0;
  const cache = () => new SearchRankingCache({ depth: 4, minTotal: 10, ttlMs: 1000, maxEntries: 2 }, () => now);
  const broad = { total: 50, ids: ['a', 'b', 'c', 'd'] };

  beforeEach(() => {
    now = 0;
  });

  it('keeps a broad ranking for its time to live, and pages within its depth only', () => {
    const c = cache();
    c.set('org', 'k', c.generation('org'), broad);
    expect(c.get('org', 'k', 4)).toBe(broad);
    expect(c.get('org', 'k', 5)).toBeUndefined();
    now = 999;
    expect(c.get('org', 'k', 2)).toBe(broad);
    now = 1000;
    expect(c.get('org', 'k', 2)).toBeUndefined();
    expect(c.size).toBe(0);
  });

  it('serves any page of a ranking that holds every match', () => {
    const c = cache();
    const whole = { total: 10, ids: Array.from({ length: 4 }, (_, i) => String(i)) };
    c.set('org', 'k', 0, { ...whole, total: 4 });
    expect(c.get('org', 'k', 40)).toBeUndefined(); // under minTotal: never kept
    const atDepth = new SearchRankingCache({ depth: 4, minTotal: 2, ttlMs: 1000, maxEntries: 2 }, () => now);
    atDepth.set('org', 'k', 0, { total: 3, ids: ['x', 'y', 'z'] });
    expect(atDepth.get('org', 'k', 40)).toEqual({ total: 3, ids: ['x', 'y', 'z'] });
  });

  it('does not keep selective searches', () => {
    const c = cache();
    c.set('org', 'k', 0, { total: 9, ids: ['a'] });
    expect(c.get('org', 'k', 1)).toBeUndefined();
  });

  it('drops an organization’s rankings on a write, and ignores a ranking computed while a write went on', () => {
    const c = cache();
    c.set('org', 'k', c.generation('org'), broad);
    c.set('other', 'k2', c.generation('other'), broad);
    const before = c.generation('org');
    c.invalidate('org');
    expect(c.get('org', 'k', 1)).toBeUndefined();
    expect(c.get('other', 'k2', 1)).toBe(broad);
    c.set('org', 'k', before, broad); // ranked before the write committed
    expect(c.get('org', 'k', 1)).toBeUndefined();
    c.set('org', 'k', c.generation('org'), broad);
    expect(c.get('org', 'k', 1)).toBe(broad);
  });

  it('never answers for another organization, and keeps at most maxEntries, least recently used going first', () => {
    const c = cache();
    c.set('org', 'k1', 0, broad);
    expect(c.get('intruder', 'k1', 1)).toBeUndefined();
    c.set('org', 'k2', 0, broad);
    expect(c.get('org', 'k1', 1)).toBe(broad); // k1 now the most recent
    c.set('org', 'k3', 0, broad);
    expect(c.size).toBe(2);
    expect(c.get('org', 'k2', 1)).toBeUndefined();
    expect(c.get('org', 'k1', 1)).toBe(broad);
    expect(c.get('org', 'k3', 1)).toBe(broad);
  });
});

describe('SearchRankingCache.rank', () => {
  const broad = { total: 5000, ids: ['a', 'b'] };
  const deferred = () => {
    let resolve!: (value: typeof broad) => void;
    const promise = new Promise<typeof broad>((r) => (resolve = r));
    return { promise, resolve };
  };

  it('runs one computation for concurrent misses of the same ranking, and keeps its result', async () => {
    const c = new SearchRankingCache();
    const work = deferred();
    let runs = 0;
    const compute = () => {
      runs += 1;
      return work.promise;
    };
    const all = Promise.all([c.rank('org', 'k', compute), c.rank('org', 'k', compute), c.rank('org', 'k', compute)]);
    work.resolve(broad);
    expect(await all).toEqual([broad, broad, broad]);
    expect(runs).toBe(1);
    expect(c.get('org', 'k', 1)).toBe(broad);
    // Done: the next miss computes again.
    c.invalidate('org');
    await c.rank('org', 'k', async () => {
      runs += 1;
      return broad;
    });
    expect(runs).toBe(2);
  });

  it('does not let a request that follows a write join a computation started before it', async () => {
    const c = new SearchRankingCache();
    const before = deferred();
    const first = c.rank('org', 'k', () => before.promise);
    c.invalidate('org');
    const fresh = { total: 5001, ids: ['n', 'a'] };
    const second = c.rank('org', 'k', async () => fresh);
    before.resolve(broad);
    expect(await first).toBe(broad);
    expect(await second).toBe(fresh);
    expect(c.get('org', 'k', 1)).toBe(fresh);
  });

  it('lets a failed computation fail every waiter, and the next request try again', async () => {
    const c = new SearchRankingCache();
    const failing = () => Promise.reject(new Error('statement timeout'));
    await expect(Promise.all([c.rank('org', 'k', failing), c.rank('org', 'k', failing)])).rejects.toThrow('statement timeout');
    expect(await c.rank('org', 'k', async () => broad)).toBe(broad);
  });
});
