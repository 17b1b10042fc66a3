'use strict';
// Growth runs: how each route's cost changes with the size of the data set. `npm run bench --
// --scale=N` seeds N times every table, loads the API alone (no floor: this compares the API with
// itself at two sizes), and writes bench/results/growth/scale-N.json (and explain-N.md, the plans of
// every route's statements at that size); bench/results/growth.md then merges every scale measured
// so far into one table per route. `npm run bench:growth` runs 1× and 10× in a row.

const fs = require('node:fs');
const path = require('node:path');
const { apiCpuMs } = require('./process-cpu');

/** A route meets the goal when its 10× figure is within this factor of its 1× figure. */
const GROWTH_FACTOR = 1.5;
/** A broad search's first page, nothing cached, at the largest scale: p95 below this. */
const COLD_SEARCH_P95_MS = 100;
/** Searches matching at least this share of the organization's posts count as broad. */
const BROAD_SHARE = 0.1;
/** Rounds of cold searches (each search once a round, right after a write that drops the cached rankings). */
const COLD_ROUNDS = 5;

const percentile = (values, p) => {
  const sorted = [...values].sort((a, b) => a - b);
  if (sorted.length === 0) return NaN;
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))];
};

/**
 * Cold searches: before each one, a post of the organization is changed through the API, which drops
 * every ranking the instance keeps for it, so the search pays its statements' full cost.
 */
async function coldSearches({ apiUrl, fixtures, client, send, log }) {
  const { SEARCHES } = require('./scenarios');
  const auth = { authorization: `Bearer ${fixtures.apiKey}` };
  const { rows } = await client.query(
    "SELECT id FROM posts WHERE organization_id = $1 AND status = 'draft' ORDER BY id LIMIT 1",
    [fixtures.organizationId],
  );
  const draft = rows[0]?.id;
  if (!draft) return null;
  const times = Object.fromEntries(SEARCHES.map((term) => [term, []]));
  const totals = {};
  for (let round = 0; round < COLD_ROUNDS; round++) {
    for (const term of SEARCHES) {
      const write = await send(apiUrl, {
        method: 'PATCH',
        path: `/api/v1/posts/${draft}`,
        headers: { ...auth, 'content-type': 'application/json' },
        body: JSON.stringify({ excerpt: `Draft excerpt ${round} ${term}` }),
      });
      if (write.status !== 200) throw new Error(`cold search: the write answered ${write.status}`);
      const started = process.hrtime.bigint();
      const res = await send(apiUrl, { method: 'GET', path: `/api/v1/posts?search=${encodeURIComponent(term)}`, headers: auth });
      times[term].push(Number(process.hrtime.bigint() - started) / 1e6);
      if (res.status !== 200) throw new Error(`cold search ${term}: ${res.status}`);
      totals[term] = res.body.meta.total;
    }
  }
  const posts = Number(
    (await client.query("SELECT count(*) FROM posts WHERE organization_id = $1", [fixtures.organizationId])).rows[0].count,
  );
  const broad = SEARCHES.filter((term) => totals[term] >= BROAD_SHARE * posts);
  const summary = {
    rounds: COLD_ROUNDS,
    posts,
    terms: SEARCHES.map((term) => ({ term, total: totals[term], p50: percentile(times[term], 50), p95: percentile(times[term], 95), max: Math.max(...times[term]) })),
    broad,
    broadP95: percentile(broad.flatMap((term) => times[term]), 95),
    allP95: percentile(Object.values(times).flat(), 95),
  };
  log(`  cold searches (${COLD_ROUNDS} rounds): broad (${broad.join(', ')}) p95 ${summary.broadP95.toFixed(1)} ms, all p95 ${summary.allP95.toFixed(1)} ms`);
  return summary;
}

/**
 * Each route at `connections` (throughput) and at one client (latency), the API alone.
 * @param {object} ctx { options, scenarios, apiUrl, client, fixtures, log, run(requests, { connections, duration }) → summarized run, settle() }
 */
async function measureRoutes(ctx) {
  const { options, scenarios, apiUrl, log } = ctx;
  const routes = [];
  for (const scenario of scenarios) {
    if (scenario.prepare) await scenario.prepare();
    await ctx.run(apiUrl, scenario.requests(), { connections: options.connections, duration: options.warmup });
    const loaded = [];
    // CPU over the loaded runs: at thousands of requests the instance's own timers (outbox, webhook
    // and publisher polls) are a negligible share of it, unlike at one client.
    const cpu = { node: 0, database: 0, served: 0 };
    for (let turn = 0; turn < Math.max(1, Math.floor(options.turns / 2)); turn++) {
      if (scenario.prepare) await scenario.prepare();
      const before = await apiCpuMs(ctx.client, ctx.apiPid);
      const run = await ctx.run(apiUrl, scenario.requests(), { connections: options.connections, duration: options.duration });
      const after = await apiCpuMs(ctx.client, ctx.apiPid);
      cpu.node += after.node - before.node;
      cpu.database += after.database - before.database;
      cpu.served += run.ok + run.non2xx;
      loaded.push(run);
    }
    if (scenario.prepare) await scenario.prepare();
    const single = await ctx.run(apiUrl, scenario.requests(), { connections: 1, duration: options.duration });
    const rps = loaded.reduce((sum, r) => sum + r.rps, 0) / loaded.length;
    const failures = [...loaded, single].reduce((n, r) => n + r.non2xx + r.errors, 0);
    const latencies = single.latencies;
    const route = {
      id: scenario.id,
      label: scenario.label,
      kind: scenario.kind,
      rps,
      runs: loaded.map((r) => r.rps),
      oneClient: { requests: latencies.length, p50: percentile(latencies, 50), p95: percentile(latencies, 95), p99: percentile(latencies, 99) },
      // µs of CPU per request under load: the API process, and its database sessions.
      cpuUs: { node: (cpu.node * 1000) / cpu.served, database: (cpu.database * 1000) / cpu.served },
      failures,
    };
    routes.push(route);
    log(
      `  ${scenario.label.padEnd(52)} ${rps.toFixed(0).padStart(6)} req/s at ${options.connections}, one client p95 ${route.oneClient.p95.toFixed(1)} ms, CPU ${route.cpuUs.node.toFixed(0)} + ${route.cpuUs.database.toFixed(0)} µs (API + database), failures ${failures}`,
    );
  }
  return routes;
}

const fmt = {
  n: (n) => (Number.isFinite(n) ? n.toLocaleString('en-US') : '–'),
  rps: (n) => (Number.isFinite(n) ? n.toFixed(0) : '–'),
  ms: (n) => (Number.isFinite(n) ? (n < 10 ? n.toFixed(2) : n.toFixed(1)) : '–'),
  x: (n) => (Number.isFinite(n) ? `${n.toFixed(2)}×` : '–'),
};

/** µs of CPU per request under load: the API process + its database sessions. */
const cpu = (route) => (route.cpuUs ? `${fmt.rps(route.cpuUs.node)} + ${fmt.rps(route.cpuUs.database)}` : '–');

/** The slowest statement of a route, as explained at one scale. */
function mainStatement(explained, id) {
  const route = explained?.routes.find((r) => r.id === id);
  if (!route || route.statements.length === 0) return null;
  return route.statements.reduce((a, b) => (b.ms > a.ms ? b : a));
}

/** bench/results/growth.md from every scale-N.json in the folder: the smallest scale against the others. */
function growthReport(runs) {
  runs.sort((a, b) => a.scale - b.scale);
  const base = runs[0];
  const lines = ['<!-- written by tools/bench/growth.js from growth/scale-*.json: do not edit -->', '# Almanac bench: data growth', ''];
  lines.push(
    `How each route's cost changes from ${runs.map((r) => `${r.scale}×`).join(' to ')} the data set: throughput at ${base.options.connections} connections, CPU per request at ${base.options.connections} connections (the API process + its database sessions, from /proc: what a request costs the machine, less sensitive to other work than throughput), p95 at one client, and the route's slowest statement (EXPLAIN ANALYZE, its shared buffers: the work done, whatever the machine's load). Goal: every route within ${GROWTH_FACTOR}× of its ${base.scale}× figure; a broad search's first page, nothing cached, p95 < ${COLD_SEARCH_P95_MS} ms.`,
    '',
  );
  for (const run of runs.slice(1)) {
    lines.push(`## ${base.scale}× → ${run.scale}×`, '');
    lines.push(
      `| Route | req/s ${base.scale}× | req/s ${run.scale}× | slower by | p95 ${base.scale}× (ms) | p95 ${run.scale}× (ms) | slower by | CPU µs ${base.scale}× | CPU µs ${run.scale}× | statement ${base.scale}× (ms) | statement ${run.scale}× (ms) | buffers ${base.scale}× | buffers ${run.scale}× | within ${GROWTH_FACTOR}× |`,
      '|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---|',
    );
    for (const route of run.routes) {
      const before = base.routes.find((r) => r.id === route.id);
      if (!before) continue;
      const slower = before.rps / route.rps;
      const p95 = route.oneClient.p95 / before.oneClient.p95;
      const [s1, s2] = [mainStatement(base.explained, route.id), mainStatement(run.explained, route.id)];
      const ok = slower <= GROWTH_FACTOR && p95 <= GROWTH_FACTOR;
      lines.push(
        `| \`${route.label}\` | ${fmt.rps(before.rps)} | ${fmt.rps(route.rps)} | ${fmt.x(slower)} | ${fmt.ms(before.oneClient.p95)} | ${fmt.ms(route.oneClient.p95)} | ${fmt.x(p95)} | ${cpu(before)} | ${cpu(route)} | ${fmt.ms(s1?.ms)} | ${fmt.ms(s2?.ms)} | ${fmt.n(s1?.buffers)} | ${fmt.n(s2?.buffers)} | ${ok ? '✓' : '✗'} |`,
      );
    }
    lines.push('');
    if (base.cold && run.cold) {
      lines.push(
        `Searches, nothing cached (each one right after a write that drops the instance's rankings, ${run.cold.rounds} rounds), ms:`,
        '',
        `| Search | matches ${base.scale}× | matches ${run.scale}× | p95 ${base.scale}× | p95 ${run.scale}× | max ${run.scale}× |`,
        '|---|---:|---:|---:|---:|---:|',
      );
      for (const term of run.cold.terms) {
        const before = base.cold.terms.find((t) => t.term === term.term);
        lines.push(
          `| \`${term.term}\`${run.cold.broad.includes(term.term) ? ' (broad)' : ''} | ${fmt.n(before?.total)} | ${fmt.n(term.total)} | ${fmt.ms(before?.p95)} | ${fmt.ms(term.p95)} | ${fmt.ms(term.max)} |`,
        );
      }
      lines.push(
        '',
        `Broad searches (≥ ${BROAD_SHARE * 100} % of the organization's posts), first page, nothing cached: p95 ${fmt.ms(base.cold.broadP95)} ms at ${base.scale}×, ${fmt.ms(run.cold.broadP95)} ms at ${run.scale}× (${run.cold.broadP95 < COLD_SEARCH_P95_MS ? '✓ met' : '✗ missed'}: < ${COLD_SEARCH_P95_MS} ms).`,
        '',
      );
    }
  }
  lines.push('## Runs', '');
  lines.push('| Scale | date | commit | data set | seeding | load average before / after | one run |', '|---|---|---|---|---:|---|---|');
  for (const run of runs) {
    const c = run.counts;
    lines.push(
      `| ${run.scale}× | ${run.date} | ${run.machine.commit} | ${fmt.n(c.bookings)} bookings, ${fmt.n(c.events)} events, ${fmt.n(c.registrations)} registrations, ${fmt.n(c.posts)} posts, ${fmt.n(c.schedules)} schedules, ${fmt.n(c.tags)} tags | ${run.seedSeconds.toFixed(0)} s | ${run.machine.loadBefore.map((n) => n.toFixed(1)).join(' ')} / ${run.machine.loadAfter.map((n) => n.toFixed(1)).join(' ')} | \`${run.command}\` |`,
    );
  }
  lines.push(
    '',
    `Machine: ${base.machine.cpu}, ${base.machine.memory}; Node ${base.machine.node}; PostgreSQL ${base.machine.postgres} (embedded, default settings). Each route: a ${base.options.warmup} s warm-up, ${Math.max(1, Math.floor(base.options.turns / 2))} run(s) of ${base.options.duration} s at ${base.options.connections} connections, then ${base.options.duration} s at one connection; the API alone (the floor is left out). The plans: ${runs.map((r) => `[${r.scale}×](growth/explain-${r.scale}.md)`).join(', ')}. Throughput on this 2-core machine moves by ±15 % between runs (more when other work runs: see the load averages); the buffers do not.`,
    '',
  );
  return `${lines.join('\n')}\n`;
}

/** Writes growth/scale-N.json, then growth.md from every scale measured so far. */
function writeGrowth(summary, resultsDir) {
  const dir = path.join(resultsDir, 'growth');
  fs.mkdirSync(dir, { recursive: true });
  const file = path.join(dir, `scale-${summary.scale}.json`);
  fs.writeFileSync(file, `${JSON.stringify(summary, null, 2)}\n`);
  const runs = fs
    .readdirSync(dir)
    .filter((name) => /^scale-[\d.]+\.json$/.test(name))
    .map((name) => JSON.parse(fs.readFileSync(path.join(dir, name), 'utf8')));
  const report = path.join(resultsDir, 'growth.md');
  if (runs.length > 1) fs.writeFileSync(report, growthReport(runs));
  return runs.length > 1 ? [file, report] : [file];
}

module.exports = { coldSearches, measureRoutes, writeGrowth, growthReport };
