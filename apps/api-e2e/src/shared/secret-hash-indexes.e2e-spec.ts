import { createTestApp, TestApp } from '../support/test-app';

/**
 * A secret from an address or a header is opened by its hash (`findBySecretToken`): one indexed
 * lookup, so a guess costs what a hit costs. Every column that stores such a hash (`…token_hash`,
 * `…key_hash`) must therefore lead an index; a new one without it fails here.
 */
describe('secret hashes are looked up through an index (e2e, reads pg_catalog)', () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await createTestApp({ config: { webhookDispatcher: false } });
  });
  afterAll(() => t.close());

  const hashColumns = () =>
    t.query<{ column: string; indexed: boolean }>(
      `SELECT c.relname || '.' || a.attname AS column,
              EXISTS (SELECT 1 FROM pg_index x WHERE x.indrelid = c.oid AND x.indkey[0] = a.attnum) AS indexed
         FROM pg_attribute a
         JOIN pg_class c ON c.oid = a.attrelid
         JOIN pg_namespace n ON n.oid = c.relnamespace
        WHERE n.nspname = 'public' AND c.relkind IN ('r', 'p') AND a.attnum > 0 AND NOT a.attisdropped
          AND a.attname ~ '(^|_)(token|key)_hash$'
        ORDER BY 1`,
    );

  it('finds every stored secret hash, each leading an index', async () => {
    const columns = await hashColumns();
    expect(columns.map((c) => c.column)).toEqual(
      expect.arrayContaining(['admin_sessions.token_hash', 'api_keys.key_hash', 'calendar_feeds.token_hash', 'post_preview_links.token_hash']),
    );
    expect(columns.filter((c) => !c.indexed)).toEqual([]);
  });

  it('names a hash column without such an index', async () => {
    await t.query('CREATE TABLE probe_links (organization_id uuid, manage_token_hash text, other_key_hash text)');
    await t.query('CREATE INDEX probe_links_idx ON probe_links (organization_id, other_key_hash)');
    try {
      const unindexed = (await hashColumns()).filter((c) => !c.indexed).map((c) => c.column);
      expect(unindexed).toEqual(['probe_links.manage_token_hash', 'probe_links.other_key_hash']);
    } finally {
      await t.query('DROP TABLE probe_links');
    }
  });
});
