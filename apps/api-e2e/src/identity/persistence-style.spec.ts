import { existsSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { contexts, LIBS, tsFiles } from '../support/source-files';

/**
 * One persistence style (issue 13, item 3): SQL, advisory locks, savepoints and ORM repositories live
 * in a context's `infrastructure/`; its `application/` services load through repositories, decide
 * (with the domain), save, and open transactions with `dataSource.transaction`.
 */
const FORBIDDEN: ReadonlyArray<{ name: string; pattern: RegExp }> = [
  { name: '.query(', pattern: /\.query\s*\(/ },
  { name: 'getRepository(', pattern: /\bgetRepository\s*\(/ },
  { name: 'createQueryBuilder(', pattern: /\bcreateQueryBuilder\s*\(/ },
  { name: 'pg_advisory', pattern: /pg_advisory/i },
  { name: 'SAVEPOINT', pattern: /\bSAVEPOINT\b/i },
];

/** Application files of other contexts that still hold SQL, each with the reason it may for now. */
const ALLOWED: Readonly<Record<string, string>> = {};

/** Each forbidden construct in a source text, as `line N: name`. */
function persistenceViolations(source: string): string[] {
  const found: string[] = [];
  source.split('\n').forEach((line, index) => {
    for (const { name, pattern } of FORBIDDEN) if (pattern.test(line)) found.push(`line ${index + 1}: ${name}`);
  });
  return found;
}

/**
 * Every `libs/<context>/src/lib/application/**\/*.ts`, relative to libs/, but the medium tests
 * (`*.medium.spec.ts`): they run a service on the real database and read its rows to check what it
 * wrote, as the e2e suites do.
 */
function applicationFiles(): string[] {
  return contexts().flatMap((context) => {
    const dir = join(LIBS, context, 'src/lib/application');
    return existsSync(dir)
      ? tsFiles(dir, { specs: true })
          .filter((path) => !path.endsWith('.medium.spec.ts'))
          .map((path) => relative(LIBS, path))
      : [];
  });
}

describe('persistence style: no SQL in application services', () => {
  it('recognises each forbidden construct, and passes a service that only calls its repositories', () => {
    expect(persistenceViolations("const rows = await em.query('SELECT 1');")).toEqual(['line 1: .query(']);
    expect(persistenceViolations('this.dataSource\n  .query(SQL, [id])')).toEqual(['line 2: .query(']);
    expect(persistenceViolations('await this.dataSource.getRepository(UserOrmEntity).insert(user);')).toEqual(['line 1: getRepository(']);
    expect(persistenceViolations("em.createQueryBuilder().select('x')")).toEqual(['line 1: createQueryBuilder(']);
    expect(persistenceViolations("const lock = 'SELECT pg_advisory_xact_lock($1)';")).toEqual(['line 1: pg_advisory']);
    expect(persistenceViolations('const s = `ROLLBACK TO SAVEPOINT ${name}`;')).toEqual(['line 1: SAVEPOINT']);
    expect(
      persistenceViolations(
        'const user = await this.users.findCredentialsByEmailKey(this.dataSource.manager, emailKey);\nawait this.dataSource.transaction(async (em) => this.sessions.insert(em, session, hash));',
      ),
    ).toEqual([]);
  });

  it('finds the application files of every context, identity among them', () => {
    const files = applicationFiles();
    for (const file of ['identity/src/lib/application/admin-session.service.ts', 'identity/src/lib/application/identity.service.ts', 'scheduling/src/lib/application/bookings.service.ts']) {
      expect(files).toContain(file);
    }
  });

  it('holds in every application file but the allow-listed ones', () => {
    const violations = applicationFiles()
      .filter((file) => !(file in ALLOWED))
      .flatMap((file) => persistenceViolations(readFileSync(join(LIBS, file), 'utf8')).map((found) => `libs/${file} ${found}`));
    expect(violations).toEqual([]);
  });

  it('allows no identity file, and no entry that is no longer needed (remove it once its file is clean)', () => {
    expect(Object.keys(ALLOWED).filter((file) => file.startsWith('identity/'))).toEqual([]);
    const files = new Set(applicationFiles());
    const stale = Object.keys(ALLOWED).filter((file) => !files.has(file) || persistenceViolations(readFileSync(join(LIBS, file), 'utf8')).length === 0);
    expect(stale).toEqual([]);
  });

  it("keeps identity's application services free of ORM entities: they return domain objects", () => {
    const identity = applicationFiles().filter((file) => file.startsWith('identity/'));
    const entityUses = identity.filter((file) => /OrmEntity|orm-entit/.test(readFileSync(join(LIBS, file), 'utf8')));
    expect(entityUses).toEqual([]);
  });
});
