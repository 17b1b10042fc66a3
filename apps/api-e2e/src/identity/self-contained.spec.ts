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

/** A path to a document of this repository (`docs/contract/http.md`), wherever it is named. */
const DOCS_PATH = /\bdocs\/[\w./-]*\.md\b/g;
/** A relative Markdown link: its target file and anchor (absolute URLs are left out). */
const MARKDOWN_LINK = /\]\((?![a-z][a-z0-9+.-]*:)([^)#\s]*)(?:#([^)\s]*))?\)/gi;

/** GitHub's anchor of a Markdown heading: lower case, punctuation dropped, each space a hyphen. */
function anchorOf(heading: string): string {
  return heading
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{N}\s_-]/gu, '')
    .replace(/\s/g, '-');
}

/** The anchors of a Markdown text's headings. */
function anchorsOf(markdown: string): Set<string> {
  return new Set([...markdown.matchAll(/^#{1,6}\s+(.+)$/gm)].map(([, heading]) => anchorOf(heading!)));
}

/** What in one file's text points to a document of the repository that is not there, as `line N: what`. */
function brokenReferences(file: string, text: string, read: (path: string) => string | null): string[] {
  const found: string[] = [];
  text.split('\n').forEach((line, index) => {
    const at = `line ${index + 1}`;
    for (const [path] of line.matchAll(DOCS_PATH)) if (read(path) === null) found.push(`${at}: ${path}`);
    if (!file.endsWith('.md')) return;
    for (const [, target, anchor] of line.matchAll(MARKDOWN_LINK)) {
      const path = target ? relative(ROOT, resolve(ROOT, dirname(file), target)) : file;
      const linked = path.endsWith('/') || path === '' ? null : read(path);
      if (linked === null) {
        if (!target || !existsSync(join(ROOT, path)))
          found.push(`${at}: ${target}${anchor ? `#${anchor}` : ''}`);
        continue;
      }
      if (anchor && path.endsWith('.md') && !anchorsOf(linked).has(anchor))
        found.push(`${at}: ${target}#${anchor}`);
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

describe('the repository explains itself: no reference to a document outside it, none to one that is missing', () => {
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

  it('recognises a path or a link to a document that is not there, or to a heading it does not have', () => {
    const docs: Record<string, string> = {
      'docs/contract/http.md': '# HTTP\n\n## Error codes\n\n## Request ids, logs and headers\n',
      'README.md': '# Almanac\n',
    };
    const read = (path: string) => docs[path] ?? null;
    // Assembled, so that this file names no missing document itself.
    const missing = ['docs', 'contract', 'nowhere.md'].join('/');
    expect(brokenReferences('libs/x.ts', '// the table: docs/contract/http.md, "Errors"', read)).toEqual([]);
    expect(brokenReferences('libs/x.ts', `// see ${missing}`, read)).toEqual([`line 1: ${missing}`]);
    expect(
      brokenReferences(
        'docs/contract/README.md',
        'See [codes](http.md#error-codes) and [ids](http.md#request-ids-logs-and-headers).',
        read,
      ),
    ).toEqual([]);
    expect(
      brokenReferences('docs/contract/README.md', 'See [codes](http.md#errors) and [x](gone.md).', read),
    ).toEqual(['line 1: http.md#errors', 'line 1: gone.md']);
    expect(
      brokenReferences('docs/contract/http.md', 'Above: [codes](#error-codes), [nothing](#nothing).', read),
    ).toEqual(['line 1: #nothing']);
    expect(
      brokenReferences(
        'docs/contract/http.md',
        'The [readme](../../README.md) and [the site](https://almanac.dev/x.md#y).',
        read,
      ),
    ).toEqual([]);
  });

  it('names only documents and headings that exist', () => {
    const texts = new Map<string, string | null>();
    const read = (path: string): string | null => {
      if (!texts.has(path))
        texts.set(path, existsSync(join(ROOT, path)) && !path.endsWith('/') ? textOf(path) : null);
      return texts.get(path)!;
    };
    const broken = repositoryFiles().flatMap((file) => {
      const text = textOf(file);
      return text === null ? [] : brokenReferences(file, text, read).map((found) => `${file} ${found}`);
    });
    expect(broken).toEqual([]);
  });
});
