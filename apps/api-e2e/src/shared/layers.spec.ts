import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { contexts, LIBS, tsFiles } from '../support/source-files';

/**
 * The layers of a context, read from its sources:
 * - `application/` owns its types: from `infrastructure/` it takes only classes it is given (its
 *   repositories, caches), never a type, function or constant; from `api/` nothing at all (a
 *   response's shape lives in the domain, where the API's mappers and the outbox's events both find it);
 * - `domain/` files import each other without a cycle;
 * - every migration file of a context is listed in its migrations barrel (else it never runs).
 */

interface ImportStatement {
  readonly names: string[];
  readonly typeOnly: boolean;
  readonly from: string;
}

/** The import statements of a source text (default, namespace and named imports). */
export function importsOf(source: string): ImportStatement[] {
  const found: ImportStatement[] = [];
  const pattern = /^import\s+(type\s+)?([\s\S]*?)\s+from\s+'([^']+)';/gm;
  for (const match of source.matchAll(pattern)) {
    const clause = match[2]!;
    const names: string[] = [];
    const braces = /\{([\s\S]*)\}/.exec(clause);
    for (const part of braces ? braces[1]!.split(',') : []) {
      const name = part.trim();
      if (name) names.push(name);
    }
    const outside = clause.replace(/\{[\s\S]*\}/, '').replace(/,/g, ' ').trim();
    if (outside) names.push(outside);
    found.push({ names, typeOnly: match[1] !== undefined, from: match[3]! });
  }
  return found;
}

/** The classes a module exports. */
function exportedClasses(source: string): Set<string> {
  return new Set([...source.matchAll(/^export (?:abstract )?class (\w+)/gm)].map((m) => m[1]!));
}

/**
 * What an application file may not import: anything from `api/`, and from `infrastructure/` anything
 * but the classes the module declares (a type-only import, an interface, a function, a constant).
 */
export function applicationViolations(source: string, readModule: (specifier: string) => string): string[] {
  const violations: string[] = [];
  for (const statement of importsOf(source)) {
    if (/^\.\.\/api\//.test(statement.from)) {
      violations.push(`${statement.from}: the application layer never imports the API layer`);
      continue;
    }
    if (!/^\.\.\/infrastructure\//.test(statement.from)) continue;
    const classes = exportedClasses(readModule(statement.from));
    for (const raw of statement.names) {
      const name = raw.replace(/^type\s+/, '').replace(/\s+as\s+\w+$/, '');
      if (statement.typeOnly || raw.startsWith('type ') || !classes.has(name)) {
        violations.push(`${statement.from}: ${name} (only the classes the application is given, such as repositories)`);
      }
    }
  }
  return violations;
}

function applicationFiles(): string[] {
  return contexts().flatMap((context) => {
    const dir = join(LIBS, context, 'src/lib/application');
    return existsSync(dir) ? tsFiles(dir) : [];
  });
}

function moduleText(fromFile: string, specifier: string): string {
  const base = resolve(dirname(fromFile), specifier);
  const file = [`${base}.ts`, join(base, 'index.ts')].find((path) => existsSync(path));
  if (!file) throw new Error(`${relative(LIBS, fromFile)}: cannot resolve ${specifier}`);
  return readFileSync(file, 'utf8');
}

/** The cycles among a folder's files through their relative imports (each cycle once, as a path). */
export function importCycles(files: ReadonlyMap<string, readonly string[]>): string[][] {
  const cycles: string[][] = [];
  const seen = new Set<string>();
  const visit = (file: string, path: string[]): void => {
    for (const next of files.get(file) ?? []) {
      const at = path.indexOf(next);
      if (at >= 0) {
        const cycle = path.slice(at);
        const key = [...cycle].sort().join(' ');
        if (!seen.has(key)) {
          seen.add(key);
          cycles.push([...cycle, next]);
        }
      } else if (files.has(next)) {
        visit(next, [...path, next]);
      }
    }
  };
  for (const file of files.keys()) visit(file, [file]);
  return cycles;
}

/** Each domain file of a context and the domain files it imports (names relative to the folder). */
function domainGraph(context: string): Map<string, string[]> {
  const dir = join(LIBS, context, 'src/lib/domain');
  const graph = new Map<string, string[]>();
  if (!existsSync(dir)) return graph;
  for (const file of tsFiles(dir)) {
    const targets = importsOf(readFileSync(file, 'utf8'))
      .filter((statement) => statement.from.startsWith('.'))
      .map((statement) => relative(dir, resolve(dirname(file), statement.from)).replace(/\/index$/, ''));
    graph.set(relative(dir, file).replace(/\.ts$/, ''), targets);
  }
  return graph;
}

describe('layers of a context', () => {
  it('reads imports, and refuses an API import or anything but a class from infrastructure', () => {
    const repository = `@Injectable()\nexport class PostRepository {}\nexport interface PostRow { id: string }\nexport function toRow() {}\n`;
    const read = (): string => repository;
    expect(importsOf("import {\n  A,\n  type B,\n} from '../domain/x';\nimport C, { D as E } from 'y';")).toEqual([
      { names: ['A', 'type B'], typeOnly: false, from: '../domain/x' },
      { names: ['D as E', 'C'], typeOnly: false, from: 'y' },
    ]);
    expect(applicationViolations("import { PostRepository } from '../infrastructure/post.repository';", read)).toEqual([]);
    expect(applicationViolations("import { PostRepository, PostRow } from '../infrastructure/post.repository';", read)).toEqual([
      '../infrastructure/post.repository: PostRow (only the classes the application is given, such as repositories)',
    ]);
    expect(applicationViolations("import type { PostRepository } from '../infrastructure/post.repository';", read)).toHaveLength(1);
    expect(applicationViolations("import { toRow } from '../infrastructure/post.repository';", read)).toHaveLength(1);
    expect(applicationViolations("import { toPost } from '../api/dto/post.response';", read)).toEqual([
      '../api/dto/post.response: the application layer never imports the API layer',
    ]);
  });

  it('holds in every application file', () => {
    const files = applicationFiles();
    expect(files.length).toBeGreaterThan(10);
    const violations = files.flatMap((file) =>
      applicationViolations(readFileSync(file, 'utf8'), (specifier) => moduleText(file, specifier)).map((v) => `${relative(LIBS, file)}: ${v}`),
    );
    expect(violations).toEqual([]);
  });

  it('finds an import cycle, and there is none among any context\'s domain files', () => {
    expect(importCycles(new Map([['event-type', ['slots']], ['slots', ['event-type', 'availability']], ['availability', []]]))).toEqual([
      ['event-type', 'slots', 'event-type'],
    ]);
    const cycles = contexts().flatMap((context) => importCycles(domainGraph(context)).map((cycle) => `${context}: ${cycle.join(' → ')}`));
    expect(cycles).toEqual([]);
  });

  it('runs every migration: each file of a context\'s migrations folder is listed in its barrel', () => {
    const unlisted = contexts().flatMap((context) => {
      const dir = join(LIBS, context, 'src/lib/infrastructure/migrations');
      if (!existsSync(dir)) return [];
      const barrel = readFileSync(join(dir, 'index.ts'), 'utf8');
      return readdirSync(dir)
        .filter((name) => name.endsWith('.ts') && name !== 'index.ts' && !name.endsWith('.spec.ts'))
        .filter((name) => !barrel.includes(`from './${name.replace(/\.ts$/, '')}'`))
        .map((name) => `${context}/${name}`);
    });
    expect(unlisted).toEqual([]);
  });
});
