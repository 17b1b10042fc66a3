'use strict';
// npm run test:pgbouncer [-- options] [-- jest arguments]: the concurrency suites through a real
// PgBouncer in transaction pooling mode, as deployments with many instances run the service.
//
// 1. Finds pgbouncer (PGBOUNCER_BIN, else Debian's /usr/sbin/pgbouncer); when it is missing, installs
//    Debian's package with apt-get (as root, or through `sudo -n`). When that cannot be done it says
//    so and exits 0 without testing (exit 1 instead with --require).
// 2. Runs Jest on the suites below with ALMANAC_TEST_PGBOUNCER=1: the global setup
//    (tools/testing/global-setup.ts) starts the embedded PostgreSQL and, in front of it, a PgBouncer
//    (pool_mode = transaction, a `* =` wildcard database, SCRAM against a generated user list) on
//    free ports with its configuration in a temporary directory; every app under test, and every
//    process the suites start, connects through it.
// 3. Repeats that --repeat=N times and prints, per run and in all, the tests passed and failed.
//
// Options: --repeat=N (1), --rounds=N (rounds of the 20-parallel-creates test, 50),
//          --suites=a,b (paths or patterns instead of the list below), --require.
// Everything after a second `--` goes to Jest as is (e.g. `-t "parallel"`).
// Runs outside `npm test`: it may need apt. See README.md, "Scaling out".

const { spawnSync } = require('node:child_process');
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');

const ROOT = path.resolve(__dirname, '..', '..');
const PGBOUNCER_BIN = process.env.PGBOUNCER_BIN || '/usr/sbin/pgbouncer';

/** The suites that fire parallel requests at one resource, or run several instances on one database. */
const CONCURRENCY_SUITES = [
  'apps/api-e2e/src/scheduling/booking-deadlocks.e2e-spec.ts',
  'apps/api-e2e/src/scheduling/booking-status.e2e-spec.ts',
  'apps/api-e2e/src/scheduling/availability.e2e-spec.ts',
  'apps/api-e2e/src/scheduling/event-types.e2e-spec.ts',
  'apps/api-e2e/src/events/registrations.e2e-spec.ts',
  'apps/api-e2e/src/events/waitlist.e2e-spec.ts',
  'apps/api-e2e/src/identity/idempotency.e2e-spec.ts',
  'apps/api-e2e/src/identity/login-locks.e2e-spec.ts',
  'apps/api-e2e/src/identity/login-client-limit.e2e-spec.ts',
  'apps/api-e2e/src/identity/public-surface.e2e-spec.ts',
  'libs/identity/src/lib/infrastructure/public-rate-limit.repository.spec.ts',
  'apps/api-e2e/src/identity/admin-sessions.e2e-spec.ts',
  'apps/api-e2e/src/identity/cli.e2e-spec.ts',
  'apps/api-e2e/src/shared/http-semantics.e2e-spec.ts',
  'apps/api-e2e/src/shared/many-instances.e2e-spec.ts',
  'apps/api-e2e/src/blog/posts.e2e-spec.ts',
  'apps/api-e2e/src/blog/post-terms.e2e-spec.ts',
  'apps/api-e2e/src/blog/scheduled-publishing.e2e-spec.ts',
  'apps/api-e2e/src/robustness/bad-input.e2e-spec.ts',
  'apps/api-e2e/src/webhooks/webhooks.e2e-spec.ts',
  'apps/api-e2e/src/webhooks/webhook-processes.e2e-spec.ts',
  'apps/api-e2e/src/calendar-sync/calendar-sync.e2e-spec.ts',
];

function parseArgs(argv) {
  const split = argv.indexOf('--');
  const own = split === -1 ? argv : argv.slice(0, split);
  const jestArgs = split === -1 ? [] : argv.slice(split + 1);
  const args = {};
  for (const arg of own) {
    const m = /^--([a-z-]+)(?:=(.*))?$/.exec(arg);
    if (!m) throw new Error(`unknown argument ${arg} (Jest's arguments go after a second --)`);
    args[m[1]] = m[2] === undefined ? true : m[2];
  }
  for (const known of Object.keys(args)) {
    if (!['repeat', 'rounds', 'suites', 'require'].includes(known)) throw new Error(`unknown option --${known}`);
  }
  return {
    repeat: Math.max(1, Number(args.repeat ?? 1)),
    rounds: Math.max(1, Number(args.rounds ?? 50)),
    suites: typeof args.suites === 'string' ? args.suites.split(',').filter(Boolean) : CONCURRENCY_SUITES,
    require: args.require === true,
    jestArgs,
  };
}

function runs(command, args) {
  return spawnSync(command, args, { stdio: 'ignore' }).status === 0;
}

/** True once pgbouncer runs; tries Debian's package when it does not. */
function ensurePgBouncer() {
  if (runs(PGBOUNCER_BIN, ['--version'])) return { ok: true };
  if (!runs('apt-get', ['--version'])) return { ok: false, why: `${PGBOUNCER_BIN} is missing and there is no apt-get to install it` };
  const asRoot = process.getuid && process.getuid() === 0;
  const apt = (...args) => {
    const [command, full] = asRoot ? ['apt-get', args] : ['sudo', ['-n', 'apt-get', ...args]];
    process.stdout.write(`$ ${asRoot ? '' : 'sudo -n '}apt-get ${args.join(' ')}\n`);
    return spawnSync(command, full, { stdio: 'inherit', env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' } }).status === 0;
  };
  // The package lists may be stale or absent: update them once if the first attempt fails.
  const installed = apt('install', '-y', 'pgbouncer') || (apt('update') && apt('install', '-y', 'pgbouncer'));
  if (installed && runs(PGBOUNCER_BIN, ['--version'])) return { ok: true };
  return { ok: false, why: `${PGBOUNCER_BIN} is missing and apt-get could not install Debian's pgbouncer package${asRoot ? '' : ' (not root, and sudo -n was refused)'}` };
}

function runJest(options, outputFile) {
  const args = [require.resolve('jest/bin/jest'), '--ci', '--json', `--outputFile=${outputFile}`, ...options.suites, ...options.jestArgs];
  const env = { ...process.env, CI: 'true', ALMANAC_TEST_PGBOUNCER: '1', ALMANAC_OVERLAP_ROUNDS: String(options.rounds), NX_NO_CLOUD: 'true', NX_DAEMON: 'false' };
  const started = Date.now();
  const result = spawnSync(process.execPath, args, { cwd: ROOT, stdio: 'inherit', env });
  const seconds = (Date.now() - started) / 1000;
  let report;
  try {
    report = JSON.parse(fs.readFileSync(outputFile, 'utf8'));
  } catch {
    report = undefined;
  }
  const failedTests = [];
  for (const suite of report?.testResults ?? []) {
    for (const test of suite.assertionResults ?? []) {
      if (test.status === 'failed') failedTests.push(`${path.relative(ROOT, suite.name)} › ${test.fullName}`);
    }
    if (suite.status === 'failed' && (suite.assertionResults ?? []).every((t) => t.status !== 'failed')) {
      failedTests.push(`${path.relative(ROOT, suite.name)} (the suite itself failed: ${String(suite.message).split('\n').find(Boolean) ?? ''})`);
    }
  }
  return {
    ok: result.status === 0,
    seconds,
    passed: report?.numPassedTests ?? 0,
    failed: report?.numFailedTests ?? 0,
    failedTests,
  };
}

function main() {
  const options = parseArgs(process.argv.slice(2));
  const found = ensurePgBouncer();
  if (!found.ok) {
    process.stdout.write(`\nSKIPPED: ${found.why}.\nInstall PgBouncer (Debian: apt-get install pgbouncer) or set PGBOUNCER_BIN, then run again.\n`);
    process.exit(options.require ? 1 : 0);
  }
  const version = spawnSync(PGBOUNCER_BIN, ['--version'], { encoding: 'utf8' }).stdout.split('\n')[0];
  process.stdout.write(`${version}; ${options.suites.length} suite(s), ${options.repeat} run(s), ${options.rounds} rounds of 20 parallel creates per run\n`);

  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'almanac-pgbouncer-runs-'));
  const results = [];
  try {
    for (let run = 1; run <= options.repeat; run++) {
      process.stdout.write(`\n=== run ${run}/${options.repeat} through PgBouncer (transaction pooling)\n`);
      const result = runJest(options, path.join(dir, `run-${run}.json`));
      results.push(result);
      process.stdout.write(`=== run ${run}: ${result.ok ? 'passed' : 'FAILED'}, ${result.passed} tests passed, ${result.failed} failed, ${result.seconds.toFixed(0)} s\n`);
    }
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }

  const failedRuns = results.filter((r) => !r.ok);
  process.stdout.write(`\nThrough PgBouncer: ${results.length} run(s), ${failedRuns.length} failed; tests ${results.reduce((n, r) => n + r.passed, 0)} passed, ${results.reduce((n, r) => n + r.failed, 0)} failed\n`);
  for (const [i, r] of results.entries()) for (const name of r.failedTests) process.stdout.write(`  run ${i + 1}: ${name}\n`);
  process.exit(failedRuns.length === 0 ? 0 : 1);
}

main();
