import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { ROOT } from './support/built-app';

/**
 * The repository explains itself: its behaviour contract is written in `docs/contract/`, and no file
 * (code, comment, test, README, doc, tool) sends the reader to a document that lives outside it.
 * Each forbidden word is assembled from pieces, so this file can be scanned like any other.
 */
const NAMES_OF_OUTSIDE_DOCUMENTS = [['api', 'decisions'].join('-'), ['service', 'interface'].join('-')];
const SECTION_SIGN = '\u00a7';
/** A section of a public standard ("RFC 9110 §13.1.2") is a fine reference; any other section sign points elsewhere. */
const RFC_SECTION = new RegExp(`RFC \\d+ ${SECTION_SIGN}\\s?\\d+(\\.\\d+)*`, 'g');
/** A relative path into a `shared` folder: fine inside the repository, not when it climbs out of it. */
const SHARED_PATH = /(?:\.\.\/)+shared\/[^\s'"`)\]>]*/g;

/** What in one file's text points outside the repository, as `line N: what`. */
function outsideReferences(file: string, text: string): string[] {
  const found: string[] = [];
  text.split('\n').forEach((line, index) => {
    const at = `line ${index + 1}`;
    for (const name of NAMES_OF_OUTSIDE_DOCUMENTS)
      if (line.toLowerCase().includes(name)) found.push(`${at}: ${name}`);
    if (line.replace(RFC_SECTION, '').includes(SECTION_SIGN))
      found.push(`${at}: a section sign that is not an RFC's`);
    for (const [path] of line.matchAll(SHARED_PATH)) {
      const target = resolve(ROOT, dirname(file), path);
      if (relative(ROOT, target).startsWith(`..${sep}`)) found.push(`${at}: ${path}`);
    }
  });
  return found;
}

/** Every file of the repository (tracked, or new and not ignored), relative to its root. */
function repositoryFiles(): string[] {
  const listed = execFileSync('git', ['ls-files', '--cached', '--others', '--exclude-standard', '-z'], {
    cwd: ROOT,
    encoding: 'utf8',
    maxBuffer: 64 * 1024 * 1024,
  });
  return listed.split('\0').filter((file) => file !== '' && existsSync(join(ROOT, file)));
}

/** The text of a file, or null for a binary one (it holds a NUL byte). */
function textOf(file: string): string | null {
  const text = readFileSync(join(ROOT, file), 'utf8');
  return text.includes('\0') ? null : text;
}

describe('the repository explains itself: no reference to a document outside it', () => {
  it('recognises each kind of outside reference, and passes RFC sections and paths that stay inside', () => {
    const [decisions, serviceInterface] = NAMES_OF_OUTSIDE_DOCUMENTS;
    expect(outsideReferences('libs/x.ts', `/** Rates (${decisions} ${SECTION_SIGN}10). */`)).toEqual([
      `line 1: ${decisions}`,
      "line 1: a section sign that is not an RFC's",
    ]);
    expect(outsideReferences('README.md', `intro\nsee ${serviceInterface}.md`)).toEqual([
      `line 2: ${serviceInterface}`,
    ]);
    expect(outsideReferences('libs/x.ts', `// moves per ${SECTION_SIGN}3.1`)).toEqual([
      "line 1: a section sign that is not an RFC's",
    ]);
    expect(outsideReferences('README.md', 'The rules are in `../shared/ARCHITECTURE.md`.')).toEqual([
      'line 1: ../shared/ARCHITECTURE.md',
    ]);
    expect(outsideReferences('docs/architecture.md', 'see ../../shared/spec/x.md')).toEqual([
      'line 1: ../../shared/spec/x.md',
    ]);

    expect(
      outsideReferences(
        'libs/x.ts',
        `// TEXT escaping (RFC 5545 ${SECTION_SIGN}3.3.11), weak comparison (RFC 9110 ${SECTION_SIGN}13.1.2)`,
      ),
    ).toEqual([]);
    expect(
      outsideReferences(
        'apps/api-e2e/src/identity/x.spec.ts',
        "import { Receiver } from '../shared/receiver';",
      ),
    ).toEqual([]);
    expect(outsideReferences('libs/x.ts', 'rules: docs/contract/http.md')).toEqual([]);
  });

  it('lists the files of the repository, and not what git ignores', () => {
    const files = repositoryFiles();
    for (const file of [
      'README.md',
      'docs/architecture.md',
      'tools/citus/distribute.sql',
      'apps/api-e2e/src/identity/self-contained.spec.ts',
    ])
      expect(files).toContain(file);
    expect(files.filter((file) => /(^|\/)(node_modules|dist)\//.test(file))).toEqual([]);
  });

  it('holds in every file of the repository', () => {
    const violations = repositoryFiles().flatMap((file) => {
      const text = textOf(file);
      return text === null ? [] : outsideReferences(file, text).map((found) => `${file} ${found}`);
    });
    expect(violations).toEqual([]);
  });
});
