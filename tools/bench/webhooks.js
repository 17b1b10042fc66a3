'use strict';
// npm run bench:webhooks: webhook delivery measured end to end on this machine.
//
// Builds the app, starts an embedded PostgreSQL and the BUILT server (dispatcher on, 50 ms poll), a
// loopback receiver, then:
//  1. lag: writes 200 events/s (POST /api/v1/posts through the API, each one transaction with its
//     outbox row) for --duration seconds; lag = receiver time − the event's created_at; p50/p95/p99;
//  2. throughput: 10,000 committed events at once (inserted into the outbox in one statement), timed
//     until the receiver has every delivery: sustained deliveries/s;
//  3. isolation: organization A's endpoints hang (they take the request and never answer) while
//     organization B's healthy endpoint waits for its events: (a) 24 hanging endpoints and 40 posts
//     (960 deliveries), (b) 150 pings to one hanging endpoint; B writes a post every second and the
//     time from its write's answer to its delivery is measured (waited for at most --isolation-cap s).
// Targets: lag p95 < 1 s at 200 events/s; ≥ 500 deliveries/s; B's deliveries within 3 s while A hangs.
// `--only=lag,throughput,isolation` runs some of them. Writes bench/results/webhooks.md.

const { Agent, createServer, request } = require('node:http');
const os = require('node:os');
const { parseArgs, startDatabase, createTenant, startServer, writeReport } = require('./standalone');

const args = parseArgs(process.argv.slice(2));
const DURATION_S = Number(args.duration ?? 10);
const RATE = Number(args.rate ?? 200);
const BURST = Number(args.burst ?? 10_000);
const ONLY = (args.only ?? 'lag,throughput,isolation').split(',');
const ISOLATION_CAP_S = Number(args['isolation-cap'] ?? 240);

const log = (text) => process.stdout.write(`${text}\n`);

/** Every read scope, and writing posts and webhooks: what subscribing to `*` and writing posts need. */
const READ_ALL = ['posts:write', 'webhooks:write', 'bookings:read', 'events:read', 'posts:read', 'webhooks:read'];

/**
 * At most 50 connections, kept alive, as the main bench's clients: on a loaded machine a new
 * connection per waiting write overflows the server's accept queue (the kernel answers with resets).
 */
const agent = new Agent({ keepAlive: true, maxSockets: 50 });
/** What to stop if the run fails half-way (the server and the database), newest first. */
const cleanups = [];

const post = (url, headers, body) => send('POST', url, headers, body);
const patch = (url, headers, body) => send('PATCH', url, headers, body);

function send(method, url, headers, body, retried = false) {
  const payload = JSON.stringify(body);
  return new Promise((resolve, reject) => {
    const req = request(url, { agent, method, headers: { ...headers, 'Content-Type': 'application/json', 'Content-Length': Buffer.byteLength(payload) } }, (res) => {
      let text = '';
      res.on('data', (c) => (text += c));
      res.on('end', () => resolve({ status: res.statusCode, body: text ? JSON.parse(text) : undefined }));
    });
    req.on('error', (error) => {
      // A kept-alive connection the server closed just as it was reused: the request never reached it.
      if (req.reusedSocket && !retried && (error.code === 'ECONNRESET' || error.code === 'EPIPE')) resolve(send(method, url, headers, body, true));
      else reject(error);
    });
    req.end(payload);
  });
}

const percentile = (sorted, p) => sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];

async function main() {
  const database = await startDatabase('webhooks', args);
  cleanups.unshift(() => database.stop());
  const { db } = database;

  const received = [];
  let expected = Infinity;
  let done = () => undefined;
  const receiver = createServer((req, res) => {
    let body = '';
    req.on('data', (c) => (body += c));
    req.on('end', () => {
      received.push({ at: Date.now(), created: Date.parse(JSON.parse(body).created_at) });
      res.end('ok');
      if (received.length >= expected) done();
    });
  });
  await new Promise((r) => receiver.listen(0, '127.0.0.1', r));
  const receiverUrl = `http://127.0.0.1:${receiver.address().port}/hook`;

  const server = await startServer(database, { WEBHOOK_ALLOW_PRIVATE_HOSTS: 'true', WEBHOOK_POLL_MS: '50' });
  cleanups.unshift(() => server.stop());
  const { base } = server;
  // Subscribing to every event type (`*`) needs the scope that reads each.
  const tenant = await createTenant(db, READ_ALL);
  const org = { id: tenant.orgId };
  const auth = tenant.auth;
  const hook = await post(`${base}/api/v1/webhooks`, auth, { url: receiverUrl, events: ['*'] });
  if (hook.status !== 201) throw new Error(`could not subscribe: ${JSON.stringify(hook.body)}`);

  const rows = [];

  // 1. Lag at RATE events/s.
  if (ONLY.includes('lag')) {
    log(`lag: ${RATE} events/s for ${DURATION_S} s …`);
    const total = RATE * DURATION_S;
    received.length = 0;
    expected = total;
    const allLag = new Promise((r) => (done = r));
    const started = Date.now();
    const writes = [];
    for (let i = 0; i < total; i++) {
      const due = started + (i * 1000) / RATE;
      const wait = due - Date.now();
      if (wait > 0) await new Promise((r) => setTimeout(r, wait));
      writes.push(post(`${base}/api/v1/posts`, auth, { title: `p${i}`, slug: `p-${i}` }));
    }
    const answers = await Promise.all(writes);
    const failed = answers.filter((a) => a.status !== 201).length;
    await allLag;
    const lags = received.map((r) => r.at - r.created).sort((a, b) => a - b);
    const lag = { p50: percentile(lags, 50), p95: percentile(lags, 95), p99: percentile(lags, 99), max: lags[lags.length - 1] };
    log(`lag ms: p50 ${lag.p50}, p95 ${lag.p95}, p99 ${lag.p99}, max ${lag.max} (${failed} failed writes)`);
    rows.push(
      `| lag p50 at ${RATE} events/s (${total} events) | ${lag.p50} ms | |`,
      `| lag p95 | ${lag.p95} ms | < 1000 ms ${lag.p95 < 1000 ? '✓' : '✗'} |`,
      `| lag p99 / max | ${lag.p99} / ${lag.max} ms | |`,
    );
  }

  // 2. Throughput: BURST events committed at once.
  if (ONLY.includes('throughput')) {
    received.length = 0;
    expected = BURST;
    const allBurst = new Promise((r) => (done = r));
    const burstStart = Date.now();
    await db.query(
      `INSERT INTO outbox_events (id, organization_id, type, data, created_at)
       SELECT gen_random_uuid(), $1, 'post.updated', jsonb_build_object('id', g), now() FROM generate_series(1, $2) g`,
      [org.id, BURST],
    );
    await allBurst;
    const seconds = (Date.now() - burstStart) / 1000;
    const perSecond = Math.round(BURST / seconds);
    log(`throughput: ${BURST} deliveries in ${seconds.toFixed(1)} s = ${perSecond}/s`);
    rows.push(`| sustained deliveries (${BURST} at once) | ${perSecond}/s | ≥ 500/s ${perSecond >= 500 ? '✓' : '✗'} |`);
  }

  // 3. Isolation: organization A's endpoints hang; how long does organization B wait?
  if (ONLY.includes('isolation')) {
    await patch(`${base}/api/v1/webhooks/${hook.body.data.id}`, auth, { enabled: false });
    const hanging = createServer(() => undefined); // takes every request, answers none
    const sockets = new Set();
    hanging.on('connection', (socket) => (sockets.add(socket), socket.on('close', () => sockets.delete(socket))));
    await new Promise((r) => hanging.listen(0, '127.0.0.1', r));
    const hangingBase = `http://127.0.0.1:${hanging.address().port}`;
    const b = await createTenant(db, READ_ALL);
    const arrivals = new Map();
    const healthy = createServer((req, res) => {
      let body = '';
      req.on('data', (c) => (body += c));
      req.on('end', () => {
        arrivals.set(JSON.parse(body).data.slug, Date.now());
        res.end('ok');
      });
    });
    await new Promise((r) => healthy.listen(0, '127.0.0.1', r));
    const subscribed = await post(`${base}/api/v1/webhooks`, b.auth, { url: `http://127.0.0.1:${healthy.address().port}/b`, events: ['post.created'] });
    if (subscribed.status !== 201) throw new Error(`could not subscribe B: ${JSON.stringify(subscribed.body)}`);

    /** Resolves once `count` deliveries of the organization exist. */
    const queued = async (orgId, count) => {
      for (;;) {
        const { rows } = await db.query('SELECT count(*)::int AS n FROM webhook_deliveries WHERE organization_id = $1', [orgId]);
        if (rows[0].n >= count) return;
        await new Promise((r) => setTimeout(r, 20));
      }
    };

    /** B writes a post a second, `count` times, and waits for each delivery (at most ISOLATION_CAP_S). */
    const measureB = async (label, count) => {
      const waits = [];
      for (let i = 0; i < count; i++) {
        const slug = `b-${label}-${i}`;
        const answer = await post(`${base}/api/v1/posts`, b.auth, { title: slug, slug });
        const written = Date.now();
        if (answer.status !== 201) throw new Error(`B's write failed: ${answer.status}`);
        waits.push(
          new Promise((resolve) => {
            const check = setInterval(() => {
              const at = arrivals.get(slug);
              if (at !== undefined || Date.now() - written > ISOLATION_CAP_S * 1000) {
                clearInterval(check);
                resolve(at === undefined ? Infinity : at - written);
              }
            }, 5);
          }),
        );
        await new Promise((r) => setTimeout(r, 1000));
      }
      const ms = await Promise.all(waits);
      const shown = (v) => (v === Infinity ? `> ${ISOLATION_CAP_S} s` : `${(v / 1000).toFixed(2)} s`);
      log(`isolation (${label}): B's deliveries after ${ms.map(shown).join(', ')}`);
      return { max: Math.max(...ms), shown: shown(Math.max(...ms)), all: ms.map(shown).join(', ') };
    };

    const quiet = await measureB('alone', 3);
    rows.push(`| B's delivery, A quiet (3 posts) | max ${quiet.shown} | |`);

    // (a) 24 hanging endpoints of A, 40 posts: 960 deliveries that never get an answer.
    const a = await createTenant(db, READ_ALL);
    const aHooks = [];
    for (let i = 0; i < 24; i++) {
      const h = await post(`${base}/api/v1/webhooks`, a.auth, { url: `${hangingBase}/hang-${i}`, events: ['*'] });
      aHooks.push(h.body.data.id);
    }
    await Promise.all(Array.from({ length: 40 }, (_, i) => post(`${base}/api/v1/posts`, a.auth, { title: `a${i}`, slug: `a-${i}` })));
    // B writes once A's backlog is queued (all 960 deliveries fanned out), so its deliveries are due after A's.
    await queued(a.orgId, 960);
    const many = await measureB('24-hanging', 5);
    rows.push(`| B's delivery while A has 24 hanging endpoints and 40 posts (960 deliveries), 5 posts | max ${many.shown} (${many.all}) | ≤ 3 s ${many.max <= 3000 ? '✓' : '✗'} |`);
    for (const id of aHooks) await patch(`${base}/api/v1/webhooks/${id}`, a.auth, { enabled: false });
    for (const socket of sockets) socket.destroy();

    // (b) 150 pings to one hanging endpoint of another organization.
    const c = await createTenant(db, READ_ALL);
    const cHook = (await post(`${base}/api/v1/webhooks`, c.auth, { url: `${hangingBase}/hang-pings`, events: ['*'] })).body.data.id;
    for (let i = 0; i < 150; i++) await post(`${base}/api/v1/webhooks/${cHook}/ping`, c.auth, {});
    const pings = await measureB('150-pings', 5);
    rows.push(`| B's delivery while another organization has 150 pings to one hanging endpoint, 5 posts | max ${pings.shown} (${pings.all}) | ≤ 3 s ${pings.max <= 3000 ? '✓' : '✗'} |`);
    await patch(`${base}/api/v1/webhooks/${cHook}`, c.auth, { enabled: false });
    for (const socket of sockets) socket.destroy();
    hanging.close();
    healthy.close();
  }

  const report = [
    `# Webhook delivery (npm run bench:webhooks), ${new Date().toISOString()}`,
    '',
    `Machine: ${os.cpus().length} cores. Built server, embedded PostgreSQL, loopback receivers, 50 ms poll.`,
    '',
    `| measure | result | target |`,
    `|---|---:|---|`,
    ...rows,
    '',
  ].join('\n');
  writeReport(args.report ?? 'webhooks.md', report);
  await server.stop();
  receiver.close();
  await database.stop();
}

main().catch(async (error) => {
  console.error(error);
  for (const cleanup of cleanups) await cleanup().catch(() => undefined);
  process.exit(1);
});
