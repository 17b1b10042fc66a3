'use strict';
// npm run bench [-- --quick] [-- options]: the API measured against its floor, in the same run.
//
// 1. builds the API (npm run build), starts an embedded PostgreSQL in a temporary directory, runs
//    the app's migrations and seeds the data set (seed.js);
// 2. starts the BUILT API (dist/apps/api/src/main.js) and the floor server (floor/server.js) as child
//    processes against that database, and checks that both answer every benchmarked request alike;
// 3. loads each route with autocannon over loopback, in turns API, floor, API, floor, and prints the
//    table; writes bench/results/latest.md and latest.svg (the previous ones go to history/).
// Options: --quick, --duration=S, --warmup=S, --turns=N, --connections=N, --only=id,id,
//          --log-level=L, --cpu-prof, --cpu-prof-floor, --explain, --explain-only, --keep (keep the data directory),
//          --no-build, --serve, --allow-mismatch, --search-connections=N, --fail-on-errors, --metrics,
//          --scale=N (a growth run: growth.js) (see tools/bench/README.md).

const { spawn, spawnSync, execSync } = require('node:child_process');
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');

const ROOT = path.resolve(__dirname, '..', '..');
const RESULTS = path.join(ROOT, 'bench', 'results');

function parseArgs(argv) {
  const args = {};
  for (const arg of argv) {
    const m = /^--([a-z-]+)(?:=(.*))?$/.exec(arg);
    if (!m) throw new Error(`unknown argument ${arg}`);
    args[m[1]] = m[2] === undefined ? true : m[2];
  }
  const quick = args.quick === true;
  // --scale=N: a growth run (growth.js): N times every table, the API alone, and its plans.
  const growth = args.scale !== undefined;
  return {
    quick,
    growth,
    scale: growth ? Number(args.scale) : 1,
    duration: Number(args.duration ?? (quick ? 2 : 10)),
    warmup: Number(args.warmup ?? (quick ? 0.5 : 3)),
    turns: Number(args.turns ?? (quick ? 2 : 4)),
    connections: Number(args.connections ?? 50),
    // The search latency phase: one client, the searches in turn.
    searchConnections: Number(args['search-connections'] ?? 1),
    only: typeof args.only === 'string' ? args.only.split(',') : null,
    // The API's production default (AppConfig): every request is logged as one JSON line.
    logLevel: typeof args['log-level'] === 'string' ? args['log-level'] : 'info',
    cpuProf: args['cpu-prof'] === true,
    // NODE_OPTIONS for both servers (e.g. --max-semi-space-size=32), to try runtime settings.
    nodeOptions: typeof args['node-options'] === 'string' ? args['node-options'] : '',
    cpuProfFloor: args['cpu-prof-floor'] === true,
    keep: args.keep === true,
    build: args['no-build'] !== true,
    serve: args.serve === true,
    allowMismatch: args['allow-mismatch'] === true,
    // The smoke test (npm test): any non-2xx answer or socket error on either server fails the run.
    failOnErrors: args['fail-on-errors'] === true,
    explain: args.explain === true || args['explain-only'] === true || growth,
    explainOnly: args['explain-only'] === true,
    // The API runs with METRICS_TOKEN (every request counted and timed), the floor without: compare the
    // ratio with a run without it to price the metrics.
    metrics: args.metrics === true,
  };
}

const log = (text) => process.stdout.write(`${text}\n`);
const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

function machine() {
  const cpus = os.cpus();
  let commit = 'unknown';
  try {
    commit = execSync('git rev-parse --short HEAD', { cwd: ROOT }).toString().trim();
    const dirty = execSync('git status --porcelain -- libs apps tools', { cwd: ROOT }).toString().trim();
    if (dirty) commit += ' (+ uncommitted changes in libs/apps/tools)';
  } catch {
    // not a git checkout
  }
  return {
    cpu: `${cpus.length} × ${cpus[0]?.model ?? 'unknown CPU'}`,
    memory: `${Math.round(os.totalmem() / 2 ** 30)} GiB`,
    node: process.version,
    commit,
  };
}

/** Resident set of a process in bytes (Linux), or null once it is gone. */
function rssOf(pid) {
  try {
    const status = fs.readFileSync(`/proc/${pid}/status`, 'utf8');
    const m = /VmRSS:\s+(\d+) kB/.exec(status);
    return m ? Number(m[1]) * 1024 : null;
  } catch {
    return null;
  }
}

const CLOCK_TICKS = (() => {
  try {
    return Number(execSync('getconf CLK_TCK', { encoding: 'utf8' }).trim()) || 100;
  } catch {
    return 100;
  }
})();

/**
 * The CPU seconds (user + system) a process has used so far, from /proc/<pid>/stat; null elsewhere.
 * CPU per request holds up on a shared machine far better than requests per second do.
 */
function cpuSecondsOf(pid) {
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return (Number(fields[11]) + Number(fields[12])) / CLOCK_TICKS;
  } catch {
    return null;
  }
}

class RssSampler {
  constructor(pid) {
    this.pid = pid;
    this.peak = 0;
    this.windowPeak = 0;
    this.timer = setInterval(() => this.sample(), 1000);
    this.timer.unref();
    this.sample();
  }
  sample() {
    const rss = rssOf(this.pid);
    if (rss === null) return;
    this.peak = Math.max(this.peak, rss);
    this.windowPeak = Math.max(this.windowPeak, rss);
  }
  /** The peak since the last call. */
  takeWindowPeak() {
    this.sample();
    const peak = this.windowPeak;
    this.windowPeak = 0;
    return peak;
  }
  stop() {
    clearInterval(this.timer);
  }
}

function startProcess(name, args, env, logFile) {
  const out = fs.openSync(logFile, 'a');
  const child = spawn(process.execPath, args, { cwd: ROOT, env, stdio: ['ignore', out, out] });
  fs.closeSync(out);
  child.exitedEarly = new Promise((resolve) =>
    child.once('exit', (code, signal) => resolve({ code, signal })),
  );
  child.label = name;
  child.logFile = logFile;
  return child;
}

function tail(file, lines = 30) {
  try {
    return fs.readFileSync(file, 'utf8').split('\n').slice(-lines).join('\n');
  } catch {
    return '';
  }
}

async function waitReady(child, url, timeoutMs = 90_000) {
  const deadline = Date.now() + timeoutMs;
  let exited = null;
  child.exitedEarly.then((result) => (exited = result));
  while (Date.now() < deadline) {
    if (exited)
      throw new Error(
        `${child.label} exited (${JSON.stringify(exited)}) before it was ready:\n${tail(child.logFile)}`,
      );
    try {
      const res = await fetch(`${url}/health/ready`);
      if (res.ok) return;
    } catch {
      // not listening yet
    }
    await sleep(200);
  }
  throw new Error(`${child.label} was not ready within ${timeoutMs / 1000} s:\n${tail(child.logFile)}`);
}

async function stopProcess(child) {
  if (child.exitCode !== null || child.signalCode !== null) return;
  child.kill('SIGTERM');
  const timer = setTimeout(() => child.kill('SIGKILL'), 20_000);
  await child.exitedEarly;
  clearTimeout(timer);
}

// --- parity: both servers must answer every benchmarked request alike --------------------------

const VOLATILE_HEADERS = new Set([
  'date',
  'connection',
  'keep-alive',
  'content-length',
  'x-request-id',
  'ratelimit-remaining',
  'ratelimit-reset',
  // The current draft's field: the same remaining count and reset.
  'ratelimit',
]);

function shape(value) {
  if (value === null) return 'null';
  if (Array.isArray(value)) return value.length === 0 ? [] : [shape(value[0])];
  if (typeof value === 'object')
    return Object.fromEntries(Object.keys(value).map((key) => [key, shape(value[key])]));
  return typeof value;
}

/** Differences between two shapes; a null on one side matches any type on the other. */
function shapeDiff(a, b, where = 'body', out = []) {
  if (a === 'null' || b === 'null') return out;
  if (Array.isArray(a) || Array.isArray(b)) {
    if (!Array.isArray(a) || !Array.isArray(b)) out.push(`${where}: array on one side only`);
    else if (a.length && b.length) shapeDiff(a[0], b[0], `${where}[0]`, out);
    return out;
  }
  if (typeof a === 'object' && typeof b === 'object') {
    // Free-form objects (booking metadata) differ from row to row.
    if (where.endsWith('.metadata')) return out;
    for (const key of new Set([...Object.keys(a), ...Object.keys(b)])) {
      if (!(key in a)) out.push(`${where}.${key}: only the floor has it`);
      else if (!(key in b)) out.push(`${where}.${key}: only the API has it`);
      else shapeDiff(a[key], b[key], `${where}.${key}`, out);
    }
    return out;
  }
  if (a !== b) out.push(`${where}: ${a} (API) vs ${b} (floor)`);
  return out;
}

/** Successive requests of one run of a scenario, as autocannon would send them. */
function sampler(scenario) {
  const [template] = scenario.requests();
  return () => {
    const built = template.setupRequest ? template.setupRequest({ ...template }) : template;
    return { method: built.method, path: built.path, headers: built.headers, body: built.body };
  };
}

async function send(base, request) {
  const res = await fetch(base + request.path, {
    method: request.method,
    headers: request.headers,
    body: request.body,
  });
  const text = await res.text();
  let body;
  try {
    body = JSON.parse(text);
  } catch {
    body = text;
  }
  const headers = {};
  res.headers.forEach((value, name) => (headers[name] = value));
  return { status: res.status, headers, body };
}

/** Header names both must send, and their values but for `skipValues`. */
function headerDiff(apiHeaders, floorHeaders, skipValues) {
  const issues = [];
  const names = (h) =>
    Object.keys(h)
      .filter((n) => !VOLATILE_HEADERS.has(n))
      .sort();
  const apiNames = names(apiHeaders);
  const floorNames = names(floorHeaders);
  for (const n of apiNames) if (!floorNames.includes(n)) issues.push(`header ${n}: only the API sends it`);
  for (const n of floorNames) if (!apiNames.includes(n)) issues.push(`header ${n}: only the floor sends it`);
  for (const n of apiNames) {
    if (floorNames.includes(n) && !skipValues.has(n) && apiHeaders[n] !== floorHeaders[n]) {
      issues.push(`header ${n}: "${apiHeaders[n]}" (API) vs "${floorHeaders[n]}" (floor)`);
    }
  }
  return issues;
}

async function parityCheck(scenarios, apiUrl, floorUrl) {
  const problems = [];
  for (const scenario of scenarios) {
    if (scenario.prepare) await scenario.prepare();
    // Reads: the very same request to both, and the very same body back. Writes: a fresh request each.
    const next = sampler(scenario);
    const first = next();
    const second = scenario.kind === 'read' ? first : next();
    const api = await send(apiUrl, first);
    const floor = await send(floorUrl, second);
    const issues = [];
    if (api.status !== floor.status) issues.push(`status ${api.status} (API) vs ${floor.status} (floor)`);
    if (api.status >= 300)
      issues.push(`API answered ${api.status}: ${JSON.stringify(api.body).slice(0, 300)}`);
    if (floor.status >= 300)
      issues.push(`floor answered ${floor.status}: ${JSON.stringify(floor.body).slice(0, 300)}`);
    // A write's Location and ETag name a different record on each side; a read's must be equal.
    const ownRecord = new Set(scenario.kind === 'read' ? ['location'] : ['location', 'etag']);
    issues.push(...headerDiff(api.headers, floor.headers, ownRecord));
    if (scenario.kind === 'read') {
      if (JSON.stringify(api.body) !== JSON.stringify(floor.body)) {
        issues.push('bodies differ', ...shapeDiff(shape(api.body), shape(floor.body)));
        if (issues.length === 1)
          issues.push(
            `API: ${JSON.stringify(api.body).slice(0, 400)}`,
            `floor: ${JSON.stringify(floor.body).slice(0, 400)}`,
          );
      }
    } else {
      issues.push(...shapeDiff(shape(api.body), shape(floor.body)));
    }
    if (issues.length > 0) problems.push({ scenario: scenario.label, issues });
  }
  return problems;
}

/**
 * The refusals: the same status and headers, and the same problem body but for its request id;
 * where the input was refused (`validation_failed` with `errors`), the same fields are named (the
 * API's messages are class-validator's, the floor's Ajv's).
 */
async function problemParity(requests, apiUrl, floorUrl) {
  const problems = [];
  const comparable = (body) => {
    if (!body || typeof body !== 'object') return body;
    const { request_id: _id, errors, ...rest } = body;
    if (!errors) return rest;
    if (body.code !== 'validation_failed') return { ...rest, errors };
    return { ...rest, fields: [...new Set(errors.map((e) => e.field))].sort() };
  };
  for (const request of requests) {
    if (request.setup) await send(apiUrl, request.setup);
    const api = await send(apiUrl, request);
    const floor = await send(floorUrl, request);
    const issues = [];
    if (api.status < 400) issues.push(`the API answered ${api.status}: not a refusal`);
    if (api.status !== floor.status) issues.push(`status ${api.status} (API) vs ${floor.status} (floor)`);
    issues.push(...headerDiff(api.headers, floor.headers, new Set()));
    const [a, b] = [JSON.stringify(comparable(api.body)), JSON.stringify(comparable(floor.body))];
    if (a !== b) issues.push(`API: ${a.slice(0, 500)}`, `floor: ${b.slice(0, 500)}`);
    if (issues.length > 0) problems.push({ scenario: `${request.label}: ${request.method} ${request.path.slice(0, 80)}`, issues });
  }
  return problems;
}

// --- load ------------------------------------------------------------------------------------------

function percentile(sorted, p) {
  if (sorted.length === 0) return NaN;
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))];
}

function loadOnce(autocannon, url, requests, { connections, duration }) {
  return new Promise((resolve, reject) => {
    const latencies = [];
    const statuses = {};
    const samples = [];
    // A few answers that were not 2xx, to say why in the log.
    const watched = requests.map((request) => ({
      ...request,
      onResponse: (status, body) => {
        if ((status < 200 || status >= 300) && samples.length < 3)
          samples.push(`${status} ${String(body).slice(0, 200)}`);
      },
    }));
    const started = process.hrtime.bigint();
    const instance = autocannon(
      { url, connections, duration, requests: watched, timeout: 10 },
      (error, result) => {
        if (error) return reject(error);
        const seconds = Number(process.hrtime.bigint() - started) / 1e9;
        resolve({ result, latencies, statuses, seconds, samples });
      },
    );
    instance.on('response', (_client, statusCode, _bytes, ms) => {
      latencies.push(ms);
      statuses[statusCode] = (statuses[statusCode] ?? 0) + 1;
    });
  });
}

function summarizeRun(run) {
  const ok = Object.entries(run.statuses).reduce(
    (sum, [code, n]) => sum + (code >= 200 && code < 300 ? n : 0),
    0,
  );
  const all = Object.values(run.statuses).reduce((sum, n) => sum + n, 0);
  const seconds = run.result.duration || run.seconds;
  return {
    rps: ok / seconds,
    ok,
    non2xx: all - ok,
    errors: run.result.errors + run.result.timeouts,
    statuses: run.statuses,
    seconds,
    latencies: run.latencies,
    samples: run.samples,
  };
}

function aggregate(runs) {
  const latencies = runs.flatMap((r) => r.latencies).sort((a, b) => a - b);
  return {
    rps: runs.reduce((sum, r) => sum + r.rps, 0) / runs.length,
    runs: runs.map((r) => r.rps),
    p50: percentile(latencies, 50),
    p95: percentile(latencies, 95),
    p99: percentile(latencies, 99),
    max: latencies[latencies.length - 1],
    non2xx: runs.reduce((sum, r) => sum + r.non2xx, 0),
    errors: runs.reduce((sum, r) => sum + r.errors, 0),
    requests: runs.reduce((sum, r) => sum + r.ok + r.non2xx, 0),
    statuses: runs.reduce((acc, r) => {
      for (const [code, n] of Object.entries(r.statuses)) acc[code] = (acc[code] ?? 0) + n;
      return acc;
    }, {}),
  };
}

/**
 * Waits until the requests still in flight when autocannon stopped have finished (their statements
 * are done), so that the next run's preparation (the PATCH pool's reset) is not undone by them.
 */
async function settle(client) {
  await sleep(200);
  let quiet = 0;
  const started = Date.now();
  for (let i = 0; i < 1200 && quiet < 2; i++) {
    const { rows } = await client.query(
      "SELECT count(*)::int AS busy FROM pg_stat_activity WHERE application_name IN ('almanac', 'almanac-floor') AND state <> 'idle'",
    );
    quiet = rows[0].busy === 0 ? quiet + 1 : 0;
    await sleep(50);
  }
  const waited = (Date.now() - started) / 1000;
  if (waited > 2) log(`      (waited ${waited.toFixed(1)} s for requests still running after the run)`);
}

/**
 * How many posts of the main organization each benchmarked search matches (the list's meta.total),
 * asked of the API before anything else searched: each search's first time, its statements' live cost.
 */
async function countSearchMatches(apiUrl, fixtures) {
  const { SEARCHES } = require('./scenarios');
  const counts = {};
  const coldMs = {};
  for (const search of SEARCHES) {
    const started = process.hrtime.bigint();
    const res = await fetch(`${apiUrl}/api/v1/posts?search=${encodeURIComponent(search)}`, {
      headers: { authorization: `Bearer ${fixtures.apiKey}` },
    });
    const body = await res.json();
    coldMs[search] = Number(process.hrtime.bigint() - started) / 1e6;
    if (res.status !== 200) throw new Error(`search ${search}: ${res.status} ${JSON.stringify(body)}`);
    counts[search] = body.meta.total;
  }
  return { counts, coldMs };
}

/** The plans of every route's statements, written to `explain.md` (or `file`); returns them too. */
async function writeExplain(scenarios, fixtures, context, file = path.join(RESULTS, context.options.quick ? 'quick' : '', 'explain.md')) {
  const { explainScenarios, explainingUrl } = require('./explain');
  const { Client } = require('pg');
  const { db, env, serverLog, dataDir, freePort } = context;
  const port = await freePort();
  const url = explainingUrl(db.url);
  const api = startProcess(
    'explaining API',
    ['-r', './tools/register-paths.js', 'dist/apps/api/src/main.js'],
    { ...env, PORT: String(port), DATABASE_URL: url, WEBHOOK_DISPATCHER: 'false' },
    path.join(dataDir, 'explain-api.log'),
  );
  const marker = new Client({ connectionString: url });
  try {
    const apiUrl = `http://127.0.0.1:${port}`;
    await waitReady(api, apiUrl);
    await marker.connect();
    const explained = await explainScenarios({ scenarios, apiUrl, serverLog, marker, send, fixtures });
    fs.mkdirSync(path.dirname(file), { recursive: true });
    fs.writeFileSync(file, explained.text);
    log(`wrote ${path.relative(ROOT, file)}`);
    return explained;
  } finally {
    await marker.end().catch(() => undefined);
    await stopProcess(api);
  }
}

// --- main ------------------------------------------------------------------------------------------

async function main() {
  const options = parseArgs(process.argv.slice(2));
  const started = Date.now();
  const loadBefore = os.loadavg();
  log(
    `almanac bench (${options.quick ? 'quick' : 'full'}): load average ${loadBefore.map((n) => n.toFixed(2)).join(' ')}, ${os.cpus().length} CPUs`,
  );

  if (options.build) {
    log('building the API (npm run build)…');
    const build = spawnSync('npm', ['run', 'build', '--silent'], { cwd: ROOT, stdio: 'inherit' });
    if (build.status !== 0) throw new Error('npm run build failed');
    log('building the floor (tools/bench/floor)…');
    const floorBuild = spawnSync(process.execPath, [require.resolve('typescript/bin/tsc'), '-p', 'tools/bench/floor/tsconfig.json'], {
      cwd: ROOT,
      stdio: 'inherit',
    });
    if (floorBuild.status !== 0) throw new Error('building the floor failed');
  }
  require('../register-paths');
  const {
    startEmbeddedPostgres,
    freePort,
  } = require('../../dist/libs/shared/src/database/embedded-postgres');
  const { newId, zonedTimeToUtc } = require('../../dist/libs/shared/src/domain');
  const { generateApiKey } = require('../../dist/libs/identity/src/lib/domain/api-key-secret');
  const { Client } = require('pg');
  const autocannon = require('autocannon');
  const { seed } = require('./seed');
  const { buildScenarios } = require('./scenarios');
  const report = require('./report');

  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'almanac-bench-'));
  const cleanups = [];
  const cleanup = async () => {
    while (cleanups.length) {
      try {
        await cleanups.pop()();
      } catch (error) {
        log(`cleanup: ${error.message}`);
      }
    }
  };
  process.once('SIGINT', () => cleanup().finally(() => process.exit(130)));
  cleanups.push(async () => {
    if (!options.keep) fs.rmSync(dataDir, { recursive: true, force: true });
    else log(`kept ${dataDir}`);
  });

  try {
    log(`starting PostgreSQL in ${dataDir}…`);
    // With --explain, the server's log is kept: auto_explain writes the plans there.
    let serverLogText = '';
    const onLog = options.explain ? (message) => (serverLogText += message) : undefined;
    const db = await startEmbeddedPostgres({ dataDir, database: 'almanac_bench', persistent: true, onLog });
    const explainContext = { options, db, env: null, serverLog: () => serverLogText, dataDir, freePort };
    cleanups.push(() => db.stop());

    log('running migrations…');
    {
      require('reflect-metadata');
      const { ALL_MIGRATIONS } = require('../../dist/apps/api/src/migrations');
      const { migrateDatabase } = require('../../dist/libs/shared/src/database/migrations');
      await migrateDatabase(db.url, ALL_MIGRATIONS);
    }

    log(`seeding the ${options.quick ? 'quick' : 'full'} data set${options.scale !== 1 ? ` at ${options.scale}×` : ''}…`);
    const seedStarted = Date.now();
    const client = new Client({ connectionString: db.url });
    await client.connect();
    cleanups.push(() => client.end());
    const apiKey = generateApiKey();
    const seeded = await seed(client, {
      mode: options.quick ? 'quick' : 'full',
      scale: options.scale,
      // A second connection for the posts (loaded two chunks at a time).
      connect: async () => {
        const second = new Client({ connectionString: db.url });
        await second.connect();
        await second.query('SET synchronous_commit = off');
        return second;
      },
      now: new Date(),
      newId,
      zonedTimeToUtc,
      apiKey,
      log,
    });
    const fixtures = { ...seeded, apiKey };
    const seedSeconds = (Date.now() - seedStarted) / 1000;
    log(`  seeded in ${seedSeconds.toFixed(0)} s`);
    log(
      `  PATCH pool: ${fixtures.patchPool.length} PENDING bookings (${2 * fixtures.patchPool.length} status moves per run)`,
    );
    const pgVersion = (await client.query('SHOW server_version')).rows[0].server_version;

    const [apiPort, floorPort] = [await freePort(), await freePort()];
    const env = {
      ...process.env,
      NODE_ENV: 'production',
      DATABASE_URL: db.url,
      LOG_LEVEL: options.logLevel,
      // Far above what the load sends: the limiter still counts every request and sets its headers.
      RATE_LIMIT_PER_MINUTE: '100000000',
      // The load generator is one client on loopback holding --connections connections at once.
      MAX_CONNECTIONS_PER_CLIENT: '0',
    };
    if (options.nodeOptions) env.NODE_OPTIONS = options.nodeOptions;
    explainContext.env = env;
    const apiArgs = ['-r', './tools/register-paths.js'];
    if (options.cpuProf) apiArgs.push('--cpu-prof', `--cpu-prof-dir=${path.join(RESULTS, 'profiles')}`);
    apiArgs.push('dist/apps/api/src/main.js');
    const api = startProcess(
      'API',
      apiArgs,
      { ...env, PORT: String(apiPort), ...(options.metrics ? { METRICS_TOKEN: 'bench-metrics-token' } : {}) },
      path.join(dataDir, 'api.log'),
    );
    cleanups.push(() => stopProcess(api));
    const floorArgs = ['-r', './tools/register-paths.js', 'dist/tools/bench/floor/server.js'];
    if (options.cpuProfFloor) {
      floorArgs.unshift('--cpu-prof', `--cpu-prof-dir=${path.join(RESULTS, 'profiles', 'floor')}`);
    }
    const floor = startProcess(
      'floor',
      floorArgs,
      { ...env, PORT: String(floorPort) },
      path.join(dataDir, 'floor.log'),
    );
    cleanups.push(() => stopProcess(floor));
    const apiUrl = `http://127.0.0.1:${apiPort}`;
    const floorUrl = `http://127.0.0.1:${floorPort}`;
    const spawned = Date.now();
    const readyAfter = {};
    await Promise.all(
      [
        [api, apiUrl, 'api'],
        [floor, floorUrl, 'floor'],
      ].map(([child, url, name]) =>
        waitReady(child, url).then(() => (readyAfter[name] = (Date.now() - spawned) / 1000)),
      ),
    );
    log(
      `ready after ${readyAfter.api.toFixed(1)} s (API) and ${readyAfter.floor.toFixed(1)} s (floor); logs in ${dataDir}`,
    );
    const apiRss = new RssSampler(api.pid);
    const floorRss = new RssSampler(floor.pid);
    cleanups.push(async () => {
      apiRss.stop();
      floorRss.stop();
    });
    log(`API on ${apiUrl} (pid ${api.pid}), floor on ${floorUrl} (pid ${floor.pid})`);
    const { counts: searchMatches, coldMs: searchColdMs } = await countSearchMatches(apiUrl, fixtures);

    let scenarios = buildScenarios(fixtures, client);
    if (options.only) scenarios = scenarios.filter((s) => options.only.includes(s.id));

    if (options.serve) {
      log(`serving until Ctrl-C. DATABASE_URL=${db.url}\nAuthorization: Bearer ${apiKey}`);
      await new Promise(() => undefined);
    }

    if (options.explainOnly) {
      await writeExplain(scenarios, fixtures, explainContext);
      return;
    }

    if (options.growth) {
      const growth = require('./growth');
      const resultsDir = options.quick ? path.join(RESULTS, 'quick') : RESULTS;
      const run = async (url, requests, load) => {
        const result = summarizeRun(await loadOnce(autocannon, url, requests, load));
        await settle(client);
        return result;
      };
      const routes = await growth.measureRoutes({ options, scenarios, apiUrl, apiPid: api.pid, client, log, run });
      const cold = await growth.coldSearches({ apiUrl, fixtures, client, send, log });
      const loadAfter = os.loadavg();
      const explained = await writeExplain(
        scenarios,
        fixtures,
        explainContext,
        path.join(resultsDir, 'growth', `explain-${options.scale}.md`),
      );
      const written = growth.writeGrowth(
        {
          scale: options.scale,
          date: new Date().toISOString(),
          command: `npm run bench -- ${process.argv.slice(2).join(' ')}`,
          options,
          machine: { ...machine(), postgres: pgVersion, loadBefore, loadAfter },
          counts: fixtures.counts,
          seedSeconds,
          searchMatches,
          searchColdMs,
          routes,
          cold,
          explained: { searches: explained.searches, routes: explained.routes },
          seconds: (Date.now() - started) / 1000,
        },
        resultsDir,
      );
      log(`wrote ${written.map((file) => path.relative(ROOT, file)).join(', ')}`);
      return;
    }

    log('checking that the API and the floor answer alike…');
    const { problemRequests } = require('./scenarios');
    const mismatches = [
      ...(await parityCheck(scenarios, apiUrl, floorUrl)),
      ...(await problemParity(await problemRequests(fixtures, client), apiUrl, floorUrl)),
    ];
    for (const m of mismatches) log(`  ✗ ${m.scenario}\n      ${m.issues.join('\n      ')}`);
    if (mismatches.length > 0 && !options.allowMismatch) {
      throw new Error(
        'the floor does not answer like the API (see above); fix the floor, or pass --allow-mismatch',
      );
    }
    if (mismatches.length === 0) log('  same status, headers and JSON on every route, and the same problems for every refusal');

    const results = [];
    const servers = { api: { url: apiUrl, rss: apiRss }, floor: { url: floorUrl, rss: floorRss } };
    for (const scenario of scenarios) {
      for (const name of ['api', 'floor']) {
        if (scenario.prepare) await scenario.prepare();
        await loadOnce(autocannon, servers[name].url, scenario.requests(), {
          connections: options.connections,
          duration: options.warmup,
        });
        await settle(client);
      }
      const runs = { api: [], floor: [] };
      const rssPeak = { api: 0, floor: 0 };
      const cpu = { api: { seconds: 0, requests: 0 }, floor: { seconds: 0, requests: 0 } };
      for (let turn = 0; turn < options.turns; turn++) {
        const name = turn % 2 === 0 ? 'api' : 'floor';
        if (scenario.prepare) await scenario.prepare();
        servers[name].rss.takeWindowPeak();
        const cpuBefore = cpuSecondsOf(servers[name].rss.pid);
        const run = summarizeRun(
          await loadOnce(autocannon, servers[name].url, scenario.requests(), {
            connections: options.connections,
            duration: options.duration,
          }),
        );
        const cpuAfter = cpuSecondsOf(servers[name].rss.pid);
        if (cpuBefore !== null && cpuAfter !== null) {
          cpu[name].seconds += cpuAfter - cpuBefore;
          cpu[name].requests += run.ok + run.non2xx;
        }
        rssPeak[name] = Math.max(rssPeak[name], servers[name].rss.takeWindowPeak());
        await settle(client);
        runs[name].push(run);
        log(
          `  ${scenario.label.padEnd(52)} ${name.padEnd(5)} ${run.rps.toFixed(0).padStart(6)} req/s  non-2xx ${run.non2xx}  errors ${run.errors}`,
        );
        for (const sample of run.samples) log(`      e.g. ${sample}`);
      }
      const perRequest = (name) => (cpu[name].requests > 0 ? (cpu[name].seconds * 1e6) / cpu[name].requests : NaN);
      log(`  ${scenario.label.padEnd(52)} CPU per request: API ${perRequest('api').toFixed(0)} µs, floor ${perRequest('floor').toFixed(0)} µs`);
      const api = aggregate(runs.api);
      const floorResult = aggregate(runs.floor.length ? runs.floor : runs.api);
      results.push({ scenario, api, floor: floorResult, ratio: api.rps / floorResult.rps, rssPeak });
    }

    // Search latency as one client sees it: one connection, the searches in turn, no other load.
    // (At 50 connections latency is 50 ÷ throughput whatever a search costs.)
    let searchLatency = null;
    const searchScenario = scenarios.find((scenario) => scenario.id === 'posts-search');
    if (searchScenario) {
      searchLatency = { connections: options.searchConnections };
      for (const name of ['api', 'floor']) {
        const run = summarizeRun(
          await loadOnce(autocannon, servers[name].url, searchScenario.requests(), {
            connections: options.searchConnections,
            duration: options.duration,
          }),
        );
        await settle(client);
        searchLatency[name] = aggregate([run]);
        log(
          `  search latency, ${options.searchConnections} connection(s)            ${name.padEnd(5)} p50 ${searchLatency[name].p50.toFixed(1)} ms  p95 ${searchLatency[name].p95.toFixed(1)} ms  p99 ${searchLatency[name].p99.toFixed(1)} ms  non-2xx ${run.non2xx}`,
        );
      }
    }

    // Slots as one client sees them (the targets: a 62-day query < 20 ms p95 at one client, < 30 ms
    // with explain=true).
    async function oneClientLatency(id, label) {
      const scenario = scenarios.find((s) => s.id === id);
      if (!scenario) return null;
      const latency = { connections: 1 };
      for (const name of ['api', 'floor']) {
        const run = summarizeRun(
          await loadOnce(autocannon, servers[name].url, scenario.requests(), { connections: 1, duration: options.duration }),
        );
        await settle(client);
        latency[name] = aggregate([run]);
        log(
          `  ${label.padEnd(42)} ${name.padEnd(5)} p50 ${latency[name].p50.toFixed(1)} ms  p95 ${latency[name].p95.toFixed(1)} ms  p99 ${latency[name].p99.toFixed(1)} ms  non-2xx ${run.non2xx}`,
        );
      }
      return latency;
    }
    const slotsLatency = await oneClientLatency('slots', 'slots latency, 1 connection');
    const slotsExplainLatency = await oneClientLatency('slots-explain', 'slots explain latency, 1 connection');

    const loadAfter = os.loadavg();
    const summary = {
      options,
      machine: { ...machine(), postgres: pgVersion, loadBefore, loadAfter },
      counts: fixtures.counts,
      searchMatches,
      searchColdMs,
      searchLatency,
      slotsLatency,
      slotsExplainLatency,
      results,
      rss: { apiPeak: apiRss.peak, floorPeak: floorRss.peak },
      mismatches,
      date: new Date(),
      seconds: (Date.now() - started) / 1000,
    };
    log('');
    log(report.table(summary));
    const written = report.write(summary, RESULTS);
    log(
      `\nwrote ${written.map((file) => path.relative(ROOT, file)).join(', ')} (${summary.seconds.toFixed(0)} s in all)`,
    );
    if (options.explain) await writeExplain(scenarios, fixtures, explainContext);
    if (options.failOnErrors) {
      const failures = results.flatMap((r) =>
        ['api', 'floor']
          .filter((name) => r[name].non2xx + r[name].errors > 0)
          .map(
            (name) =>
              `${r.scenario.label} (${name}): ${r[name].non2xx} non-2xx, ${r[name].errors} socket errors`,
          ),
      );
      for (const name of ['api', 'floor']) {
        if (searchLatency && searchLatency[name].non2xx + searchLatency[name].errors > 0)
          failures.push(
            `search latency (${name}): ${searchLatency[name].non2xx} non-2xx, ${searchLatency[name].errors} socket errors`,
          );
      }
      for (const [what, latency] of [['slots latency', slotsLatency], ['slots explain latency', slotsExplainLatency]]) {
        for (const name of ['api', 'floor']) {
          if (latency && latency[name].non2xx + latency[name].errors > 0)
            failures.push(`${what} (${name}): ${latency[name].non2xx} non-2xx, ${latency[name].errors} socket errors`);
        }
      }
      if (failures.length > 0) throw new Error(`requests failed:\n  ${failures.join('\n  ')}`);
      log('smoke test passed: every route answered 2xx on both servers, and both answered alike');
    }
  } finally {
    await cleanup();
  }
}

main().catch((error) => {
  process.stderr.write(`bench failed: ${error.stack ?? error}\n`);
  process.exit(1);
});
