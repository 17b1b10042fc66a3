#!/usr/bin/env node
// `npm run build`: compiles the API and the CLI (apps/api/tsconfig.app.json) and the admin console
// (apps/admin/tsconfig.json) into dist/, then stamps dist/.build-stamp with the time the build started.
//
// `--if-stale` (npm start, npm run cli, npm run migrate) builds only when something the build reads
// changed after that time, or dist was never built: an incremental tsc that finds nothing to do
// still reads the whole program (5–12 s), which every CLI call used to pay.
'use strict';
const { spawnSync } = require('node:child_process');
const { closeSync, mkdirSync, openSync, readdirSync, statSync, utimesSync } = require('node:fs');
const { join } = require('node:path');

const ROOT = join(__dirname, '..');
const STAMP = join('dist', '.build-stamp');
const PROJECTS = ['apps/api/tsconfig.app.json', 'apps/admin/tsconfig.json'];
/** Everything the two projects compile or are configured by (directories are walked). */
const INPUTS = [
  'apps/api/src',
  'apps/admin/src',
  'libs',
  'tools/cli',
  'tsconfig.base.json',
  ...PROJECTS,
  // Dependencies changed (npm ci / npm install rewrite it).
  'node_modules/.package-lock.json',
];

/**
 * The first input under `root` changed after the stamp (a file, or a directory whose entries were
 * added, removed or renamed), `'no build yet'` without a stamp, or null when dist is up to date.
 */
function staleInput(root = ROOT) {
  let builtAt;
  try {
    builtAt = statSync(join(root, STAMP)).mtimeMs;
  } catch {
    return 'no build yet';
  }
  const newer = (path) => {
    let stats;
    try {
      stats = statSync(path);
    } catch {
      return null; // an optional input that does not exist
    }
    if (stats.mtimeMs > builtAt) return path;
    if (!stats.isDirectory()) return null;
    for (const entry of readdirSync(path, { withFileTypes: true })) {
      if (entry.name === 'node_modules' || entry.name.startsWith('.')) continue;
      const found = newer(join(path, entry.name));
      if (found) return found;
    }
    return null;
  };
  for (const input of INPUTS) {
    const found = newer(join(root, input));
    if (found) return found;
  }
  return null;
}

/** Runs both compilations; the stamp gets the start time, so an edit made during the build is seen next time. */
function build(root = ROOT) {
  const startedAt = new Date();
  for (const project of PROJECTS) {
    const result = spawnSync(process.execPath, [join(root, 'node_modules/typescript/bin/tsc'), '-p', project], { cwd: root, stdio: 'inherit' });
    if (result.status !== 0) return result.status ?? 1;
  }
  mkdirSync(join(root, 'dist'), { recursive: true });
  closeSync(openSync(join(root, STAMP), 'w'));
  utimesSync(join(root, STAMP), startedAt, startedAt);
  return 0;
}

module.exports = { staleInput, STAMP, INPUTS };

if (require.main === module) {
  const ifStale = process.argv.includes('--if-stale');
  if (ifStale && staleInput() === null) process.exit(0);
  process.exit(build());
}
