import { createTestApp, Tenant, TestApp } from '../support/test-app';

interface PlanNode {
  'Node Type': string;
  'Subplan Name'?: string;
  'Index Name'?: string;
  'Actual Rows': number;
  'Actual Loops': number;
  'Rows Removed by Filter'?: number;
  Plans?: PlanNode[];
}

/** How many of the newest posts a search reads before asking the full-text index (SEARCH_SCAN in the blog's queries). */
const NEWEST_READ_FIRST = 2_000;

const nodesOf = (node: PlanNode): PlanNode[] => [node, ...(node.Plans ?? []).flatMap(nodesOf)];

/**
 * A search never ranks every match: the statement the API runs is captured and EXPLAINed (ANALYZE)
 * on 20,000 posts, where a broad term matches 90 % of them. The candidates are gathered newest
 * first and the scan stops once the window (200) is full: no node of the candidate scan yields
 * more rows than the window and one, and nothing sorts the matches.
 */
describe('posts: search plans stay bounded (e2e)', () => {
  let t: TestApp;
  let a: Tenant;
  const captured: Array<{ sql: string; params: unknown[] }> = [];

  beforeAll(async () => {
    // The seeding below is a few bulk statements: room for them on a busy machine.
    t = await createTestApp({ config: { rateLimitPerMinute: 1_000_000, databaseQueryTimeoutMs: 120_000 } });
    a = await t.tenant();
    const other = await t.tenant();
    for (const tenant of [a, other]) {
      await t.query(
        `INSERT INTO posts (id, organization_id, title, slug, excerpt, content, status, published_at, created_at, updated_at)
         SELECT gen_random_uuid(), $1, 'Post ' || g, 'post-' || g, 'Notes from week ' || g,
                jsonb_build_array(jsonb_build_object('type', 'paragraph', 'text',
                  CASE WHEN g % 10 <> 0 THEN 'An afternoon of gardening and ' ELSE 'An afternoon of cooking and ' END ||
                  CASE WHEN g % 100 = 0 THEN 'orchids' ELSE 'tomatoes' END || repeat(' and more words', 20))),
                'published', timestamptz '2020-01-01' + g * interval '1 hour', now(), now()
           FROM generate_series(1, 10000) g`,
        [tenant.orgId],
      );
    }
    await t.query('VACUUM ANALYZE posts');
    // The search's statements run in transactions: capture what their query runners send.
    const create = t.dataSource.createQueryRunner.bind(t.dataSource);
    t.dataSource.createQueryRunner = ((...args: Parameters<typeof create>) => {
      const runner = create(...args);
      const query = runner.query.bind(runner);
      runner.query = ((sql: string, params?: unknown[], ...rest: unknown[]) => {
        captured.push({ sql, params: params ?? [] });
        return (query as (...all: unknown[]) => Promise<unknown>)(sql, params, ...rest);
      }) as typeof runner.query;
      return runner;
    }) as typeof t.dataSource.createQueryRunner;
  });
  afterAll(async () => t.close());

  /** The search's ranking statement, run as the API runs it (its planner settings first), EXPLAINed. */
  async function planOf(search: string): Promise<{ root: PlanNode; total: unknown }> {
    captured.length = 0;
    const res = await t.api.get(`/api/v1/posts?search=${search}`).set(a.auth).expect(200);
    const settings = captured.find((c) => c.sql.includes('set_config'));
    const ranking = captured.find((c) => c.sql.includes('recent AS MATERIALIZED'));
    expect(settings).toBeDefined();
    expect(ranking).toBeDefined();
    const [row] = await t.dataSource.transaction(async (em) => {
      await em.query(settings!.sql, settings!.params);
      return em.query(`EXPLAIN (ANALYZE, FORMAT JSON) ${ranking!.sql}`, ranking!.params);
    });
    return { root: (row as { 'QUERY PLAN': Array<{ Plan: PlanNode }> })['QUERY PLAN'][0]!.Plan, total: res.body.meta };
  }

  /** The nodes of one CTE of the plan. */
  const cte = (root: PlanNode, name: string): PlanNode[] => {
    const node = nodesOf(root).find((n) => n['Subplan Name'] === `CTE ${name}`);
    expect(node).toBeDefined();
    return nodesOf(node!);
  };
  const ran = (nodes: PlanNode[], index: string) => nodes.some((node) => node['Index Name'] === index && node['Actual Loops'] > 0);

  it.each([
    ['a whole word', encodeURIComponent('"gardening"')],
    // A prefix, whose share of the posts the planner guesses far lower than it is: the plan must not
    // depend on that guess.
    ['a prefix', 'gardening'],
  ])('a broad term (%s): the newest-first index, stopped once the window is full, the full-text index never asked', async (_, term) => {
    const { root, total } = await planOf(term);
    expect(total).toEqual({ total: 200, limit: 20, offset: 0, hasMore: true, total_is_lower_bound: true });
    const recent = cte(root, 'recent');
    expect(recent.map((node) => node['Node Type'])).not.toContain('Sort');
    expect(ran(recent, 'posts_org_published_desc_idx')).toBe(true);
    // 90 % of the posts match: the 201st match is found within ~224 posts, never the organization's 10,000.
    for (const node of recent) expect({ node: node['Node Type'], rows: node['Actual Rows'] <= 250 }).toEqual({ node: node['Node Type'], rows: true });
    expect(ran(cte(root, 'matches'), 'posts_search_idx')).toBe(false);
  });

  it('a rare term: the newest posts read first (a bounded number), then its few matches through the full-text index', async () => {
    const { root, total } = await planOf('orchids');
    // Every 100th post says orchids.
    expect(total).toEqual({ total: 100, limit: 20, offset: 0, hasMore: true });
    const recent = cte(root, 'recent');
    for (const node of recent) expect({ node: node['Node Type'], rows: node['Actual Rows'] <= NEWEST_READ_FIRST }).toEqual({ node: node['Node Type'], rows: true });
    const matches = cte(root, 'matches');
    expect(ran(matches, 'posts_search_idx')).toBe(true);
    // Through the GIN index: not one post of the organization tested and thrown away per match.
    const removed = matches.reduce((sum, node) => sum + (node['Rows Removed by Filter'] ?? 0) * node['Actual Loops'], 0);
    expect(removed).toBeLessThan(1000);
  });
});
