import { execFile } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { createTestApp, TestApp } from './support/test-app';

describe('OpenAPI document (redocly lint)', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(async () => {
    await t.close();
  });

  it('has no errors under redocly’s recommended rules', async () => {
    const file = join(mkdtempSync(join(tmpdir(), 'almanac-openapi-')), 'openapi.json');
    writeFileSync(file, JSON.stringify(t.document));
    const cli = require.resolve('@redocly/cli/bin/cli.js');
    const result = await promisify(execFile)(process.execPath, [cli, 'lint', file, '--format=summary'], {
      env: { ...process.env, REDOCLY_TELEMETRY: 'off', REDOCLY_SUPPRESS_UPDATE_NOTICE: 'true' },
    }).then(
      (ok) => ({ code: 0, out: ok.stdout + ok.stderr }),
      (error: { code?: number; stdout?: string; stderr?: string }) => ({ code: error.code ?? 1, out: `${error.stdout}${error.stderr}` }),
    );
    expect(result.out).not.toMatch(/^error/m);
    expect(result.code).toBe(0);
  });
});
