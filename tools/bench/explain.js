'use strict';
// EXPLAIN (ANALYZE, BUFFERS) of every statement one request of each route runs, as the API runs it:
// PostgreSQL's auto_explain logs the plan of each statement of one more API process, whose sessions
// alone load it (libpq `options` in its DATABASE_URL); the harness reads them from the server's log.
// Each route is requested twice and the second request's plans are reported (warm, as under load).

/** The same database, for sessions that log the plan of everything they run. */
function explainingUrl(url) {
  const settings = [
    'session_preload_libraries=auto_explain',
    'auto_explain.log_min_duration=0',
    'auto_explain.log_analyze=on',
    'auto_explain.log_buffers=on',
    'auto_explain.log_nested_statements=on',
  ];
  const u = new URL(url);
  u.searchParams.set('options', settings.map((s) => `-c ${s}`).join(' '));
  return u.toString();
}

const MARK = 'almanac-explain:';

/** auto_explain's entries in a stretch of the server log: a `LOG:  duration: … plan:` line and its indented lines. */
function planEntries(text) {
  const entries = [];
  let current = null;
  for (const line of text.split('\n')) {
    const head = /LOG:\s+duration: ([\d.]+) ms\s+plan:/.exec(line);
    if (head) {
      current = { ms: Number(head[1]), lines: [] };
      entries.push(current);
    } else if (current && /^\s/.test(line) && line.trim() !== '') current.lines.push(line.replace(/^\t/, ''));
    else current = null;
  }
  // The harness's own markers are not the route's work.
  return entries.filter((e) => !e.lines.some((l) => l.includes(MARK)));
}

/**
 * @param {object} o
 * @param {Array} o.scenarios the benchmarked scenarios
 * @param {string} o.apiUrl the explaining API process
 * @param {() => string} o.serverLog everything the server logged so far
 * @param {import('pg').Client} o.marker a session that loads auto_explain (its markers cut the log)
 * @param {(request: object) => Promise<{status: number, body: any}>} o.send
 */
async function explainScenarios({ scenarios, apiUrl, serverLog, marker, send, fixtures }) {
  let seq = 0;
  /** The plans logged while `work` ran. */
  const plansOf = async (work) => {
    const id = `${MARK}${++seq}`;
    await marker.query(`SELECT '${id}:start'`);
    const result = await work();
    await marker.query(`SELECT '${id}:end'`);
    let log = serverLog();
    // The server writes its log asynchronously: wait (at most 10 s) for the end marker's entry.
    for (let waited = 0; !log.includes(`${id}:end`) && waited < 10_000; waited += 50) {
      await new Promise((resolve) => setTimeout(resolve, 50));
      log = serverLog();
    }
    const from = log.indexOf(`${id}:start`);
    const to = log.indexOf(`${id}:end`);
    if (from === -1 || to === -1) return { result, entries: [] };
    // From the line after the start marker's entry to the line where the end marker's entry begins.
    const end = log.lastIndexOf('\n', log.lastIndexOf('LOG:', to));
    return { result, entries: planEntries(log.slice(log.indexOf('\n', from), end)) };
  };

  const lines = ['# EXPLAIN ANALYZE of the statements behind each benchmarked route', ''];
  lines.push(
    "One route at a time through one more API process whose sessions load auto_explain (nested statements included); each route is requested twice and the second request's statements are shown.",
    '',
  );
  const { SEARCHES } = require('./scenarios');
  lines.push('## Every benchmarked search', '', '| search | posts matched | slowest statement, nothing cached |', '|---|---:|---:|');
  const searches = [];
  const routes = [];
  for (const search of SEARCHES) {
    const request = { method: 'GET', path: `/api/v1/posts?search=${encodeURIComponent(search)}`, headers: { authorization: `Bearer ${fixtures.apiKey}` } };
    // This process never ran the search: its ranking is not cached yet.
    const { result, entries } = await plansOf(() => send(apiUrl, request));
    const slowest = entries.reduce((max, e) => Math.max(max, e.ms), 0);
    lines.push(`| \`${search}\` | ${result.body?.meta?.total ?? result.status} | ${slowest.toFixed(1)} ms |`);
    searches.push({ search, total: result.body?.meta?.total ?? null, slowestMs: slowest, buffers: Math.max(0, ...entries.map(buffersOf)) });
  }
  lines.push('');
  for (const scenario of scenarios) {
    if (scenario.prepare) await scenario.prepare();
    const [template] = scenario.requests();
    const next = () => (template.setupRequest ? template.setupRequest({ ...template }) : template);
    await send(apiUrl, next());
    const request = next();
    const { result, entries } = await plansOf(() => send(apiUrl, request));
    lines.push(`## ${scenario.label}`, '', `\`${request.method} ${request.path}\` → ${result.status}`, '');
    entries.forEach((entry, i) => {
      lines.push(`### Statement ${i + 1} — ${entry.ms.toFixed(3)} ms`, '', '```', ...entry.lines, '```', '');
    });
    routes.push({
      id: scenario.id,
      label: scenario.label,
      status: result.status,
      statements: entries.map((entry) => ({ ms: entry.ms, buffers: buffersOf(entry), query: queryOf(entry) })),
    });
  }

  lines.push('');
  return { text: `${lines.join('\n')}\n`, searches, routes };
}

/** Shared buffers (hit + read) of a plan's top node: the work a statement did, whatever the machine's load. */
function buffersOf(entry) {
  const line = entry.lines.find((l) => /^\s*Buffers: shared/.test(l));
  if (!line) return 0;
  const hit = /hit=(\d+)/.exec(line);
  const read = /read=(\d+)/.exec(line);
  return Number(hit?.[1] ?? 0) + Number(read?.[1] ?? 0);
}

/** The statement's text as auto_explain logged it (its first line). */
function queryOf(entry) {
  const line = entry.lines.find((l) => /^\s*Query Text:/.test(l));
  return line ? line.replace(/^\s*Query Text:\s*/, '').slice(0, 200) : '';
}

module.exports = { explainScenarios, explainingUrl };
