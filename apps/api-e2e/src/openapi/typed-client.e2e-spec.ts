import { execFile } from 'node:child_process';
import { copyFileSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { promisify } from 'node:util';
import { createTestApp, TestApp } from '../support/test-app';

type Json = Record<string, unknown>;

const PROGRAM = join(__dirname, 'typed-client', 'program.ts');
const run = promisify(execFile);

/** openapi-typescript's own command line (the package is ESM-only inside: it runs in its own process). */
function generatorCli(): string {
  const manifest = require.resolve('openapi-typescript/package.json');
  const bin = (JSON.parse(readFileSync(manifest, 'utf8')) as { bin: Record<string, string> }).bin['openapi-typescript']!;
  return join(dirname(manifest), bin);
}

/**
 * Generates the client types with openapi-typescript's default options (no flag but the output) into a fresh directory, puts
 * the program beside them and compiles both with `tsc --strict --noEmit`. Returns tsc's complaints.
 */
async function compileAgainst(document: Json): Promise<string> {
  const dir = mkdtempSync(join(tmpdir(), 'almanac-typed-client-'));
  writeFileSync(join(dir, 'openapi.json'), JSON.stringify(document));
  await run(process.execPath, [generatorCli(), join(dir, 'openapi.json'), '--output', join(dir, 'almanac-api.ts')]);
  copyFileSync(PROGRAM, join(dir, 'program.ts'));
  writeFileSync(
    join(dir, 'tsconfig.json'),
    JSON.stringify({ compilerOptions: { target: 'es2022', module: 'commonjs', lib: ['es2022'], types: [], skipLibCheck: false }, files: ['program.ts'] }),
  );
  const tsc = require.resolve('typescript/bin/tsc');
  return run(process.execPath, [tsc, '-p', dir, '--strict', '--noEmit'], { maxBuffer: 16 * 1024 * 1024 }).then(
    () => '',
    (error: { stdout?: string; stderr?: string }) => `${error.stdout ?? ''}${error.stderr ?? ''}`.replaceAll(dir, '<dir>'),
  );
}

describe('a client typed by openapi-typescript from the document (e2e)', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(async () => {
    await t.close();
  });

  it('uses every operation of the document', () => {
    const source = readFileSync(PROGRAM, 'utf8');
    const operationIds = Object.values(t.document['paths'] as Record<string, Record<string, Json>>).flatMap((item) =>
      Object.values(item).map((operation) => operation['operationId'] as string),
    );
    expect(operationIds.length).toBe(99);
    expect(operationIds.filter((id) => !source.includes(`call('${id}'`))).toEqual([]);
  });

  it('compiles with tsc --strict --noEmit (default generator options), and refuses what the server refuses', async () => {
    expect(await compileAgainst(t.document)).toBe('');
  }, 120_000);

  it('would not compile if a PATCH schema declared a default (openapi-typescript then requires the field)', async () => {
    const document = JSON.parse(JSON.stringify(t.document)) as { components: { schemas: Record<string, { properties: Record<string, Json> }> } };
    document.components.schemas['UpdateEventDto']!.properties['timezone']!['default'] = 'UTC';
    const errors = await compileAgainst(document as unknown as Json);
    expect(errors).toContain("Property 'timezone' is missing");
  }, 120_000);
});
