#!/usr/bin/env node
// The npm registry these machines reach serves only some platform builds of packages such as
// @swc/core, nx and unrs-resolver. `npm install` then writes a lock file whose entries name optional
// platform packages that have no entry of their own, and `npm ci` refuses that lock file as out of
// sync. This drops, from each entry's optionalDependencies, the packages the lock file does not hold
// (they were never installable here); run it after `npm install`: `node tools/lockfile/prune-unavailable-optionals.js`.
const { readFileSync, writeFileSync } = require('node:fs');
const { join } = require('node:path');

const file = join(__dirname, '..', '..', 'package-lock.json');
const lock = JSON.parse(readFileSync(file, 'utf8'));
const packages = lock.packages;

/** Where Node would find `name` from the package at `path`: nested node_modules first, then upwards. */
function resolves(path, name, spec) {
  let base = path;
  for (;;) {
    const found = packages[`${base ? `${base}/` : ''}node_modules/${name}`];
    // Node takes the nearest copy; an exact-version spec it does not satisfy counts as missing.
    if (found) return !/^\d+\.\d+\.\d+(-[\w.]+)?$/.test(spec) || found.version === spec;
    if (!base) return false;
    const index = base.lastIndexOf('/node_modules/');
    base = index === -1 ? '' : base.slice(0, index);
  }
}

let pruned = 0;
for (const [path, entry] of Object.entries(packages)) {
  if (!entry.optionalDependencies) continue;
  for (const [name, spec] of Object.entries(entry.optionalDependencies)) {
    if (!resolves(path, name, spec)) {
      delete entry.optionalDependencies[name];
      pruned++;
    }
  }
  if (Object.keys(entry.optionalDependencies).length === 0) delete entry.optionalDependencies;
}
writeFileSync(file, `${JSON.stringify(lock, null, 2)}\n`);
process.stdout.write(`pruned ${pruned} unavailable optional dependencies from package-lock.json\n`);
