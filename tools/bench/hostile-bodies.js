'use strict';
// npm run bench:hostile-bodies: how long the worst request bodies of at most 1 MiB hold the event loop.
//
// Builds the app, starts an embedded PostgreSQL, and runs the built application IN THIS PROCESS
// (createApp from dist, listening on loopback), so that what is measured is the very loop
// that parses, checks, maps and validates the bodies. Every operation of the app's OpenAPI document
// that takes a JSON body is sent hostile shapes: whole bodies (objects of 80,000 members, of 1,000,
// arrays of 100,000 values, nesting 64 deep, 1 MB strings) and the same shapes in each top-level field
// of the body (arrays of numbers, strings, objects and content blocks, objects of 999 members nested in
// arrays, long strings, deep nesting), with credentials (API key or session cookie; login takes none)
// so that every check after authentication runs too, and a few without any.
//
// The hold of one request is measured by loop-hold.js two ways: the largest event-loop delay while it
// ran (wall-clock: on a shared machine it also counts waiting for a core), and the CPU the main thread
// used in its longest stretch without turning the loop, which is what the bench judges. A request whose
// stretch passes --suspect ms (default 30) is sent twice more and the least of the three kept.
// Prints the worst per shape (and where), writes bench/results/hostile-bodies.md and exits 1 when any
// stretch passes --limit ms (default 100) or any answer is a 5xx.

const { request } = require('node:http');
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const { parseArgs, startDatabase, writeReport } = require('./standalone');
const { startHoldMonitor } = require('./loop-hold');

const args = parseArgs(process.argv.slice(2));
const LIMIT_MS = Number(args.limit ?? 100);
const SUSPECT_MS = Number(args.suspect ?? 30);
const ONLY = args.only ? new RegExp(args.only) : null;
const ROOT = path.resolve(__dirname, '..', '..');
const ORIGIN = 'http://localhost:3000';
const MIB = 1024 * 1024;

const log = (text) => process.stdout.write(`${text}\n`);


function send(base, method, url, headers, payload) {
  return new Promise((resolve, reject) => {
    const req = request(
      `${base}${url}`,
      { method, headers: { ...headers, 'Content-Type': 'application/json', 'Content-Length': payload.length }, agent: false },
      (res) => {
        const chunks = [];
        res.on('data', (c) => chunks.push(c));
        res.on('end', () => resolve({ status: res.statusCode, headers: res.headers, text: Buffer.concat(chunks).toString() }));
      },
    );
    req.on('error', reject);
    req.end(payload);
  });
}

// ---- shapes ---------------------------------------------------------------------------------------

/** An object of `count` members k0…, valued 1. */
const members = (count) => {
  const object = {};
  for (let i = 0; i < count; i++) object[`k${i}`] = 1;
  return object;
};
const nestedObjects = (depth) => {
  let value = 1;
  for (let i = 0; i < depth; i++) value = { a: value };
  return value;
};
const nestedArrays = (depth) => {
  let value = [];
  for (let i = 1; i < depth; i++) value = [value];
  return value;
};
const block = (i) => ({ type: 'paragraph', text: `p${i}` });

/** Whole bodies (the top-level value), each at most 1 MiB. */
const BODY_SHAPES = {
  'body: object of 80,000 members': () => members(80_000),
  'body: object of 1,000 members': () => members(1_000),
  'body: array of 99,999 numbers': () => new Array(99_999).fill(1),
  'body: array of 99,999 strings': () => new Array(99_999).fill('ab'),
  'body: 99 objects of 999 members in an array': () => Array.from({ length: 99 }, () => members(999)),
  'body: objects nested 64 deep': () => nestedObjects(63),
  'body: arrays nested 64 deep': () => nestedArrays(64),
  'body: 1 MB string': () => 'x'.repeat(MIB - 16),
};

/** Values put into one top-level field of an otherwise plausible body (the body stays ≤ 1 MiB). */
const FIELD_SHAPES = {
  'field: array of 99,990 numbers': () => new Array(99_990).fill(1),
  'field: array of 99,990 strings': () => new Array(99_990).fill('ab'),
  'field: array of 99,990 UUIDs': () => new Array(Math.floor((MIB - 4096) / 39)).fill('0192f0e0-0000-7000-8000-000000000000'),
  'field: array of 49,990 objects {a:1}': () => Array.from({ length: 49_990 }, () => ({ a: 1 })),
  'field: array of 27,000 content blocks': () => Array.from({ length: 27_000 }, (_, i) => block(i)),
  'field: array of 20,000 weekly rules': () => Array.from({ length: 20_000 }, () => ({ days: ['mon'], start: '09:00', end: '10:00' })),
  'field: array of 99 objects of 999 members': () => Array.from({ length: 99 }, () => members(999)),
  'field: object of 1,000 members': () => members(1_000),
  'field: 1,500 objects nested 62 deep': () => Array.from({ length: 1_500 }, () => nestedObjects(62)),
  'field: objects nested 63 deep': () => nestedObjects(62),
  'field: 1 MB string': () => 'x'.repeat(MIB - 4096),
  'field: 170,000 escaped characters': () => '\u00e9\n'.repeat(85_000),
};

// ---- the app --------------------------------------------------------------------------------------

/** Fills `{name}` path parameters with ids of real records where the bench made one, else a fresh UUID. */
function concretePath(template, ids) {
  return template.replace(/\{([^}]+)\}/g, (_, name) => ids[name] ?? '0192f0e0-0000-7000-8000-00000000beef');
}

/** The request body's top-level properties (through a $ref). */
function bodyFields(document, operation) {
  let schema = operation.requestBody?.content?.['application/json']?.schema;
  if (!schema) return null;
  if (schema.$ref) schema = document.components.schemas[schema.$ref.split('/').pop()];
  return Object.keys(schema.properties ?? {});
}

async function main() {
  const database = await startDatabase('hostile-bodies', args);
  const { createApp } = require(path.join(ROOT, 'dist/apps/api/src/bootstrap'));
  const { AppConfig } = require(path.join(ROOT, 'dist/libs/shared/src'));
  const { IdentityService } = require(path.join(ROOT, 'dist/libs/identity/src'));
  const config = new AppConfig({
    databaseUrl: database.url,
    appUrl: ORIGIN,
    logLevel: 'silent',
    seedDemo: false,
    rateLimitPerMinute: 0,
    webhookDispatcher: false,
  });
  const { app, document } = await createApp({ config, quiet: true, shutdownHooks: false });
  await app.listen(0, '127.0.0.1');
  const base = `http://127.0.0.1:${app.getHttpServer().address().port}`;

  // An organization with a key, an admin with a session, and a few records for the path ids.
  const identity = app.get(IdentityService);
  const org = await identity.createOrganization('Hostile bodies');
  const key = (await identity.createApiKey({ organizationId: org.id })).key;
  await identity.createUser({ organizationId: org.id, email: 'admin@bench.example', name: 'Admin', password: 'correct horse battery', role: 'admin' });
  const bearer = { Authorization: `Bearer ${key}` };
  const login = await send(base, 'POST', '/api/auth/login', { Origin: ORIGIN }, Buffer.from(JSON.stringify({ email: 'admin@bench.example', password: 'correct horse battery' })));
  if (login.status !== 200) throw new Error(`login answered ${login.status}`);
  const cookie = { Cookie: String(login.headers['set-cookie'][0]).split(';')[0], Origin: ORIGIN };
  const created = async (url, body) => {
    const answer = await send(base, 'POST', url, bearer, Buffer.from(JSON.stringify(body)));
    if (answer.status !== 201) throw new Error(`POST ${url} answered ${answer.status}: ${answer.text}`);
    return JSON.parse(answer.text).data.id;
  };
  const scheduleId = await created('/api/v1/schedules', { name: 'Room' });
  const ids = {
    organizationId: org.id,
    scheduleId,
    eventId: await created('/api/v1/events', { title: 'Talk', start_date: '2031-01-01', slots: 10, status: 'published' }),
  };

  const operations = [];
  for (const [template, item] of Object.entries(document.paths)) {
    for (const method of ['post', 'put', 'patch']) {
      const operation = item[method];
      if (!operation) continue;
      const fields = bodyFields(document, operation);
      if (!fields) continue;
      const schemes = (operation.security ?? []).flatMap((s) => Object.keys(s));
      const credentials = schemes.includes('session') || schemes.some((s) => /cookie/i.test(s)) ? cookie : schemes.length > 0 ? bearer : {};
      operations.push({ name: `${method.toUpperCase()} ${template}`, method: method.toUpperCase(), url: concretePath(template, ids), fields, credentials });
    }
  }

  const monitor = startHoldMonitor();
  const measure = async (op, headers, payload) => {
    const once = async () => {
      await new Promise((r) => setImmediate(r));
      monitor.reset();
      const answer = await send(base, op.method, op.url, headers, payload);
      // The delay histogram records a stretch when its timer next fires: give it a turn.
      await new Promise((r) => setTimeout(r, 5));
      const { holdMs, cpuHoldMs } = monitor.read();
      return { status: answer.status, holdMs, cpuHoldMs, code: /"code":"([a-z_]+)"/.exec(answer.text)?.[1] };
    };
    let result = await once();
    if (result.cpuHoldMs > SUSPECT_MS) {
      for (let i = 0; i < 2; i++) {
        const again = await once();
        if (again.cpuHoldMs < result.cpuHoldMs) result = again;
      }
    }
    return result;
  };

  const cases = [];
  for (const op of operations) {
    const variants = [];
    for (const [shape, make] of Object.entries(BODY_SHAPES)) variants.push({ shape, body: make });
    for (const field of op.fields) {
      for (const [shape, make] of Object.entries(FIELD_SHAPES)) variants.push({ shape, field, body: () => ({ ...plausible(op), [field]: make() }) });
    }
    for (const variant of variants) {
      const label = `${op.name}${variant.field ? ` .${variant.field}` : ''} ← ${variant.shape}`;
      if (ONLY && !ONLY.test(label)) continue;
      const payload = Buffer.from(JSON.stringify(variant.body()));
      if (payload.length > MIB) throw new Error(`${label}: ${payload.length} bytes, over 1 MiB`);
      const result = await measure(op, op.credentials, payload);
      cases.push({ op: op.name, field: variant.field, shape: variant.shape, bytes: payload.length, authenticated: true, ...result });
      if (result.status >= 500 || 'verbose' in args) log(`${label} → ${result.status} ${result.code ?? ''} hold ${result.holdMs.toFixed(1)} ms, CPU stretch ${result.cpuHoldMs.toFixed(1)} ms`);
    }
    // Without credentials the body check still runs (before the key or session is looked at).
    if (Object.keys(op.credentials).length > 0 && (!ONLY || ONLY.test(`${op.name} unauthenticated`))) {
      const payload = Buffer.from(JSON.stringify(members(80_000)));
      const result = await measure(op, {}, payload);
      cases.push({ op: op.name, shape: 'body: object of 80,000 members, no credentials', bytes: payload.length, authenticated: false, ...result });
    }
    const mine = cases.filter((c) => c.op === op.name);
    if (mine.length > 0) log(`${op.name}: ${mine.length} bodies, worst CPU stretch ${Math.max(...mine.map((c) => c.cpuHoldMs)).toFixed(1)} ms`);
  }
  monitor.stop();

  const shapes = new Map();
  for (const c of cases) {
    const worst = shapes.get(c.shape);
    if (!worst || c.cpuHoldMs > worst.cpuHoldMs) shapes.set(c.shape, c);
  }
  const worstAll = Math.max(...cases.map((c) => c.cpuHoldMs));
  const worstHold = Math.max(...cases.map((c) => c.holdMs));
  const errors = cases.filter((c) => c.status >= 500);
  const statuses = [...new Set(cases.map((c) => `${c.status} ${c.code ?? ''}`.trim()))].sort();
  const rows = [...shapes.values()].sort((a, b) => b.cpuHoldMs - a.cpuHoldMs);
  const report = [
    `# Hostile request bodies (npm run bench:hostile-bodies), ${new Date().toISOString()}`,
    '',
    `Machine: ${os.cpus().length} cores, load average ${os.loadavg().map((l) => l.toFixed(1)).join(' ')} at the end. The built app in the bench's process on an embedded PostgreSQL;`,
    `${operations.length} operations that take a JSON body, ${cases.length} bodies of at most 1 MiB, one at a time, with credentials (and the 80,000-member body also without).`,
    "CPU stretch: the CPU the main thread used in its longest stretch without turning the event loop (tools/bench/loop-hold.js), judged against the limit;",
    `hold: the largest event-loop delay (monitorEventLoopDelay), which on a shared machine also counts waiting for a core. Above ${SUSPECT_MS} ms the request is sent twice more and the least of three kept.`,
    '',
    `Worst CPU stretch: **${worstAll.toFixed(1)} ms** (limit ${LIMIT_MS} ms) ${worstAll <= LIMIT_MS ? '✓' : '✗'}; worst hold ${worstHold.toFixed(1)} ms; 5xx answers: ${errors.length}. Answers seen: ${statuses.join(', ')}.`,
    '',
    '| shape | CPU stretch ms | hold ms | where (worst) | bytes | answer |',
    '|---|---:|---:|---|---:|---|',
    ...rows.map((c) => `| ${c.shape} | ${c.cpuHoldMs.toFixed(1)} | ${c.holdMs.toFixed(1)} | ${c.op}${c.field ? ` \`${c.field}\`` : ''} | ${c.bytes} | ${c.status} ${c.code ?? ''} |`),
    '',
  ].join('\n');
  if (ONLY) fs.mkdirSync(path.join(ROOT, 'bench', 'results', 'quick'), { recursive: true });
  writeReport(ONLY ? 'quick/hostile-bodies.md' : 'hostile-bodies.md', report);
  await app.close();
  await database.stop();
  process.exit(worstAll > LIMIT_MS || errors.length > 0 ? 1 : 0);

  /** A body the operation would mostly accept, so that the hostile field is what the checks meet. */
  function plausible(op) {
    const known = {
      email: 'admin@bench.example',
      password: 'wrong password, surely',
      name: 'Bench',
      title: 'Bench',
      schedule_id: ids.scheduleId,
      start_time: '2031-01-06T10:00:00Z',
      end_time: '2031-01-06T11:00:00Z',
      attendee: { name: 'Ada', email: 'ada@example.com' },
      url: 'https://calendar.example.com/feed.ics',
      provider: 'ics',
      organizationId: org.id,
    };
    return Object.fromEntries(op.fields.filter((f) => f in known).map((f) => [f, known[f]]));
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
