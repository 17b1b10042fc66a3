'use strict';
// npm run bench:search-growth [-- options]: the blog search at a million posts, nothing cached.
//
// 1. starts an embedded PostgreSQL in --data-dir (kept: a second run reuses what the first seeded),
//    runs the app's migrations, and seeds one organization with --posts posts through the bench's
//    own COPY seeding (seed.js; the other tables at their quick sizes);
// 2. starts the BUILT API (dist/apps/api/src/main.js; `npm run build` first) against it, and times the
//    first page of every broad search over HTTP (searches matching at least 10 % of the posts), each
//    one right after a write of the organization's blog, which drops the rankings the instance keeps:
//    every search pays its statements' full cost;
// 3. writes the figures and the plan of each broad search's ranking statement (EXPLAIN ANALYZE) to
//    bench/results/search-growth.md.
// Options: --data-dir=DIR (default: a directory under the system's temporary one), --posts=N (default
//          1000000), --rounds=N (cold searches per term, default 20).

const { spawn, execSync } = require('node:child_process');
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');

const ROOT = path.resolve(__dirname, '..', '..');
const DIST = path.join(ROOT, 'dist');
/** The goal: a broad search's first page, nothing cached, p95 below this. */
const COLD_P95_MS = 100;
/** Searches matching at least this share of the organization's posts count as broad (as growth.js). */
const BROAD_SHARE = 0.1;

function parseArgs(argv) {
  const args = {};
  for (const arg of argv) {
    const m = /^--([a-z-]+)(?:=(.*))?$/.exec(arg);
    if (!m) throw new Error(`unknown argument ${arg}`);
    args[m[1]] = m[2] === undefined ? true : m[2];
  }
  return {
    dataDir: path.resolve(args['data-dir'] ?? path.join(os.tmpdir(), 'almanac-search-growth')),
    posts: Number(args.posts ?? 1_000_000),
    rounds: Number(args.rounds ?? 20),
  };
}

const log = (text) => process.stdout.write(`${text}\n`);

const percentile = (values, p) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))];
};

async function freePort() {
  const net = require('node:net');
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
  });
}

/** Seeds the data set once; its fixtures (the organization and the API key) stay in the data directory. */
async function seedOnce(db, options) {
  const fixturesFile = path.join(options.dataDir, 'search-growth-fixtures.json');
  if (fs.existsSync(fixturesFile)) {
    const fixtures = JSON.parse(fs.readFileSync(fixturesFile, 'utf8'));
    if (fixtures.posts === options.posts) return fixtures;
    throw new Error(`${options.dataDir} holds ${fixtures.posts} posts, not ${options.posts}: pick another --data-dir`);
  }
  const { Client } = require('pg');
  const { seed, SIZES } = require('./seed');
  const { newId, zonedTimeToUtc } = require(path.join(DIST, 'libs/shared/src/domain'));
  const { generateApiKey } = require(path.join(DIST, 'libs/identity/src/lib/domain/api-key-secret'));
  const connect = async () => {
    const client = new Client({ connectionString: db.url });
    await client.connect();
    await client.query('SET synchronous_commit = off');
    return client;
  };
  const client = await connect();
  const apiKey = generateApiKey();
  const started = Date.now();
  // One organization holds every post: the search's worst case. The other tables stay small.
  const seeded = await seed(client, {
    mode: 'quick',
    sizes: { ...SIZES.quick, organizations: 1, posts: options.posts, categories: 100, tags: 1000, usersPerOrg: 10 },
    connect,
    now: new Date(),
    newId,
    zonedTimeToUtc,
    apiKey,
    log,
  });
  await client.end();
  const fixtures = {
    posts: options.posts,
    organizationId: seeded.organizationId,
    apiKey,
    seededAt: new Date().toISOString(),
    seedSeconds: Math.round((Date.now() - started) / 1000),
  };
  fs.writeFileSync(fixturesFile, JSON.stringify(fixtures, null, 2));
  return fixtures;
}

async function main() {
  const options = parseArgs(process.argv.slice(2));
  require(path.join(ROOT, 'tools/register-paths'));
  require('reflect-metadata');
  const { startEmbeddedPostgres } = require(path.join(DIST, 'libs/shared/src/database/embedded-postgres'));
  const { migrateDatabase } = require(path.join(DIST, 'libs/shared/src/database/migrations'));
  const { ALL_MIGRATIONS } = require(path.join(DIST, 'apps/api/src/migrations'));

  log(`PostgreSQL in ${options.dataDir}…`);
  const db = await startEmbeddedPostgres({ dataDir: options.dataDir, database: 'almanac_search', persistent: true });
  let api;
  try {
    await migrateDatabase(db.url, ALL_MIGRATIONS);
    const fixtures = await seedOnce(db, options);
    log(`${fixtures.posts} posts (seeded in ${fixtures.seedSeconds} s on ${fixtures.seededAt})`);
    if (process.argv.includes('--seed-only')) return;
    const { Client } = require('pg');
    const client = new Client({ connectionString: db.url });
    await client.connect();
    await client.query('VACUUM ANALYZE posts');

    const port = await freePort();
    api = spawn(process.execPath, ['-r', './tools/register-paths.js', 'dist/apps/api/src/main.js'], {
      cwd: ROOT,
      env: { ...process.env, NODE_ENV: 'production', DATABASE_URL: db.url, PORT: String(port), LOG_LEVEL: 'warn', RATE_LIMIT_PER_MINUTE: '100000000' },
      stdio: ['ignore', 'inherit', 'inherit'],
    });
    const base = `http://127.0.0.1:${port}`;
    const deadline = Date.now() + 120_000;
    for (;;) {
      try {
        if ((await fetch(`${base}/health/ready`)).ok) break;
      } catch {
        // not listening yet
      }
      if (Date.now() > deadline) throw new Error('the API did not become ready');
      await new Promise((resolve) => setTimeout(resolve, 250));
    }
    const auth = { authorization: `Bearer ${fixtures.apiKey}` };
    const get = async (url) => {
      const started = performance.now();
      const res = await fetch(`${base}${url}`, { headers: auth });
      const body = await res.json();
      if (!res.ok) throw new Error(`${url}: ${res.status} ${JSON.stringify(body)}`);
      return { ms: performance.now() - started, body };
    };
    const draft = (
      await client.query("SELECT id FROM posts WHERE organization_id = $1 AND status = 'draft' ORDER BY id LIMIT 1", [fixtures.organizationId])
    ).rows[0].id;
    // A blog write of the organization: drops every ranking the instance keeps for it.
    let n = 0;
    const write = async () => {
      const res = await fetch(`${base}/api/v1/posts/${draft}`, {
        method: 'PATCH',
        headers: { ...auth, 'content-type': 'application/json' },
        body: JSON.stringify({ excerpt: `Cold search round ${++n}` }),
      });
      if (!res.ok) throw new Error(`PATCH: ${res.status}`);
    };

    // How many posts each benchmarked search matches: the count of the match alone.
    const { SEARCHES } = require('./scenarios');
    const { searchQuerySql, SqlParams } = require(path.join(DIST, 'libs/blog/src/lib/infrastructure/post-queries'));
    const matched = {};
    for (const term of SEARCHES) {
      const params = new SqlParams();
      params.add(fixtures.organizationId);
      const q = searchQuerySql(term, params);
      matched[term] = Number(
        (await client.query(`SELECT count(*) FROM posts WHERE organization_id = $1 AND search_vector @@ ${q}`, params.values)).rows[0].count,
      );
    }
    const broad = SEARCHES.filter((term) => matched[term] >= BROAD_SHARE * fixtures.posts);
    log(`broad searches: ${broad.map((term) => `${term} (${matched[term]})`).join(', ')}`);

    // Warm-up: the API's first statements (connections, prepared plans).
    for (const term of broad) await get(`/api/v1/posts?search=${encodeURIComponent(term)}`);
    const times = Object.fromEntries(broad.map((term) => [term, []]));
    const totals = {};
    // The floor of the machine at that moment: the first page of the list without a search, taken
    // the same way (right after a write), in the same rounds.
    const listTimes = [];
    for (let round = 0; round < options.rounds; round++) {
      for (const term of broad) {
        await write();
        const { ms, body } = await get(`/api/v1/posts?search=${encodeURIComponent(term)}`);
        times[term].push(ms);
        totals[term] = body.meta;
      }
      await write();
      listTimes.push((await get('/api/v1/posts')).ms);
    }
    const all = Object.values(times).flat();

    // The plan of each broad search's ranking statement, as the API runs it.
    const { searchRankingQuery, SEARCH_SETTINGS_SQL } = require(path.join(DIST, 'libs/blog/src/lib/infrastructure/post-queries'));
    const { AppConfig } = require(path.join(DIST, 'libs/shared/src/config/app-config'));
    const { SEARCH_RANKING_DEFAULTS } = require(path.join(DIST, 'libs/blog/src/lib/infrastructure/search-ranking-cache'));
    const config = new AppConfig();
    const plans = {};
    for (const term of broad) {
      const query = searchRankingQuery(
        { organizationId: fixtures.organizationId, search: term, order: 'desc', limit: 20, offset: 0, now: new Date(), tagIds: [] },
        SEARCH_RANKING_DEFAULTS.depth,
        config.searchWindow,
      );
      await client.query('BEGIN');
      await client.query(SEARCH_SETTINGS_SQL);
      const rows = (await client.query(`EXPLAIN (ANALYZE, BUFFERS, COSTS OFF) ${query.text}`, query.values)).rows;
      await client.query('COMMIT');
      plans[term] = rows.map((row) => row['QUERY PLAN']).join('\n');
    }
    await client.end();

    const cpus = os.cpus();
    let commit = 'unknown';
    try {
      commit = execSync('git rev-parse --short HEAD', { cwd: ROOT }).toString().trim();
    } catch {
      // not a git checkout
    }
    const fmt = (ms) => ms.toFixed(1);
    const lines = [
      '# Blog search at a million posts',
      '',
      `- Date: ${new Date().toISOString()}; commit ${commit}; ${cpus.length} × ${cpus[0]?.model ?? 'unknown CPU'}, ${Math.round(os.totalmem() / 2 ** 30)} GiB, Node ${process.version}; load average before ${os.loadavg().map((x) => x.toFixed(1)).join(' ')} (the machine is shared).`,
      `- Command: \`npm run build && npm run bench:search-growth -- --posts=${options.posts} --rounds=${options.rounds}\`.`,
      `- Data: one organization with ${fixtures.posts.toLocaleString('en')} posts (the bench's generated English, seed.js), seeded in ${fixtures.seedSeconds} s.`,
      `- A search considers the ${config.searchWindow.toLocaleString('en')} most recent matching posts and ranks those; the total counts them (\`total_is_lower_bound\` when more matched).`,
      `- Each request comes right after a write of the organization's blog, which drops the rankings the instance keeps: nothing cached. One client, over loopback.`,
      '',
      `| search | posts matching | meta of the first page | p50 ms | p95 ms | max ms |`,
      '|---|---:|---|---:|---:|---:|',
      ...broad.map(
        (term) =>
          `| ${term} | ${matched[term].toLocaleString('en')} | total ${totals[term].total}${totals[term].total_is_lower_bound ? ' (lower bound)' : ''}, hasMore ${totals[term].hasMore} | ${fmt(percentile(times[term], 50))} | ${fmt(percentile(times[term], 95))} | ${fmt(Math.max(...times[term]))} |`,
      ),
      `| **all broad searches** | | | ${fmt(percentile(all, 50))} | **${fmt(percentile(all, 95))}** | ${fmt(Math.max(...all))} |`,
      `| (no search: the list's first page, for comparison) | | | ${fmt(percentile(listTimes, 50))} | ${fmt(percentile(listTimes, 95))} | ${fmt(Math.max(...listTimes))} |`,
      '',
      `Goal: p95 < ${COLD_P95_MS} ms: ${percentile(all, 95) < COLD_P95_MS ? '✓ met' : '✗ missed'}.`,
      '',
      '## Plans of the ranking statements (EXPLAIN ANALYZE, at the end of the run)',
      '',
      ...broad.flatMap((term) => [`### ${term}`, '', '```', plans[term], '```', '']),
    ];
    const out = path.join(ROOT, 'bench', 'results', 'search-growth.md');
    fs.writeFileSync(out, `${lines.join('\n')}\n`);
    log(lines.slice(0, 15 + broad.length).join('\n'));
    log(`wrote ${path.relative(ROOT, out)}`);
  } finally {
    if (api) api.kill();
    await db.stop();
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
