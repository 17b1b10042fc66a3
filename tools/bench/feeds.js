'use strict';
// npm run bench:feeds: the calendar feed of a schedule with 2,000 bookings in its window (--bookings=N;
// a feed shows at most 2,000, the nearest to now), and the blog's Atom feed of 50 published posts of
// 500 blocks each, one client. Measures GET /calendar/{token}.ics rendered anew (a booking changes
// before each request), unchanged (200 from the rendered-feed cache) and conditional (304), and the
// full render (200) and the conditional answer (304) of GET /public/v1/posts.atom?key=…, against
// GET /api/v1/bookings/{id} (a one-row read), each for --requests requests in turn after a warm-up.
// Targets: each render p95 < 50 ms; a 304 costs no more than a one-row read. Writes bench/results/feeds.md
// (--report=NAME.md: another file; --only=atom or --only=calendar: one feed; --requests=N).

const { request } = require('node:http');
const { createHash, randomBytes } = require('node:crypto');
const os = require('node:os');
const { parseArgs, startDatabase, createTenant, startServer, writeReport } = require('./standalone');
const { apiCpuMs, databaseCpuMsBetween } = require('./process-cpu');

const args = parseArgs(process.argv.slice(2));
const REQUESTS = Number(args.requests ?? 300);
const BOOKINGS = Number(args.bookings ?? 2000);
const POSTS = 50;
const BLOCKS = 500;

/**
 * 50 published posts of 500 blocks, in the proportions a long article has (paragraphs of one to three
 * sentences, headings, lists, quotes, images), with text that needs escaping (`&`, `<`, quotes).
 */
async function seedPosts(db, orgId) {
  const sentence = (i) => `Scheduling note ${i}: teams & calendars <rarely> agree on "when", so we book early and write it down.`;
  const block = (i) => {
    switch (i % 10) {
      case 0:
        return { type: 'heading', level: 2 + (i % 3), text: `Section ${i} & more` };
      case 3:
        return { type: 'list', items: [sentence(i).slice(0, 40), 'Plan the week', 'Book the room'] };
      case 6:
        return { type: 'quote', text: sentence(i), author: 'Grace <Hopper>' };
      case 8:
        return { type: 'image', url: `https://cdn.example.com/img/${i}.png?w=800&h=600`, alt: `Figure ${i} "chart"` };
      default:
        return { type: 'paragraph', text: i % 2 ? sentence(i) : `${sentence(i)} ${sentence(i + 1)}` };
    }
  };
  const content = JSON.stringify(Array.from({ length: BLOCKS }, (_, i) => block(i)));
  await db.query(
    `INSERT INTO posts (id, organization_id, title, slug, excerpt, content, status, is_featured, published_at, created_at, updated_at)
     SELECT gen_random_uuid(), $1, 'Post ' || g || ' & friends', 'post-' || g, 'What we learned, part ' || g, $2::jsonb, 'published', false,
            now() - g * interval '1 hour', now(), now()
       FROM generate_series(1, $3) g`,
    [orgId, content, POSTS],
  );
  await db.query('VACUUM ANALYZE posts');
  const key = `alm_pub_${randomBytes(24).toString('base64url').replace(/[-_]/g, 'x').slice(0, 32)}`;
  await db.query(
    `INSERT INTO api_keys (id, organization_id, name, prefix, key_hash, kind, scopes, site_url)
     VALUES (gen_random_uuid(), $1, 'site', $2, $3, 'publishable', ARRAY['posts:read', 'events:read'], 'https://www.example.com/blog')`,
    [orgId, key.slice(0, 12), createHash('sha256').update(key).digest('hex')],
  );
  return key;
}

function get(url, headers = {}) {
  return new Promise((resolve, reject) => {
    const started = process.hrtime.bigint();
    const req = request(url, { headers }, (res) => {
      let text = '';
      res.on('data', (c) => (text += c));
      res.on('end', () => resolve({ status: res.statusCode, headers: res.headers, text, ms: Number(process.hrtime.bigint() - started) / 1e6 }));
    });
    req.on('error', reject);
    req.end();
  });
}

const stats = (values) => {
  const s = [...values].sort((a, b) => a - b);
  const at = (p) => s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))];
  return { p50: at(50).toFixed(2), p95: at(95).toFixed(2), p99: at(99).toFixed(2) };
};

/**
 * --requests requests in turn after 30 warm-up ones, `before` ahead of each (not timed): latency
 * percentiles, and µs of CPU per request of the server process and of its database sessions over the
 * measured requests (steadier than latency when other work shares the machine).
 */
async function measure(server, db, url, headers, expectStatus, before = async () => undefined) {
  for (let i = 0; i < 30; i++) {
    await before();
    await get(url, headers);
  }
  const times = [];
  let node = 0;
  let database = 0;
  for (let i = 0; i < REQUESTS; i++) {
    await before();
    const cpuBefore = await apiCpuMs(db, server.pid);
    const res = await get(url, headers);
    const cpuAfter = await apiCpuMs(db, server.pid);
    if (res.status !== expectStatus) throw new Error(`${url} answered ${res.status}, expected ${expectStatus}`);
    times.push(res.ms);
    node += cpuAfter.node - cpuBefore.node;
    database += databaseCpuMsBetween(cpuBefore, cpuAfter);
  }
  return { ...stats(times), cpuNode: ((node * 1000) / REQUESTS).toFixed(0), cpuDatabase: ((database * 1000) / REQUESTS).toFixed(0) };
}

async function main() {
  const database = await startDatabase('feeds', args);
  const { db } = database;
  const tenant = await createTenant(db, ['bookings:read', 'bookings:write']);
  const org = { id: tenant.orgId };
  const [schedule] = (await db.query(`INSERT INTO schedules (id, organization_id, name, timezone, created_at, updated_at) VALUES (gen_random_uuid(), $1, 'Bench room', 'UTC', now(), now()) RETURNING id`, [org.id])).rows;
  // BOOKINGS bookings back to back from tomorrow (an hour each, shorter when that many would not fit
  // in the 366 days ahead), with titles that need escaping and folding.
  const minutes = Math.max(1, Math.min(60, Math.floor((365 * 24 * 60) / BOOKINGS)));
  await db.query(
    `INSERT INTO bookings (id, organization_id, schedule_id, start_time, end_time, timezone, status, title, location, attendee_name, attendee_email, metadata, created_at, updated_at)
     SELECT gen_random_uuid(), $1, $2, date_trunc('day', now()) + interval '1 day' + g * $4 * interval '1 minute',
            date_trunc('day', now()) + interval '1 day' + (g + 1) * $4 * interval '1 minute', 'UTC',
            (ARRAY['PENDING','CONFIRMED'])[1 + g % 2], 'Consultation, room ' || g || '; notes: ' || repeat('é', 40), 'Floor 2, Room ' || g % 9,
            'Attendee ' || g, 'a' || g || '@example.com', '{}', now(), now()
       FROM generate_series(0, $3 - 1) g`,
    [org.id, schedule.id, BOOKINGS, minutes],
  );
  await db.query('VACUUM ANALYZE bookings');
  const [one] = (await db.query('SELECT id FROM bookings WHERE organization_id = $1 LIMIT 1', [org.id])).rows;
  const publishableKey = await seedPosts(db, org.id);
  const [nearest] = (await db.query('SELECT id FROM bookings WHERE organization_id = $1 ORDER BY start_time LIMIT 1', [org.id])).rows;

  const server = await startServer(database, { WEBHOOK_DISPATCHER: 'false' });
  const { base } = server;
  const auth = tenant.auth;
  const created = await new Promise((resolve, reject) => {
    const req = request(`${base}/api/v1/schedules/${schedule.id}/calendar-feed`, { method: 'POST', headers: auth }, (res) => {
      let text = '';
      res.on('data', (c) => (text += c));
      res.on('end', () => resolve(JSON.parse(text)));
    });
    req.on('error', reject);
    req.end();
  });
  const feedUrl = `${base}${new URL(created.data.url).pathname}`;
  const first = await get(feedUrl);
  const events = (first.text.match(/BEGIN:VEVENT/g) ?? []).length;
  // A change to the nearest booking before each request: a new ETag, so the feed is read and rendered.
  const touch = () => db.query('UPDATE bookings SET title = title WHERE id = $1', [nearest.id]);
  const only = args.only ? String(args.only).split(',') : ['calendar', 'atom'];
  const run = (...a) => measure(server, db, ...a);
  const rows = [];
  const row = (label, m, target = '') => rows.push(`| ${label} | ${m.p50} | ${m.p95} | ${m.p99} | ${m.cpuNode} + ${m.cpuDatabase} | ${target} |`);
  const oneRow = await run(`${base}/api/v1/bookings/${one.id}`, auth, 200);
  if (only.includes('calendar')) {
    const render = await run(feedUrl, {}, 200, touch);
    const cached = await run(feedUrl, {}, 200);
    const notModified = await run(feedUrl, { 'If-None-Match': (await get(feedUrl)).headers.etag }, 304);
    row('calendar feed, changed: read and rendered (200)', render, `p95 < 50 ${Number(render.p95) < 50 ? '✓' : '✗'}`);
    row('calendar feed, unchanged: from memory by its ETag (200)', cached);
    row('calendar feed, If-None-Match (304)', notModified, `≤ one-row read ${Number(notModified.p95) <= Number(oneRow.p95) * 1.1 ? '✓' : '✗'}`);
  }
  const atomUrl = `${base}/public/v1/posts.atom?key=${publishableKey}`;
  const atomFirst = await get(atomUrl);
  if (atomFirst.status !== 200) throw new Error(`the Atom feed answered ${atomFirst.status}`);
  const entries = (atomFirst.text.match(/<entry>/g) ?? []).length;
  if (only.includes('atom')) {
    const [newest] = (await db.query(`SELECT id FROM posts WHERE organization_id = $1 ORDER BY published_at DESC LIMIT 1`, [org.id])).rows;
    // Every post written before each request: each entry's version changes, so all 50 are read and rendered.
    const touchAll = () => db.query('UPDATE posts SET title = title WHERE organization_id = $1', [org.id]);
    // The newest post written before each request: a new feed, one entry of which changed.
    const touchNewest = () => db.query('UPDATE posts SET title = title WHERE id = $1', [newest.id]);
    const atomAll = await run(atomUrl, {}, 200, touchAll);
    const atomOne = await run(atomUrl, {}, 200, touchNewest);
    const atomSame = await run(atomUrl, {}, 200);
    const atomNotModified = await run(atomUrl, { 'If-None-Match': (await get(atomUrl)).headers.etag }, 304);
    const target = (m) => `p95 < 50 ${Number(m.p95) < 50 ? '✓' : '✗'}`;
    row(`Atom feed, ${POSTS} posts × ${BLOCKS} blocks, every post changed: all read and rendered (200)`, atomAll, target(atomAll));
    row('Atom feed, the newest post changed (200)', atomOne, target(atomOne));
    row('Atom feed, unchanged (200)', atomSame, target(atomSame));
    row('Atom feed, If-None-Match (304)', atomNotModified, 'no content read');
  }
  row('GET /api/v1/bookings/{id} (one row)', oneRow);

  const load = os.loadavg().map((l) => l.toFixed(1)).join(' / ');
  const report = [
    `# Calendar and Atom feeds (npm run bench:feeds ${process.argv.slice(2).join(' ')}), ${new Date().toISOString()}`,
    '',
    `Machine: ${os.cpus().length} × ${os.cpus()[0]?.model ?? 'CPU'}, shared; load average at the end ${load} (1 / 5 / 15 min). Built server, embedded PostgreSQL, one client, ${REQUESTS} requests each after 30 warm-up.`,
    `Calendar feed: ${BOOKINGS.toLocaleString('en')} bookings in the window, ${events} VEVENTs shown, ${(Buffer.byteLength(first.text) / 1024).toFixed(0)} KiB. Atom feed: ${entries} entries of ${BLOCKS} blocks, ${(Buffer.byteLength(atomFirst.text) / 1024).toFixed(0)} KiB.`,
    'CPU: µs per request of the server process + its database sessions (from /proc, 10 ms ticks summed over the requests): what a request costs whatever the load; latency grows with the load average.',
    '',
    '| request | p50 ms | p95 ms | p99 ms | CPU µs (server + database) | target |',
    '|---|---:|---:|---:|---:|---|',
    ...rows,
    '',
  ].join('\n');
  writeReport(args.report ?? 'feeds.md', report);
  await server.stop();
  await database.stop();
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
