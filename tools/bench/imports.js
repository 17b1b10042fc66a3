'use strict';
// npm run bench:imports: what a calendar import costs the process that runs it.
//
// Builds the app, starts an embedded PostgreSQL and runs the built application IN THIS PROCESS (as
// bench:hostile-bodies does), with a feed server on loopback, and runs imports through the API:
//  1. 47,913 occurrences (a 10-minute series over 333 days): 47,913 bookings created, 47,913 events;
//  2. the same feed emptied but one: 47,912 bookings cancelled;
//  3. a 400 KB SUMMARY on an hourly series over 366 days (8,784 occurrences; the feed is 400 KB);
//  4. that feed for two organizations at once.
// For each: the time, the CPU the main thread used in its longest stretch without turning the event
// loop and the longest event-loop delay (tools/bench/loop-hold.js), and how much the process's
// resident memory grew at its peak (VmHWM, reset before each import, against VmRSS before it).
// Writes bench/results/imports.md; exits 1 when an import fails, a stretch passes 100 ms or the
// memory grows by more than 256 MB.

const { createServer, request } = require('node:http');
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const { parseArgs, startDatabase, writeReport } = require('./standalone');
const { startHoldMonitor } = require('./loop-hold');

const args = parseArgs(process.argv.slice(2));
const ROOT = path.resolve(__dirname, '..', '..');
const ORIGIN = 'http://localhost:3000';
const LIMIT_MS = 100;
const LIMIT_MB = 256;
const log = (text) => process.stdout.write(`${text}\n`);

function call(base, method, url, headers, body) {
  const payload = body === undefined ? undefined : Buffer.from(JSON.stringify(body));
  return new Promise((resolve, reject) => {
    const req = request(
      `${base}${url}`,
      { method, headers: { ...headers, ...(payload ? { 'Content-Type': 'application/json', 'Content-Length': payload.length } : {}) }, agent: false },
      (res) => {
        const chunks = [];
        res.on('data', (c) => chunks.push(c));
        res.on('end', () => {
          const text = Buffer.concat(chunks).toString();
          resolve({ status: res.statusCode, headers: res.headers, body: text ? JSON.parse(text) : undefined });
        });
      },
    );
    req.on('error', reject);
    req.end(payload);
  });
}

/** Resident memory now and at its peak since the last reset, in MB (/proc/self/status). */
function memory() {
  const status = fs.readFileSync('/proc/self/status', 'utf8');
  const mb = (name) => Number(new RegExp(`^${name}:\\s+(\\d+) kB`, 'm').exec(status)[1]) / 1024;
  return { residentMb: mb('VmRSS'), peakMb: mb('VmHWM') };
}
/** Starts a new peak (Linux: writing 5 to clear_refs resets VmHWM to the current resident size). */
const resetPeak = () => fs.writeFileSync('/proc/self/clear_refs', '5');

const calendar = (...lines) => ['BEGIN:VCALENDAR', 'VERSION:2.0', 'PRODID:-//Almanac bench//EN', ...lines, 'END:VCALENDAR', ''].join('\r\n');
const series = (uid, start, rule, summary) =>
  ['BEGIN:VEVENT', `UID:${uid}`, `DTSTART:${start}`, 'DURATION:PT5M', `RRULE:${rule}`, `SUMMARY:${summary}`, 'END:VEVENT'];

async function main() {
  const database = await startDatabase('imports', args);
  const { createApp } = require(path.join(ROOT, 'dist/apps/api/src/bootstrap'));
  const { AppConfig } = require(path.join(ROOT, 'dist/libs/shared/src'));
  const { IdentityService } = require(path.join(ROOT, 'dist/libs/identity/src'));

  const feeds = new Map();
  const feedServer = createServer((req, res) => {
    const feed = feeds.get(req.url);
    if (feed === undefined) return void res.writeHead(404).end();
    res.writeHead(200, { 'Content-Type': 'text/calendar; charset=utf-8' }).end(feed);
  });
  await new Promise((r) => feedServer.listen(0, '127.0.0.1', r));
  const feedBase = `http://127.0.0.1:${feedServer.address().port}`;

  const config = new AppConfig({
    databaseUrl: database.url,
    appUrl: ORIGIN,
    logLevel: 'silent',
    seedDemo: false,
    rateLimitPerMinute: 0,
    webhookDispatcher: false,
    calendarAllowPrivateHosts: true,
  });
  const { app } = await createApp({ config, quiet: true, shutdownHooks: false });
  await app.listen(0, '127.0.0.1');
  const base = `http://127.0.0.1:${app.getHttpServer().address().port}`;
  const identity = app.get(IdentityService);

  /** An organization with an admin session and an integration reading `/feeds/<name>.ics`. */
  async function importer(name) {
    const org = await identity.createOrganization(name);
    const key = (await identity.createApiKey({ organizationId: org.id })).key;
    const email = `${name}@bench.example`;
    await identity.createUser({ organizationId: org.id, email, name, password: 'correct horse battery', role: 'admin' });
    const login = await call(base, 'POST', '/api/auth/login', { Origin: ORIGIN }, { email, password: 'correct horse battery' });
    const session = { Cookie: String(login.headers['set-cookie'][0]).split(';')[0], Origin: ORIGIN };
    const schedule = await call(base, 'POST', '/api/v1/schedules', { Authorization: `Bearer ${key}` }, { name: 'Imported', timezone: 'UTC' });
    const put = await call(base, 'PUT', `/api/organizations/${org.id}/calendar-integration`, session, {
      provider: 'ics',
      url: `${feedBase}/feeds/${name}.ics`,
      schedule_id: schedule.body.data.id,
    });
    if (put.status !== 200) throw new Error(`integration: ${put.status} ${JSON.stringify(put.body)}`);
    return {
      setFeed: (text) => feeds.set(`/feeds/${name}.ics`, text),
      sync: (startDate, endDate) => call(base, 'POST', '/api/bookings/sync-external', session, { organizationId: org.id, startDate, endDate }),
    };
  }

  const monitor = startHoldMonitor();
  const results = [];
  /** Runs the imports at once and records their cost. */
  async function measure(label, runs, check) {
    await new Promise((r) => setTimeout(r, 200));
    if (global.gc) global.gc();
    const before = memory();
    resetPeak();
    monitor.reset();
    const started = Date.now();
    const answers = await Promise.all(runs.map((run) => run()));
    const ms = Date.now() - started;
    await new Promise((r) => setTimeout(r, 5));
    const { holdMs, cpuHoldMs } = monitor.read();
    const grewMb = memory().peakMb - before.residentMb;
    const ok = answers.every((a) => a.status === 200 && check(a.body));
    const row = { label, ms, cpuHoldMs, holdMs, grewMb, ok, answer: answers.map((a) => (a.status === 200 ? `synced ${a.body.synced}, cancelled ${a.body.cancelled}, skipped ${a.body.skipped}` : `${a.status} ${a.body?.code}: ${a.body?.detail}`)).join(' / ') };
    results.push(row);
    log(`${label}: ${ms} ms, CPU stretch ${cpuHoldMs.toFixed(1)} ms, hold ${holdMs.toFixed(1)} ms, memory +${grewMb.toFixed(0)} MB, ${row.answer}`);
  }

  const big = await importer('many');
  const range = ['2027-01-01T00:00:00Z', '2027-12-31T00:00:00Z'];
  big.setFeed(calendar(...series('ten-minutes@bench', '20270101T000000Z', 'FREQ=MINUTELY;INTERVAL=10;COUNT=47913', 'Slot')));
  await measure('47,913 occurrences, all new', [() => big.sync(...range)], (b) => b.synced === 47_913);
  big.setFeed(calendar(...series('ten-minutes@bench', '20270101T000000Z', 'FREQ=MINUTELY;INTERVAL=10;COUNT=1', 'Slot')));
  await measure('the same feed but one occurrence: 47,912 cancelled', [() => big.sync(...range)], (b) => b.cancelled === 47_912);

  const summary = `${'S'.repeat(300)}${'x'.repeat(400_000)}`;
  const wide = [await importer('wide1'), await importer('wide2')];
  for (const one of wide) one.setFeed(calendar(...series('huge-summary@bench', '20270101T000000Z', 'FREQ=HOURLY', summary)));
  const year = ['2027-01-01T00:00:00Z', '2028-01-01T00:00:00Z'];
  await measure('400 KB SUMMARY, hourly over 365 days (8,760 occurrences)', [() => wide[0].sync(...year)], (b) => b.synced === 8_760);
  for (const one of wide) one.setFeed(calendar(...series('huge-summary-2@bench', '20270101T003000Z', 'FREQ=HOURLY', summary)));
  await measure('the same with another UID, two organizations at once', wide.map((one) => () => one.sync(...year)), (b) => b.synced === 8_760);
  monitor.stop();

  const worstCpu = Math.max(...results.map((r) => r.cpuHoldMs));
  const worstMb = Math.max(...results.map((r) => r.grewMb));
  const failed = results.filter((r) => !r.ok);
  const report = [
    `# Calendar imports (npm run bench:imports), ${new Date().toISOString()}`,
    '',
    `Machine: ${os.cpus().length} cores, load average ${os.loadavg().map((l) => l.toFixed(1)).join(' ')} at the end. The built app in the bench's process on an embedded PostgreSQL, feeds on loopback.`,
    'CPU stretch: the CPU the main thread used in its longest stretch without turning the event loop (tools/bench/loop-hold.js); hold: the longest event-loop delay,',
    "which on a shared machine also counts waiting for a core. Memory: the process's peak resident size during the import (VmHWM, reset before it) less its size before.",
    '',
    `Worst CPU stretch **${worstCpu.toFixed(1)} ms** (limit ${LIMIT_MS}) ${worstCpu <= LIMIT_MS ? '✓' : '✗'}; most memory grown **${worstMb.toFixed(0)} MB** (limit ${LIMIT_MB}) ${worstMb <= LIMIT_MB ? '✓' : '✗'}; failed imports: ${failed.length}.`,
    '',
    '| import | time ms | CPU stretch ms | hold ms | memory grown MB | answer |',
    '|---|---:|---:|---:|---:|---|',
    ...results.map((r) => `| ${r.label} | ${r.ms} | ${r.cpuHoldMs.toFixed(1)} | ${r.holdMs.toFixed(1)} | ${r.grewMb.toFixed(0)} | ${r.answer} |`),
    '',
  ].join('\n');
  writeReport('imports.md', report);
  await app.close();
  feedServer.close();
  await database.stop();
  process.exit(worstCpu > LIMIT_MS || worstMb > LIMIT_MB || failed.length > 0 ? 1 : 0);
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
