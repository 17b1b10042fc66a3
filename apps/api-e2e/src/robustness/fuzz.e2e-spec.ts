import fc from 'fast-check';
import { createTestApp, Tenant, TestApp } from '../support/test-app';

/**
 * A fuzz run of our own over the whole API (issue 12): every operation of the app's OpenAPI document
 * gets generated hostile bodies, queries and path ids — with a valid all-scope key or admin session,
 * so requests get past authentication, and with no credentials at all for the operations that
 * require none (the public routes under /public/v1, as a stranger sends them) — and must never answer
 * 5xx nor bring the process down; every answer under /public/v1 is readable by any origin.
 * `npm test` runs a bounded number of cases per operation; `npm run fuzz` (FUZZ_RUNS) runs more.
 */
const RUNS = Number(process.env['FUZZ_RUNS'] ?? 5);
/**
 * The run's time grows with RUNS (one request per case and operation, ~40 operations): a minute to
 * start, and 4 s per case, enough for 40 requests on a busy 2-core machine.
 */
const TIMEOUT_MS = 60_000 + RUNS * 4_000;
const ORIGIN = 'http://localhost:3000';

const hostileString = fc.oneof(
  fc.string({ maxLength: 40 }),
  fc.string({ unit: 'binary', maxLength: 40 }),
  fc.constantFrom(
    '',
    ' ',
    '\u0000',
    'a\u0000b',
    "' OR 1=1 --",
    '<script>alert(1)</script>',
    '../../etc/passwd',
    '%00',
    '%',
    '9999-12-31',
    '0000-01-01',
    '-000001-01-01T00:00:00Z',
    '2026-02-30',
    '24:00',
    '1e309',
    'NaN',
    'Infinity',
    '\ud800',
    'x'.repeat(10_000),
    'Europe/Nowhere',
    'true',
    '__proto__',
    '0192f0e0-0000-7000-8000-000000000000',
    '*',
  ),
);

/**
 * A lone surrogate cannot be put in a URL (no UTF-8 for it: encodeURIComponent throws, and no client
 * could send it), so in paths and queries it goes as U+FFFD, which a client may send; bodies keep it.
 */
const sendable = (value: string): string => value.replace(/[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g, '\ufffd');

const hostileScalar = fc.oneof(
  hostileString,
  fc.integer(),
  fc.double(),
  fc.constantFrom(0, -1, 2 ** 31, 2 ** 53, -(2 ** 63), 1e308, -1e308, Number.MAX_SAFE_INTEGER + 2),
  fc.boolean(),
  fc.constant(null),
);

const hostileValue: fc.Arbitrary<unknown> = fc.letrec<{ value: unknown }>((tie) => ({
  value: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    hostileScalar,
    fc.array(tie('value'), { maxLength: 4 }),
    fc.dictionary(fc.oneof(fc.string({ maxLength: 8 }), fc.constantFrom('__proto__', 'constructor', 'a.b', '')), tie('value'), { maxKeys: 4 }),
  ),
})).value;

type Json = Record<string, any>;

function resolve(document: Json, schema: Json | undefined): Json | undefined {
  let current = schema;
  for (let i = 0; current && current['$ref'] && i < 10; i++) {
    const path = String(current['$ref']).replace(/^#\//, '').split('/');
    current = path.reduce<Json | undefined>((node, key) => node?.[key], document);
  }
  return current;
}

/** Property names of a request body schema (allOf/oneOf flattened), so generated bodies reach deep validation. */
function propertyNames(document: Json, schema: Json | undefined, depth = 0): string[] {
  const resolved = resolve(document, schema);
  if (!resolved || depth > 3) return [];
  const names = Object.keys(resolved['properties'] ?? {});
  for (const key of ['allOf', 'oneOf', 'anyOf']) {
    for (const part of (resolved[key] as Json[] | undefined) ?? []) names.push(...propertyNames(document, part, depth + 1));
  }
  return [...new Set(names)];
}

function bodyArbitrary(names: string[]): fc.Arbitrary<unknown> {
  if (names.length === 0) return hostileValue;
  const known = fc.record(Object.fromEntries(names.map((name) => [name, hostileValue])), { requiredKeys: [] });
  return fc.oneof({ weight: 4, arbitrary: known }, { weight: 1, arbitrary: hostileValue });
}

interface Operation {
  method: 'get' | 'post' | 'put' | 'patch' | 'delete';
  path: string;
  queryNames: string[];
  bodyNames: string[] | null;
  session: boolean;
  /** No security requirement: sent without any credentials. */
  open: boolean;
}

describe('fuzzing every operation of the OpenAPI document (e2e)', () => {
  let t: TestApp;
  let a: Tenant;
  let cookie: string;
  let previewToken: string;
  /** Live manage tokens: one the fuzzed cancels may cancel, one the other booking routes keep live. */
  let cancelledToken: string;
  let manageToken: string;
  const operations: Operation[] = [];

  beforeAll(async () => {
    // No rate limits, so that every generated request reaches its handler.
    t = await createTestApp({ config: { rateLimitPerMinute: 0, publicRateLimitPerMinute: 0 } });
    a = await t.tenant();
    const post = await t.api.post('/api/v1/posts').set(a.auth).send({ title: 'Fuzzed', slug: 'fuzzed' }).expect(201);
    const link = await t.api.post(`/api/v1/posts/${post.body.data.id}/preview-link`).set(a.auth).expect(201);
    previewToken = String(link.body.data.url).split('/').pop()!;
    const schedule = await t.api.post('/api/v1/schedules').set(a.auth).send({ name: 'Fuzz room' }).expect(201);
    const eventType = await t.api.post('/api/v1/event-types').set(a.auth).send({ title: 'Fuzz call', duration: 30 }).expect(201);
    const booked = [];
    for (const hour of [10, 11]) {
      const start = new Date(t.clock.now().getTime() + 86_400_000);
      start.setUTCHours(hour, 0, 0, 0);
      const res = await t.api
        .post('/api/v1/bookings')
        .set(a.auth)
        .send({
          schedule_id: schedule.body.data.id,
          event_type_id: eventType.body.data.id,
          start_time: start.toISOString(),
          end_time: new Date(start.getTime() + 1_800_000).toISOString(),
          attendee: { name: 'Fuzz', email: 'fuzz@example.com' },
        })
        .expect(201);
      booked.push(res.body.data.manage_token as string);
    }
    [cancelledToken, manageToken] = booked as [string, string];
    await t.identity.createUser({ organizationId: a.orgId, email: 'fuzz@example.com', name: 'Fuzz', password: 'correct horse battery', role: 'admin' });
    const login = await t.raw().post('/api/auth/login').set('Origin', ORIGIN).send({ email: 'fuzz@example.com', password: 'correct horse battery' });
    cookie = String(login.headers['set-cookie']![0]).split(';')[0]!;
    const document = t.document as Json;
    for (const [path, item] of Object.entries(document['paths'] as Json)) {
      for (const method of ['get', 'post', 'put', 'patch', 'delete'] as const) {
        const operation = (item as Json)[method] as Json | undefined;
        if (!operation || path === '/api/auth/logout') continue;
        const parameters = ((operation['parameters'] as Json[] | undefined) ?? []).map((p) => resolve(document, p)!);
        const body = operation['requestBody']?.content?.['application/json']?.schema as Json | undefined;
        operations.push({
          method,
          path,
          queryNames: parameters.filter((p) => p['in'] === 'query').map((p) => String(p['name'])),
          bodyNames: body ? propertyNames(document, body) : null,
          session: JSON.stringify(operation['security'] ?? []).includes('session'),
          open: Array.isArray(operation['security']) && operation['security'].length === 0,
        });
      }
    }
    expect(operations.length).toBeGreaterThan(30);
    expect(operations.filter((op) => op.open).map((op) => op.path)).toEqual(
      expect.arrayContaining([
        '/public/v1/posts.atom',
        '/public/v1/previews/{token}',
        '/public/v1/bookings/{token}',
        '/public/v1/bookings/{token}/cancel',
        '/public/v1/bookings/{token}/slots',
        '/public/v1/bookings/{token}/reschedule',
      ]),
    );
  });
  afterAll(() => t.close());

  /** A path value that names something, so the handler gets past its lookup. */
  function liveValue(path: string): string {
    if (path.startsWith('/public/v1/previews/')) return previewToken;
    if (path === '/public/v1/bookings/{token}/cancel') return cancelledToken;
    if (path.startsWith('/public/v1/bookings/')) return manageToken;
    return a.orgId;
  }

  it(`sends ${RUNS} hostile requests to every operation and never gets a 5xx`, async () => {
    const failures: string[] = [];
    let sent = 0;
    for (const op of operations) {
      const known = failures.length;
      const input = fc.record({
        // A path id is hostile, or one that names something (so the handler gets past its lookup).
        pathValue: fc.oneof(hostileString, fc.constant(liveValue(op.path))),
        query: fc.dictionary(fc.constantFrom(...(op.queryNames.length ? op.queryNames : ['limit'])), hostileString, { maxKeys: 4 }),
        body: op.bodyNames ? bodyArbitrary(op.bodyNames) : fc.constant(undefined),
      });
      await fc.assert(
        fc.asyncProperty(input, async ({ pathValue, query, body }) => {
          const path = op.path.replace(/\{organizationId\}/g, a.orgId).replace(/\{[^}]+\}/g, () => encodeURIComponent(sendable(pathValue)));
          const sendableQuery = Object.fromEntries(Object.entries(query).map(([name, value]) => [name, sendable(value)]));
          let request = t.raw()[op.method](path).query(sendableQuery);
          if (op.session) request = request.set('Cookie', cookie).set('Origin', ORIGIN);
          else if (!op.open) request = request.set(a.auth);
          if (body !== undefined) request = request.set('Content-Type', 'application/json').send(JSON.stringify(body) ?? 'null');
          const res = await request;
          sent += 1;
          const uncors = op.path.startsWith('/public/v1/') && res.headers['access-control-allow-origin'] !== '*';
          if (res.status >= 500 || uncors) failures.push(`${op.method.toUpperCase()} ${path} ${JSON.stringify(query)} ${JSON.stringify(body)?.slice(0, 300)} → ${res.status}${uncors ? ' without CORS' : ''} ${res.text.slice(0, 200)}`);
          return res.status < 500 && !uncors;
        }),
        { numRuns: RUNS, endOnFailure: true },
      ).catch((error: unknown) => {
        // A 5xx is in `failures` already; anything else that ended the run (a request that threw:
        // the connection closed, no answer) is a failure too, never passed over.
        if (failures.length === known) failures.push(`${op.method.toUpperCase()} ${op.path}: ${String(error instanceof Error ? error.message : error).slice(0, 500)}`);
      });
    }
    console.info(`fuzz: ${sent} requests to ${operations.length} operations, ${failures.length} failed`);
    expect(failures).toEqual([]);
    await t.raw().get('/health/ready').expect(200);
  }, TIMEOUT_MS);
});
