import { execFile } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { createTestApp, TestApp } from './support/test-app';

interface LintReport {
  totals: { errors: number; warnings: number; ignored: number };
  problems: Array<{ ruleId: string; severity: string; message: string; location: Array<{ pointer: string }> }>;
}

const CONFIG = resolve(__dirname, '../../../redocly.yaml');

async function lint(document: unknown): Promise<LintReport> {
  const file = join(mkdtempSync(join(tmpdir(), 'almanac-openapi-')), 'openapi.json');
  writeFileSync(file, JSON.stringify(document));
  const cli = require.resolve('@redocly/cli/bin/cli.js');
  const output = await promisify(execFile)(process.execPath, [cli, 'lint', file, `--config=${CONFIG}`, '--format=json'], {
    env: { ...process.env, REDOCLY_TELEMETRY: 'off', REDOCLY_SUPPRESS_UPDATE_NOTICE: 'true' },
    maxBuffer: 64 * 1024 * 1024,
  }).then(
    (ok) => ok.stdout,
    // Exit code 1 when there are errors: the report is on stdout all the same.
    (error: { stdout?: string }) => error.stdout ?? '',
  );
  return JSON.parse(output.slice(output.indexOf('{'))) as LintReport;
}

describe('OpenAPI document (redocly lint)', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(async () => {
    await t.close();
  });

  it('has no error and no warning under redocly.yaml (recommended, and stricter)', async () => {
    const report = await lint(t.document);
    const found = report.problems.map((p) => `${p.severity} ${p.ruleId} at ${p.location[0]?.pointer}: ${p.message}`);
    expect(found).toEqual([]);
    expect(report.totals).toEqual({ errors: 0, warnings: 0, ignored: 0 });
  });

  it('is heard by the linter: a document with an undeclared tag and a bad example fails it', async () => {
    const broken = JSON.parse(JSON.stringify(t.document)) as { tags: unknown[]; components: { schemas: Record<string, { properties: Record<string, Record<string, unknown>> }> } };
    broken.tags = broken.tags.slice(1);
    broken.components.schemas['ScheduleResponse']!.properties['name']!['examples'] = [42];
    const report = await lint(broken);
    expect(report.problems.map((p) => p.ruleId)).toEqual(expect.arrayContaining(['operation-tag-defined', 'no-invalid-schema-examples']));
    expect(report.totals.errors).toBeGreaterThan(0);
  });
});
