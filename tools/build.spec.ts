import { mkdirSync, mkdtempSync, renameSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { INPUTS, STAMP, staleInput } from './build';

/** `npm run cli`, `npm start` and `npm run migrate` build only when an input changed after the last build. */
describe('build --if-stale', () => {
  let root: string;
  const builtAt = new Date('2026-06-01T12:00:00Z');
  const before = new Date(builtAt.getTime() - 60_000);
  const after = new Date(builtAt.getTime() + 1_000);

  function write(path: string, at: Date): void {
    mkdirSync(join(root, path, '..'), { recursive: true });
    writeFileSync(join(root, path), 'x');
    utimesSync(join(root, path), at, at);
  }
  /** Sets every directory on the way to `path` back to `at` (creating files touches them). */
  function age(path: string, at: Date): void {
    for (let dir = path; dir !== '.'; dir = join(dir, '..')) utimesSync(join(root, dir), at, at);
  }

  beforeEach(() => {
    root = mkdtempSync(join(tmpdir(), 'almanac-build-'));
    write('libs/identity/src/index.ts', before);
    write('apps/api/src/main.ts', before);
    write('tools/cli/main.ts', before);
    write('tsconfig.base.json', before);
    age('libs/identity/src', before);
    age('apps/api/src', before);
    age('tools/cli', before);
    write(STAMP, builtAt);
  });
  afterEach(() => rmSync(root, { recursive: true, force: true }));

  it('has nothing to do when every input is older than the stamp', () => {
    expect(staleInput(root)).toBeNull();
  });

  it('builds when dist was never built', () => {
    rmSync(join(root, STAMP));
    expect(staleInput(root)).toBe('no build yet');
  });

  it.each(['libs/identity/src/index.ts', 'apps/api/src/main.ts', 'tools/cli/main.ts', 'tsconfig.base.json'])('builds when %s changed', (path) => {
    utimesSync(join(root, path), after, after);
    expect(staleInput(root)).toBe(join(root, path));
  });

  it('builds when a file was added or renamed, even with an old modification time', () => {
    renameSync(join(root, 'libs/identity/src/index.ts'), join(root, 'libs/identity/src/main.ts'));
    expect(staleInput(root)).toBe(join(root, 'libs/identity/src'));
  });

  it('watches the sources of both projects, their configuration and the installed dependencies', () => {
    expect(INPUTS).toEqual(
      expect.arrayContaining(['apps/api/src', 'apps/admin/src', 'libs', 'tools/cli', 'tsconfig.base.json', 'apps/api/tsconfig.app.json', 'apps/admin/tsconfig.json', 'node_modules/.package-lock.json']),
    );
  });
});
