import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { ensureBuilt, ROOT } from '../identity/support/built-app';

/**
 * The bench's floor server runs the API's own statements and checks from the build
 * (tools/bench/floor/domain.js). Those modules must stay framework-free: if one of them started
 * loading Nest, TypeORM or class-validator, the floor would pay the framework's start-up and
 * memory and stop being the floor.
 */
describe('the floor loads the API’s framework-free modules only (e2e)', () => {
  beforeAll(async () => {
    await ensureBuilt();
  }, 300_000);

  it('requires no framework package, and exposes every builder it uses', async () => {
    const script = `
      const domain = require(${JSON.stringify(join(ROOT, 'tools/bench/floor/domain.js'))});
      const loaded = Object.keys(require.cache)
        .map((file) => /node_modules\\/((?:@[^/]+\\/)?[^/]+)/.exec(file)?.[1])
        .filter(Boolean);
      process.stdout.write(
        JSON.stringify({
          packages: [...new Set(loaded)].sort(),
          exports: Object.keys(domain).sort(),
          undefinedOnes: Object.keys(domain).filter((name) => domain[name] === undefined),
        }),
      );
    `;
    const { stdout } = await promisify(execFile)(process.execPath, ['-e', script], { cwd: ROOT });
    const { packages, exports, undefinedOnes } = JSON.parse(stdout) as { packages: string[]; exports: string[]; undefinedOnes: string[] };
    for (const framework of ['@nestjs/common', '@nestjs/core', 'typeorm', 'class-validator', 'class-transformer', 'express', 'rxjs']) {
      expect(packages).not.toContain(framework);
    }
    expect(exports).toEqual(
      expect.arrayContaining([
        'bookingByIdQuery',
        'bookingInsertQuery',
        'bookingUpdateQuery',
        'bookingListQueries',
        'bookingReferencesQuery',
        'eventListQuery',
        'eventByIdQuery',
        'registrationInsertQuery',
        'API_KEY_BY_HASH_SQL',
        'TOUCH_API_KEY_SQL',
        'postListQuery',
        'searchPage',
        'SearchRankingCache',
        'SEARCH_SETTINGS_SQL',
        'idBySlugQuery',
      ]),
    );
    // Each export is defined (a builder renamed in the app would leave undefined behind).
    expect(undefinedOnes).toEqual([]);
  }, 60_000);
});
