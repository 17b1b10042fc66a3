'use strict';
// npm run bench:webhooks: webhook delivery measured end to end on this machine.
//
// Builds the app, starts an embedded PostgreSQL and the BUILT server (dispatcher on, 50 ms poll), a
// loopback receiver, then:
//  1. lag: writes 200 events/s (POST /api/v1/posts through the API, each one transaction with its
//     outbox row) for --duration seconds; lag = receiver time − the event's created_at; p50/p95/p99;
//  2. throughput: 10,000 committed events at once (inserted into the outbox in one statement), timed
//     until the receiver has every delivery: sustained deliveries/s.
// Targets (issue 14): lag p95 < 1 s at 200 events/s; ≥ 500 deliveries/s. Writes bench/results/webhooks.md.

const { createServer, request } = require('node:http');
const os = require('node:os');
const { parseArgs, startDatabase, createTenant, startServer, writeReport } = require('./standalone');

const args = parseArgs(process.argv.slice(2));
const DURATION_S = Number(args.duration ?? 10);
const RATE = Number(args.rate ?? 200);
const BURST = Number(args.burst ?? 10_000);

const log = (text) => process.stdout.write(`${text}\n`);

function post(url, headers, body) {
  const payload = JSON.stringify(body);
  return new Promise((resolve, reject) => {
    const req = request(url, { method: 'POST', headers: { ...headers, 'Content-Type': 'application/json', 'Content-Length': Buffer.byteLength(payload) } }, (res) => {
      let text = '';
      res.on('data', (c) => (text += c));
      res.on('end', () => resolve({ status: res.statusCode, body: text ? JSON.parse(text) : undefined }));
    });
    req.on('error', reject);
    req.end(payload);
  });
}

const percentile = (sorted, p) => sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];

async function main() {
  const database = await startDatabase('webhooks', args);
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
  const { base } = server;
  // Subscribing to every event type (`*`) needs the scope that reads each.
  const tenant = await createTenant(db, ['posts:write', 'webhooks:write', 'bookings:read', 'events:read', 'posts:read', 'webhooks:read']);
  const org = { id: tenant.orgId };
  const auth = tenant.auth;
  const hook = await post(`${base}/api/v1/webhooks`, auth, { url: receiverUrl, events: ['*'] });
  if (hook.status !== 201) throw new Error(`could not subscribe: ${JSON.stringify(hook.body)}`);

  // 1. Lag at RATE events/s.
  log(`lag: ${RATE} events/s for ${DURATION_S} s …`);
  const total = RATE * DURATION_S;
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

  // 2. Throughput: BURST events committed at once.
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

  const report = [
    `# Webhook delivery (npm run bench:webhooks), ${new Date().toISOString()}`,
    '',
    `Machine: ${os.cpus().length} cores. Built server, embedded PostgreSQL, loopback receiver, 50 ms poll.`,
    '',
    `| measure | result | target |`,
    `|---|---:|---|`,
    `| lag p50 at ${RATE} events/s (${total} events) | ${lag.p50} ms | |`,
    `| lag p95 | ${lag.p95} ms | < 1000 ms ${lag.p95 < 1000 ? '✓' : '✗'} |`,
    `| lag p99 / max | ${lag.p99} / ${lag.max} ms | |`,
    `| sustained deliveries (${BURST} at once) | ${perSecond}/s | ≥ 500/s ${perSecond >= 500 ? '✓' : '✗'} |`,
    '',
  ].join('\n');
  writeReport('webhooks.md', report);
  await server.stop();
  receiver.close();
  await database.stop();
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
