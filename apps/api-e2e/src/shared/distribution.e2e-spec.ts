import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { createTestApp, TestApp } from '../support/test-app';

const ROOT = join(__dirname, '../../../..');
/** Tables the coordinator keeps to itself (distribute.sql says why). */
const LOCAL = ['schema_migrations', 'public_rate_limits'];

/**
 * The schema is ready for Citus (docs/contract/operations.md): after every migration, the catalog shows that each
 * table is named in tools/citus/distribute.sql, and that no distributed table breaks what Citus needs
 * (keys, unique and exclusion constraints, foreign keys that carry organization_id).
 */
describe('distribution-ready schema (e2e, reads pg_catalog)', () => {
  let t: TestApp;
  const sql = readFileSync(join(ROOT, 'tools/citus/distribute.sql'), 'utf8');
  const reference = [...sql.matchAll(/create_reference_table\('(\w+)'\)/g)].map((m) => m[1]!);
  const distributed = [...sql.matchAll(/create_distributed_table\('(\w+)', 'organization_id'/g)].map(
    (m) => m[1]!,
  );

  beforeAll(async () => {
    t = await createTestApp({ config: { webhookDispatcher: false } });
  });
  afterAll(() => t.close());

  const columnsOf = (rows: Array<{ cols: string[] | string }>) =>
    rows.map((r) => (Array.isArray(r.cols) ? r.cols : String(r.cols).replace(/[{}]/g, '').split(',')));

  it('names every table of the schema in distribute.sql, each once', async () => {
    const tables = (
      await t.query<{ name: string }>(
        `SELECT tablename AS name FROM pg_tables WHERE schemaname = 'public' ORDER BY 1`,
      )
    ).map((r) => r.name);
    const named = [...reference, ...distributed, ...LOCAL];
    expect(new Set(named).size).toBe(named.length);
    expect([...tables].sort()).toEqual([...named].sort());
  });

  it('propagates every function an index or constraint uses (create_distributed_function) before distributing', async () => {
    const used = (
      await t.query<{ signature: string }>(
        `SELECT DISTINCT p.oid::regprocedure::text AS signature
           FROM pg_depend d JOIN pg_proc p ON p.oid = d.refobjid AND d.refclassid = 'pg_proc'::regclass
           JOIN pg_class c ON c.oid = d.objid AND d.classid = 'pg_class'::regclass
          WHERE c.relkind = 'i' AND p.pronamespace = 'public'::regnamespace`,
      )
    ).map((r) => r.signature.replace(/timestamp with time zone/g, 'timestamptz'));
    expect(used).toEqual(['booking_blocked_time(timestamptz,timestamptz,integer,integer)']);
    const propagated = [...sql.matchAll(/create_distributed_function\('([^']+)'\)/g)].map((m) => m[1]!.replace(/\s+/g, ''));
    for (const signature of used) {
      expect(propagated).toContain(signature);
      expect(sql.indexOf(signature.split('(')[0]!)).toBeLessThan(sql.indexOf("create_distributed_table('bookings'"));
    }
  });

  it('gives every distributed table a primary key, unique indexes and exclusion constraints that include organization_id', async () => {
    const problems: string[] = [];
    for (const table of distributed) {
      const indexes = await t.query<{ name: string; cols: string[]; primary: boolean; unique: boolean }>(
        `SELECT i.relname AS name, x.indisprimary AS primary, x.indisunique AS unique,
                ARRAY(SELECT a.attname FROM unnest(x.indkey) k JOIN pg_attribute a ON a.attrelid = x.indrelid AND a.attnum = k) AS cols
           FROM pg_index x JOIN pg_class i ON i.oid = x.indexrelid WHERE x.indrelid = $1::regclass`,
        [table],
      );
      if (!indexes.some((i) => i.primary)) problems.push(`${table}: no primary key`);
      for (const index of indexes) {
        if ((index.primary || index.unique) && !columnsOf([index])[0]!.includes('organization_id'))
          problems.push(`${table}: ${index.name} is unique without organization_id`);
      }
      const exclusions = await t.query<{ name: string; cols: string[] }>(
        `SELECT conname AS name, ARRAY(SELECT a.attname FROM unnest(conkey) k JOIN pg_attribute a ON a.attrelid = conrelid AND a.attnum = k) AS cols
           FROM pg_constraint WHERE conrelid = $1::regclass AND contype = 'x'`,
        [table],
      );
      for (const exclusion of exclusions) {
        if (!columnsOf([exclusion])[0]!.includes('organization_id'))
          problems.push(`${table}: ${exclusion.name} excludes without organization_id`);
      }
    }
    expect(problems).toEqual([]);
  });

  it('makes every foreign key between distributed tables carry organization_id, and none point from a reference table into a distributed one', async () => {
    const keys = await t.query<{
      name: string;
      source: string;
      target: string;
      cols: string[];
      refcols: string[];
    }>(
      `SELECT c.conname AS name, c.conrelid::regclass::text AS source, c.confrelid::regclass::text AS target,
              ARRAY(SELECT a.attname FROM unnest(c.conkey) WITH ORDINALITY k(n, o) JOIN pg_attribute a ON a.attrelid = c.conrelid AND a.attnum = k.n ORDER BY k.o) AS cols,
              ARRAY(SELECT a.attname FROM unnest(c.confkey) WITH ORDINALITY k(n, o) JOIN pg_attribute a ON a.attrelid = c.confrelid AND a.attnum = k.n ORDER BY k.o) AS refcols
         FROM pg_constraint c JOIN pg_namespace n ON n.oid = c.connamespace WHERE c.contype = 'f' AND n.nspname = 'public'`,
    );
    const problems: string[] = [];
    for (const key of keys) {
      const [cols, refcols] = columnsOf([{ cols: key.cols }, { cols: key.refcols }]);
      if (distributed.includes(key.source) && distributed.includes(key.target)) {
        const at = cols!.indexOf('organization_id');
        if (at < 0 || refcols![at] !== 'organization_id')
          problems.push(`${key.source}.${key.name} → ${key.target} does not pair organization_id`);
      }
      if (reference.includes(key.source) && distributed.includes(key.target))
        problems.push(`${key.source}.${key.name}: a reference table cannot point into ${key.target}`);
    }
    expect(keys.length).toBeGreaterThan(10);
    expect(problems).toEqual([]);
  });
});
