import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { ROOT } from './support/built-app';

interface Fixture {
  name: string;
  filePath: string;
  code: string;
}

/** Lints the fixtures with the workspace's own eslint.config.mjs (in a child process, see lint-text.cjs). */
function lintFixtures(fixtures: Fixture[]): string[][] {
  const output = execFileSync(process.execPath, [join(__dirname, 'support/lint-text.cjs')], {
    cwd: ROOT,
    input: JSON.stringify(fixtures.map(({ filePath, code }) => ({ filePath, code }))),
    encoding: 'utf8',
  });
  return JSON.parse(output) as string[][];
}

const FORBIDDEN: Fixture[] = [
  { name: 'events imports the blog context', filePath: 'libs/events/src/lib/application/x.ts', code: `import { BlogModule } from '@almanac/blog';\nexport const m = BlogModule;\n` },
  { name: 'events reaches into blog internals by a relative path', filePath: 'libs/events/src/lib/application/x.ts', code: `import { PostStatus } from '../../../../blog/src/lib/domain/post-status';\nexport type S = PostStatus;\n` },
  { name: 'calendar-sync reaches into scheduling internals', filePath: 'libs/calendar-sync/src/lib/application/x.ts', code: `import * as booking from '../../../../scheduling/src/lib/domain/booking';\nexport const b = booking;\n` },
  { name: 'scheduling imports calendar-sync', filePath: 'libs/scheduling/src/lib/application/x.ts', code: `import { CalendarSyncModule } from '@almanac/calendar-sync';\nexport const m = CalendarSyncModule;\n` },
  { name: 'the shared kernel imports identity', filePath: 'libs/shared/src/api/x.ts', code: `import { IdentityModule } from '@almanac/identity';\nexport const m = IdentityModule;\n` },
  { name: 'identity imports a context', filePath: 'libs/identity/src/lib/application/x.ts', code: `import { SchedulingModule } from '@almanac/scheduling';\nexport const m = SchedulingModule;\n` },
];

const ALLOWED: Fixture[] = [
  { name: 'events uses shared and identity', filePath: 'libs/events/src/lib/application/x.ts', code: `import { AppConfig } from '@almanac/shared';\nimport { RequireScope } from '@almanac/identity';\nexport const a = [AppConfig, RequireScope];\n` },
  { name: 'calendar-sync uses the public API of scheduling', filePath: 'libs/calendar-sync/src/lib/application/x.ts', code: `import { SchedulingModule } from '@almanac/scheduling';\nexport const m = SchedulingModule;\n` },
  { name: 'a context uses its own files', filePath: 'libs/blog/src/lib/application/x.ts', code: `import { PostStatus } from '../domain/post-status';\nexport type S = PostStatus;\n` },
];

const DOMAIN: Fixture = {
  name: 'a domain file imports Nest',
  filePath: 'libs/events/src/lib/domain/x.ts',
  code: `import { Injectable } from '@nestjs/common';\nimport { DomainError } from '@almanac/shared/domain';\nexport const a = [Injectable, DomainError];\n`,
};

/**
 * Lint fixtures: source texts linted as if they sat at the given path. `npm run lint` fails on any
 * of these messages, so a context importing another's internals cannot be merged.
 */
describe('module boundaries are enforced by lint', () => {
  let results: Map<string, string[]>;

  beforeAll(() => {
    // The Nx rule reads the project graph that `nx show projects` writes (as `npm run lint` does).
    execFileSync(process.execPath, [join(ROOT, 'node_modules/nx/dist/bin/nx.js'), 'show', 'projects'], {
      cwd: ROOT,
      env: { ...process.env, NX_DAEMON: 'false', NX_NO_CLOUD: 'true' },
      stdio: 'ignore',
    });
    const all = [...FORBIDDEN, ...ALLOWED, DOMAIN];
    const messages = lintFixtures(all);
    results = new Map(all.map((fixture, i) => [fixture.name, messages[i]!]));
  }, 120_000);

  it.each(FORBIDDEN.map((f) => [f.name]))('fails when %s', (name) => {
    expect(results.get(name)).toEqual([expect.stringMatching(/^@nx\/enforce-module-boundaries: /)]);
  });

  it.each(ALLOWED.map((f) => [f.name]))('passes when %s', (name) => {
    expect(results.get(name)).toEqual([]);
  });

  it('keeps the domain layer free of Nest (shared/domain is allowed)', () => {
    expect(results.get(DOMAIN.name)).toEqual([expect.stringMatching(/^no-restricted-imports: '@nestjs\/common'/)]);
  });
});
