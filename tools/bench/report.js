'use strict';
// The bench's output: the console table, bench/results/latest.md and latest.svg (a bar chart of the
// API/floor ratios), with the previous pair moved to bench/results/history/. Quick runs write to
// bench/results/quick/ and keep no history.

const fs = require('node:fs');
const path = require('node:path');

const TARGETS = { read: 0.6, write: 0.5, p99Ms: 50, searchP95Ms: 20, slotsP95Ms: 20, slotsExplainP95Ms: 30, rssMb: 300 };
const MB = 1024 * 1024;

const fmt = {
  rps: (n) => (Number.isFinite(n) ? n.toFixed(0) : '–'),
  ms: (n) => (Number.isFinite(n) ? (n < 10 ? n.toFixed(1) : n.toFixed(0)) : '–'),
  // Truncated, not rounded: 0.597 shows as 0.59, never as a target it missed.
  ratio: (n) => (Number.isFinite(n) ? (Math.floor(n * 100) / 100).toFixed(2) : '–'),
  mb: (n) => `${(n / MB).toFixed(0)} MB`,
};

function failures(r) {
  return `${r.non2xx + r.errors}`;
}

function target(result) {
  return result.scenario.kind === 'read' ? TARGETS.read : TARGETS.write;
}

function table(summary) {
  const header = [
    'route',
    'API req/s',
    'floor req/s',
    'API/floor',
    'API p50',
    'API p99',
    'floor p50',
    'floor p99',
    'API err',
    'floor err',
  ];
  const rows = summary.results.map((r) => [
    r.scenario.label,
    fmt.rps(r.api.rps),
    fmt.rps(r.floor.rps),
    `${fmt.ratio(r.ratio)}${r.ratio >= target(r) ? '' : ' ✗'}`,
    `${fmt.ms(r.api.p50)} ms`,
    `${fmt.ms(r.api.p99)} ms`,
    `${fmt.ms(r.floor.p50)} ms`,
    `${fmt.ms(r.floor.p99)} ms`,
    failures(r.api),
    failures(r.floor),
  ]);
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((row) => row[i].length)));
  const line = (cells) =>
    cells.map((c, i) => (i === 0 ? c.padEnd(widths[i]) : c.padStart(widths[i]))).join('  ');
  return [
    line(header),
    widths.map((w) => '-'.repeat(w)).join('  '),
    ...rows.map(line),
    '',
    `API peak RSS ${fmt.mb(summary.rss.apiPeak)} (floor ${fmt.mb(summary.rss.floorPeak)}); ✗ = below the target ratio (reads ${TARGETS.read}, writes ${TARGETS.write}); err = non-2xx + socket errors`,
    ...(summary.searchLatency
      ? [
          `search latency, one client: API p95 ${fmt.ms(summary.searchLatency.api.p95)} ms, floor p95 ${fmt.ms(summary.searchLatency.floor.p95)} ms (target < ${TARGETS.searchP95Ms} ms)`,
        ]
      : []),
    ...(summary.slotsLatency
      ? [
          `slots latency (62 days, 5,000 bookings), one client: API p95 ${fmt.ms(summary.slotsLatency.api.p95)} ms, floor p95 ${fmt.ms(summary.slotsLatency.floor.p95)} ms (target < ${TARGETS.slotsP95Ms} ms)`,
        ]
      : []),
    ...(summary.slotsExplainLatency
      ? [
          `slots with explain=true, one client: API p95 ${fmt.ms(summary.slotsExplainLatency.api.p95)} ms, floor p95 ${fmt.ms(summary.slotsExplainLatency.floor.p95)} ms (target < ${TARGETS.slotsExplainP95Ms} ms)`,
        ]
      : []),
  ].join('\n');
}

function escapeXml(text) {
  return String(text).replace(
    /[<>&"']/g,
    (c) => ({ '<': '&lt;', '>': '&gt;', '&': '&amp;', '"': '&quot;', "'": '&apos;' })[c],
  );
}

/** A horizontal bar per route: the API's throughput as a share of the floor's, with the targets. */
function svg(summary) {
  const rows = summary.results;
  // Room for the longest route label (about 6.7 px a character at 12 px).
  const left = Math.max(330, 20 + Math.ceil(Math.max(...rows.map((r) => r.scenario.label.length)) * 6.7));
  const barWidth = 420;
  const rowHeight = 30;
  const top = 56;
  const height = top + rows.length * rowHeight + 46;
  const width = left + barWidth + 80;
  const x = (ratio) => left + Math.min(ratio, 1.2) * (barWidth / 1.2);
  const parts = [
    `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}" font-family="system-ui, sans-serif" font-size="12">`,
    `<rect width="100%" height="100%" fill="#fff"/>`,
    `<text x="12" y="22" font-size="15" font-weight="bold">API throughput as a share of the floor's (same work, node:http + pg)</text>`,
    `<text x="12" y="40" fill="#555">${escapeXml(`${summary.date.toISOString()} · ${summary.options.connections} connections · ${summary.options.quick ? 'quick data set' : 'full data set'} · commit ${summary.machine.commit}`)}</text>`,
  ];
  const targets = [TARGETS.write, TARGETS.read];
  for (const [value, label] of [
    [0, '0'],
    ...targets.map((ratio) => [ratio, String(ratio)]),
    [1, '1.0'],
  ]) {
    const dashed = targets.includes(value);
    parts.push(
      `<line x1="${x(value)}" y1="${top - 6}" x2="${x(value)}" y2="${top + rows.length * rowHeight}" stroke="${dashed ? '#c33' : '#999'}" ${dashed ? 'stroke-dasharray="4 3"' : ''}/>`,
    );
    parts.push(
      `<text x="${x(value)}" y="${top + rows.length * rowHeight + 16}" text-anchor="middle" fill="#555">${label}</text>`,
    );
  }
  rows.forEach((r, i) => {
    const y = top + i * rowHeight;
    const ok = r.ratio >= target(r);
    const w = Math.max(1, x(r.ratio) - left);
    parts.push(`<text x="${left - 8}" y="${y + 18}" text-anchor="end">${escapeXml(r.scenario.label)}</text>`);
    parts.push(
      `<rect x="${left}" y="${y + 5}" width="${w.toFixed(1)}" height="${rowHeight - 10}" fill="${ok ? '#3a8f5c' : '#d0673a'}"/>`,
    );
    parts.push(`<text x="${(left + w + 6).toFixed(1)}" y="${y + 18}">${fmt.ratio(r.ratio)}</text>`);
  });
  parts.push(
    `<text x="12" y="${height - 10}" fill="#555">Dashed: targets (writes ${TARGETS.write}, reads ${TARGETS.read}). Green: target met. Orange: missed.</text>`,
  );
  parts.push('</svg>');
  return `${parts.join('\n')}\n`;
}

function markdown(summary, findings) {
  const { machine, options, counts } = summary;
  const lines = [];
  const stamp = summary.date.toISOString();
  lines.push(`<!-- run: ${stamp} -->`);
  lines.push(`# Almanac bench: the API against its floor`, '');
  lines.push(
    `${stamp} · commit ${machine.commit} · ${options.quick ? '**quick** (smoke test, small data, short runs)' : 'full run'} · ${summary.seconds.toFixed(0)} s in all`,
    '',
  );
  lines.push('![API/floor throughput ratios](latest.svg)', '');
  lines.push('## Results', '');
  lines.push(
    '| Route | API req/s | floor req/s | API/floor | target | API p50 | API p95 | API p99 | floor p50 | floor p95 | floor p99 | API non-2xx / errors | floor non-2xx / errors |',
  );
  lines.push('|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|');
  for (const r of summary.results) {
    const ok = r.ratio >= target(r);
    lines.push(
      `| \`${r.scenario.label}\` | ${fmt.rps(r.api.rps)} | ${fmt.rps(r.floor.rps)} | **${fmt.ratio(r.ratio)}** ${ok ? '✓' : '✗'} | ${target(r)} | ` +
        `${fmt.ms(r.api.p50)} | ${fmt.ms(r.api.p95)} | ${fmt.ms(r.api.p99)} | ${fmt.ms(r.floor.p50)} | ${fmt.ms(r.floor.p95)} | ${fmt.ms(r.floor.p99)} | ` +
        `${r.api.non2xx} / ${r.api.errors} | ${r.floor.non2xx} / ${r.floor.errors} |`,
    );
  }
  lines.push(
    '',
    'Latencies in ms over every response of every measured run of that server; req/s counts 2xx answers only, averaged over the runs.',
    '',
  );

  lines.push('## Targets', '');
  const readsOk = summary.results
    .filter((r) => r.scenario.kind === 'read')
    .every((r) => r.ratio >= TARGETS.read);
  const writesOk = summary.results
    .filter((r) => r.scenario.kind === 'write')
    .every((r) => r.ratio >= TARGETS.write);
  const errorsOk = summary.results.every((r) => r.api.non2xx + r.api.errors === 0);
  const p99Ok = summary.results.every((r) => r.api.p99 < TARGETS.p99Ms);
  const search = summary.results.find((r) => r.scenario.id === 'posts-search');
  const rssOk = summary.rss.apiPeak < TARGETS.rssMb * MB;
  const mark = (ok) => (ok ? '✓ met' : '✗ missed');
  lines.push(`| Target | Measured | |`, '|---|---|---|');
  lines.push(
    `| reads ≥ ${TARGETS.read} of the floor | ${summary.results
      .filter((r) => r.scenario.kind === 'read')
      .map((r) => fmt.ratio(r.ratio))
      .join(', ')} | ${mark(readsOk)} |`,
  );
  lines.push(
    `| writes ≥ ${TARGETS.write} of the floor | ${summary.results
      .filter((r) => r.scenario.kind === 'write')
      .map((r) => fmt.ratio(r.ratio))
      .join(', ')} | ${mark(writesOk)} |`,
  );
  lines.push(
    `| zero errors (API) | ${summary.results.reduce((n, r) => n + r.api.non2xx + r.api.errors, 0)} non-2xx or socket errors | ${mark(errorsOk)} |`,
  );
  lines.push(
    `| API p99 < ${TARGETS.p99Ms} ms on every route | worst ${fmt.ms(Math.max(...summary.results.map((r) => r.api.p99)))} ms | ${mark(p99Ok)} |`,
  );
  if (search)
    lines.push(
      `| search p95 < ${TARGETS.searchP95Ms} ms, at ${options.connections} connections | ${fmt.ms(search.api.p95)} ms (floor ${fmt.ms(search.floor.p95)} ms) | ${mark(search.api.p95 < TARGETS.searchP95Ms)} |`,
    );
  const latency = summary.searchLatency;
  if (latency)
    lines.push(
      `| search p95 < ${TARGETS.searchP95Ms} ms, one client (${latency.connections} connection) | ${fmt.ms(latency.api.p95)} ms (floor ${fmt.ms(latency.floor.p95)} ms) | ${mark(latency.api.p95 < TARGETS.searchP95Ms)} |`,
    );
  const slotsLatency = summary.slotsLatency;
  if (slotsLatency)
    lines.push(
      `| slots (62 days, 5,000 bookings) p95 < ${TARGETS.slotsP95Ms} ms, one client | ${fmt.ms(slotsLatency.api.p95)} ms (floor ${fmt.ms(slotsLatency.floor.p95)} ms) | ${mark(slotsLatency.api.p95 < TARGETS.slotsP95Ms)} |`,
    );
  const explainLatency = summary.slotsExplainLatency;
  if (explainLatency)
    lines.push(
      `| slots with explain=true (62 days, 5,000 bookings) p95 < ${TARGETS.slotsExplainP95Ms} ms, one client | ${fmt.ms(explainLatency.api.p95)} ms (floor ${fmt.ms(explainLatency.floor.p95)} ms) | ${mark(explainLatency.api.p95 < TARGETS.slotsExplainP95Ms)} |`,
    );
  const reservation = summary.results.find((r) => r.scenario.id === 'reservation-create');
  const bookingCreate = summary.results.find((r) => r.scenario.id === 'booking-create');
  if (reservation && bookingCreate)
    lines.push(
      `| reservation create p95 under booking create's, at ${options.connections} connections | ${fmt.ms(reservation.api.p95)} ms (booking create ${fmt.ms(bookingCreate.api.p95)} ms) | ${mark(reservation.api.p95 < bookingCreate.api.p95)} |`,
    );
  lines.push(
    `| API resident set < ${TARGETS.rssMb} MB | peak ${fmt.mb(summary.rss.apiPeak)} (floor ${fmt.mb(summary.rss.floorPeak)}) | ${mark(rssOk)} |`,
  );
  lines.push('');

  if (latency) {
    lines.push('## Search latency', '');
    lines.push(
      `One client: ${latency.connections} connection, the searches below in turn for ${options.duration} s, after the load runs (broad searches' rankings are cached for 5 s, so most of them come from the cache; every ranking is recomputed at least every 5 s).`,
      '',
      '| Server | requests | p50 | p95 | p99 | max |',
      '|---|---:|---:|---:|---:|---:|',
    );
    for (const name of ['api', 'floor'])
      lines.push(
        `| ${name === 'api' ? 'API' : 'floor'} | ${latency[name].requests} | ${fmt.ms(latency[name].p50)} | ${fmt.ms(latency[name].p95)} | ${fmt.ms(latency[name].p99)} | ${fmt.ms(latency[name].max)} |`,
      );
    lines.push('');
  }
  if (summary.searchColdMs) {
    lines.push(
      "Cold: each search the first time it ran (asked of the API before any other search, nothing cached: the statements' live cost, over HTTP), in ms:",
      '',
      `| ${Object.keys(summary.searchColdMs)
        .map((term) => `\`${term}\``)
        .join(' | ')} |`,
      `|${Object.keys(summary.searchColdMs)
        .map(() => '---:')
        .join('|')}|`,
      `| ${Object.values(summary.searchColdMs)
        .map((ms) => ms.toFixed(1))
        .join(' | ')} |`,
      '',
    );
  }
  lines.push('## Runs', '');
  lines.push(
    '| Route | API req/s per run | floor req/s per run | API status codes | floor status codes | API peak RSS |',
  );
  lines.push('|---|---|---|---|---|---:|');
  for (const r of summary.results) {
    const codes = (s) =>
      Object.entries(s)
        .map(([code, n]) => `${code}×${n}`)
        .join(' ');
    lines.push(
      `| \`${r.scenario.label}\` | ${r.api.runs.map(fmt.rps).join(', ')} | ${r.floor.runs.map(fmt.rps).join(', ')} | ${codes(r.api.statuses)} | ${codes(r.floor.statuses)} | ${fmt.mb(r.rssPeak.api)} |`,
    );
  }
  lines.push('');
  const notes = summary.results.filter((r) => r.scenario.note);
  if (notes.length) {
    lines.push('Writes:', '');
    for (const r of notes) lines.push(`- \`${r.scenario.label}\`: ${r.scenario.note}.`);
    lines.push('');
  }

  lines.push('## Set-up', '');
  lines.push(
    `- Machine: ${machine.cpu}, ${machine.memory}; Node ${machine.node}; PostgreSQL ${machine.postgres} (embedded, default settings, fsync on). Load average before ${machine.loadBefore.map((n) => n.toFixed(2)).join(' ')}, after ${machine.loadAfter.map((n) => n.toFixed(2)).join(' ')} (the machine is shared: other work shows here).`,
  );
  lines.push(
    `- Load: autocannon in the harness process, ${options.connections} connections over loopback, ${options.warmup} s warm-up per server and route, then ${options.turns} runs of ${options.duration} s in turns API, floor, API, floor.`,
  );
  if (options.nodeOptions) lines.push(`- NODE_OPTIONS for both servers: \`${options.nodeOptions}\`.`);
  lines.push(
    `- Both servers: NODE_ENV=production, LOG_LEVEL=${options.logLevel} (one JSON access-log line per request to a file), a pool of 20 connections, API-key lookups cached 5 s, rate limit on (raised to 100,000,000 a minute: counted, headers set, never refused).`,
  );
  lines.push(
    `- The API: the built app, \`node -r ./tools/register-paths.js dist/apps/api/src/main.js\`. The floor: \`node -r ./tools/register-paths.js dist/tools/bench/floor/server.js\` (node:http in front of the app's own controllers, services, repositories, mappers and API-key authenticator, input checked by Ajv against the app's OpenAPI document; a parity check compares both answers on every route, and the problems of 22 refused requests, before the load${summary.mismatches.length ? ` — **${summary.mismatches.length} mismatch(es) were allowed in this run**` : ', and passed'}).`,
  );
  lines.push(
    `- Data set: ${counts.organizations} organizations, ${counts.schedules} schedules, ${counts.bookings} bookings, ${counts.eventTypes} event types, ${counts.events} events, ${counts.registrations} registrations, ${counts.posts} posts (content blocks of generated English), ${counts.categories} categories, ${counts.tags} tags; the load runs as the first organization (80 % of the rows).`,
  );
  if (summary.searchMatches) {
    const terms = Object.entries(summary.searchMatches).map(
      ([term, n]) => `\`${term}\` ${n.toLocaleString('en-US')}`,
    );
    lines.push(`- Searches, in turn (posts of the main organization each one matches): ${terms.join(', ')}.`);
  }
  lines.push('');
  if (findings) lines.push('## Findings', '', findings.trim(), '');
  return `${lines.join('\n')}\n`;
}

function write(summary, resultsDir) {
  const quick = summary.options.quick;
  const dir = quick ? path.join(resultsDir, 'quick') : resultsDir;
  fs.mkdirSync(dir, { recursive: true });
  const md = path.join(dir, 'latest.md');
  const chart = path.join(dir, 'latest.svg');
  if (!quick && fs.existsSync(md)) {
    const previous = fs.readFileSync(md, 'utf8');
    const stamp = (/<!-- run: (\S+) -->/.exec(previous)?.[1] ?? fs.statSync(md).mtime.toISOString()).replace(
      /[:.]/g,
      '-',
    );
    const history = path.join(resultsDir, 'history');
    fs.mkdirSync(history, { recursive: true });
    fs.writeFileSync(path.join(history, `${stamp}.md`), previous.replace('](latest.svg)', `](${stamp}.svg)`));
    fs.rmSync(md);
    if (fs.existsSync(chart)) fs.renameSync(chart, path.join(history, `${stamp}.svg`));
  }
  const findingsFile = path.join(resultsDir, 'findings.md');
  const findings = !quick && fs.existsSync(findingsFile) ? fs.readFileSync(findingsFile, 'utf8') : null;
  fs.writeFileSync(md, markdown(summary, findings));
  fs.writeFileSync(chart, svg(summary));
  return [md, chart];
}

module.exports = { table, write };
