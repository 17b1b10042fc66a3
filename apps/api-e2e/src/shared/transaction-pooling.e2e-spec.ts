import { readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { LIBS, tsFiles } from '../support/source-files';
import { createTestApp, TestApp } from '../support/test-app';

/**
 * Behind PgBouncer in transaction mode, consecutive transactions of one client run on different
 * server sessions, and a session's state stays behind for the next client. So the service keeps
 * nothing in a session: no session advisory lock, `SET`, `LISTEN`, session-wide `set_config`,
 * temporary table, SQL `PREPARE` or cursor held across transactions, and no named prepared statement
 * (node-pg's query config `{ name, text }`). (npm run test:pgbouncer runs the concurrency suites
 * through a real PgBouncer.)
 */
const SESSION_STATE: ReadonlyArray<{ name: string; pattern: RegExp }> = [
  { name: 'session advisory lock', pattern: /pg_(try_)?advisory_(un)?lock(_shared)?(_all)?\s*\(/i },
  { name: 'LISTEN/NOTIFY', pattern: /\b(LISTEN|UNLISTEN|NOTIFY)\s+\w|pg_notify\s*\(/ },
  // A statement that starts with SET (a string's first word, or after a semicolon), SET LOCAL aside;
  // not the SET of an UPDATE or ON CONFLICT, which starts a line of its statement.
  { name: 'SET', pattern: /['"`;]\s*SET\s+(?!LOCAL\b)(SESSION\s+)?\w+\s*(=|TO\b)/i },
  { name: 'session-wide set_config', pattern: /set_config\s*\([^)]*,\s*false\s*\)/i },
  { name: 'temporary table', pattern: /CREATE\s+(GLOBAL\s+|LOCAL\s+)?(TEMP|TEMPORARY)\s+TABLE/i },
  { name: 'PREPARE', pattern: /['"`;]\s*PREPARE\s+\w+/i },
  { name: 'cursor WITH HOLD', pattern: /\bWITH\s+HOLD\b/i },
  { name: 'named prepared statement', pattern: /\bname\s*:\s*[^,}]+,\s*text\s*:|\btext\s*:\s*[^,}]+,\s*name\s*:/ },
];

/** Startup parameters PgBouncer (1.18 and later) tracks per client; it refuses any other, unless told to ignore it. */
const TRACKED_BY_PGBOUNCER = ['application_name', 'client_encoding', 'DateStyle', 'TimeZone', 'standard_conforming_strings'];

function sessionStateIn(source: string): string[] {
  return SESSION_STATE.filter(({ pattern }) => pattern.test(source)).map(({ name }) => name);
}

/** The service's own sources (not specs or test helpers): the contexts, the app, the CLI. */
function serviceSources(): string[] {
  const root = join(LIBS, '..');
  return [LIBS, join(root, 'apps/api/src'), join(root, 'tools/cli')]
    .flatMap((dir) => tsFiles(dir))
    .filter((path) => !path.includes('/testing/'))
    .map((path) => relative(root, path));
}

describe('transaction pooling: no state kept in a database session', () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(async () => t.close());

  it('recognises each session construct, and lets transaction-scoped ones and UPDATE … SET through', () => {
    expect(sessionStateIn("await runner.query('SELECT pg_advisory_lock($1)', [KEY]);")).toEqual(['session advisory lock']);
    expect(sessionStateIn('SELECT pg_try_advisory_lock(1)')).toEqual(['session advisory lock']);
    expect(sessionStateIn("em.query('SELECT pg_advisory_unlock($1)')")).toEqual(['session advisory lock']);
    expect(sessionStateIn("await client.query('LISTEN outbox')")).toEqual(['LISTEN/NOTIFY']);
    expect(sessionStateIn("await em.query(\"SET statement_timeout = '5s'\")")).toEqual(['SET']);
    expect(sessionStateIn('const sql = `SET search_path TO app`;')).toEqual(['SET']);
    expect(sessionStateIn("em.query(\"SELECT set_config('work_mem', '32MB', false)\")")).toEqual(['session-wide set_config']);
    expect(sessionStateIn("'CREATE TEMP TABLE staged (id uuid)'")).toEqual(['temporary table']);
    expect(sessionStateIn("'PREPARE find AS SELECT 1'")).toEqual(['PREPARE']);
    expect(sessionStateIn("'DECLARE c CURSOR WITH HOLD FOR SELECT 1'")).toEqual(['cursor WITH HOLD']);
    expect(sessionStateIn("pool.query({ name: 'find-booking', text: 'SELECT 1', values: [] })")).toEqual(['named prepared statement']);
    expect(
      sessionStateIn(
        [
          "await em.query('SELECT pg_advisory_xact_lock(hashtextextended($1, 0))', [key]);",
          "const r = await em.query('SELECT pg_try_advisory_xact_lock($1) AS locked', [key]);",
          "await tx.query(\"SELECT set_config('enable_seqscan', 'off', true)\");",
          "await em.query('SET LOCAL lock_timeout = 1000');",
          'const sql = `UPDATE bookings SET ${set} WHERE id = $1`;',
          '`UPDATE posts\n   SET title = $1`',
          "`INSERT INTO t VALUES ($1)\n ON CONFLICT (id) DO UPDATE\n SET n = EXCLUDED.n`",
          "'ALTER TABLE bookings ALTER COLUMN title SET NOT NULL'",
          "const field = { name: 'start', type: 'date' };",
          'await app.listen(config.port);',
        ].join('\n'),
      ),
    ).toEqual([]);
  });

  it('no source of the service keeps state in a session', () => {
    const found = serviceSources().flatMap((path) => {
      const source = readFileSync(join(LIBS, '..', path), 'utf8');
      return sessionStateIn(source).map((name) => `${path}: ${name}`);
    });
    expect(found).toEqual([]);
  });

  it("the app's connections start with no parameter PgBouncer would refuse (statement_timeout, options, …)", async () => {
    // Parameters from a connection's start-up packet are settings whose source is "client".
    const rows = await t.query<{ name: string }>("SELECT name FROM pg_settings WHERE source = 'client' ORDER BY name");
    const names = rows.map((r) => r.name);
    expect(names).toContain('application_name');
    expect(names.filter((name) => !TRACKED_BY_PGBOUNCER.includes(name))).toEqual([]);
  });
});
