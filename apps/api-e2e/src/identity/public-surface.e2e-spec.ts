import type { INestApplication } from '@nestjs/common';
import { TrustedProxies } from '@almanac/shared';
import { request as httpRequest } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Server } from 'node:http';
import { createApp } from '../../../api/src/bootstrap';
import { blogFixtures } from '../blog/blog-fixtures';
import { createTestApp, Tenant, TestApp } from '../support/test-app';

const TOKEN_URL = /\/public\/v1\/previews\/([0-9A-Za-z]{32})$/;
const UNKNOWN_TOKEN = '0000000000000000000000000000000A';

interface RawAnswer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: string;
}

/** One request on its own connection, from `localAddress` (any 127.x.y.z is this machine's loopback). */
function send(server: Server, path: string, options: { method?: string; localAddress?: string; headers?: Record<string, string>; body?: string } = {}): Promise<RawAnswer> {
  const { port } = server.address() as AddressInfo;
  return new Promise((resolve, reject) => {
    const req = httpRequest(
      { host: '127.0.0.1', port, path, method: options.method ?? 'GET', localAddress: options.localAddress ?? '127.0.0.1', headers: options.headers, agent: false },
      (res) => {
        let body = '';
        res.on('data', (chunk: Buffer) => (body += chunk.toString()));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body }));
      },
    );
    req.on('error', reject);
    req.end(options.body);
  });
}

const listen = (server: Server) => new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));

/**
 * `/public/v1` is open to anyone: no key, CORS for every origin on every answer (errors included),
 * and one budget per client address for all its routes together, kept in PostgreSQL so that every
 * instance counts against the same budget.
 */
describe('the public surface /public/v1 (e2e)', () => {
  const LIMIT = 5;
  let t: TestApp;
  let a: Tenant;
  let previewPath: string;

  beforeAll(async () => {
    t = await createTestApp({ config: { publicRateLimitPerMinute: LIMIT, webhookDispatcher: false } });
    await listen(t.server);
    t.clock.set('2026-11-21T10:00:00.250Z');
    a = await t.tenant();
    const post = await blogFixtures(t).post(a, { title: 'Draft' });
    const link = await t.api.post(`/api/v1/posts/${post['id']}/preview-link`).set(a.auth).expect(201);
    previewPath = `/public/v1/previews/${TOKEN_URL.exec(link.body.data.url)![1]!}`;
  });
  afterAll(() => t.close());
  // Every test starts with a full budget: two minutes later, nothing counted before is in the window.
  beforeEach(() => t.clock.advance(120_000));

  describe('CORS', () => {
    it('allows every origin on every answer, errors included, and never credentials', async () => {
      const ok = await t.api.get(previewPath).expect(200);
      const answers = [
        ok,
        await t.api.get(previewPath).set('Origin', 'https://anywhere.example').expect(200),
        await t.api.get(previewPath).set('If-None-Match', ok.headers['etag'] as string).expect(304),
        await t.api.get(`/public/v1/previews/${UNKNOWN_TOKEN}`).set('Origin', 'https://evil.example').expect(404),
        await t.api.get('/public/v1/posts.atom?key=alm_pub_nothing').expect(404),
      ];
      t.clock.advance(120_000); // a fresh budget: this test makes more requests than the limit
      const unknown = await t.raw().get('/public/v1/no-such-route').expect(404);
      const notJson = await t.raw().post('/public/v1/previews/x').set('Content-Type', 'text/plain').send('hello').expect(415);
      const badJson = await t.raw().post('/public/v1/previews/x').set('Content-Type', 'application/json').send('{"a":').expect(400);
      expect(unknown.body).toMatchObject({ status: 404, code: 'not_found' });
      expect(notJson.body).toMatchObject({ status: 415, code: 'unsupported_media_type' });
      expect(badJson.body).toMatchObject({ status: 400, code: 'invalid_json' });
      for (const res of [...answers, unknown, notJson, badJson]) {
        expect(res.headers['access-control-allow-origin']).toBe('*');
        expect(res.headers['access-control-allow-credentials']).toBeUndefined();
        expect(res.headers['access-control-expose-headers']).toContain('Retry-After');
        expect(res.headers['vary'] ?? '').not.toMatch(/origin/i);
      }
    });

    it('answers a preflight on any /public/v1 path with 204: GET and POST with content-type, for any origin, without counting it', async () => {
      for (const path of ['/public/v1/previews/x', '/public/v1/bookings/bkt_x/cancel', '/public/v1', '/PUBLIC/V1/posts.atom']) {
        for (let i = 0; i < LIMIT + 1; i++) {
          const res = await t.raw().options(path).set('Origin', 'https://site.example').set('Access-Control-Request-Method', 'POST').set('Access-Control-Request-Headers', 'content-type').expect(204);
          expect(res.headers['access-control-allow-origin']).toBe('*');
          expect(res.headers['access-control-allow-methods']).toBe('GET, POST');
          expect(res.headers['access-control-allow-headers']).toBe('content-type');
          expect(Number(res.headers['access-control-max-age'])).toBeGreaterThan(0);
          expect(res.headers['access-control-allow-credentials']).toBeUndefined();
          expect(res.text).toBe('');
        }
      }
      // None of those preflights used the budget.
      for (let i = 0; i < LIMIT; i++) await t.api.get(previewPath).expect(200);
    });

    it('leaves everything outside /public/v1 as it was', async () => {
      const res = await t.api.get('/api/v1/api-keys/current').set(a.auth).set('Origin', 'https://anywhere.example').expect(200);
      expect(res.headers['access-control-allow-origin']).toBeUndefined();
      for (const path of ['/public/v10/x', '/publicv1/x', '/public/v1x']) {
        expect((await t.raw().get(path).expect(404)).headers['access-control-allow-origin']).toBeUndefined();
      }
      await t.raw().options('/health/live').expect(404);
    });
  });

  describe('the per-address rate limit', () => {
    it(`lets ${LIMIT} requests through in any 60 seconds, whatever the routes and answers, then 429 with Retry-After and CORS`, async () => {
      await t.api.get(previewPath).expect(200);
      await t.api.get(`/public/v1/previews/${UNKNOWN_TOKEN}`).expect(404);
      await t.api.get('/public/v1/posts.atom?key=nope').expect(404);
      await t.raw().get('/public/v1/nothing-here').expect(404);
      // Express matches routes whatever their case and with a trailing slash: so does the limit.
      await t.raw().get(`/Public/V1/previews/${UNKNOWN_TOKEN}/`).expect(404);

      const refused = await t.api.get(previewPath).expect(429);
      expect(refused.body).toEqual({
        type: 'https://almanac.dev/problems/rate_limited',
        title: 'Too Many Requests',
        status: 429,
        detail: expect.any(String),
        code: 'rate_limited',
        request_id: refused.headers['x-request-id'],
      });
      expect(refused.headers['retry-after']).toBe('61');
      expect(refused.headers['access-control-allow-origin']).toBe('*');
      expect(refused.headers['content-type']).toMatch(/^application\/problem\+json/);
      for (const path of [`/PUBLIC/V1/previews/${UNKNOWN_TOKEN}`, `${previewPath}/`, '/Public/v1/posts.atom?key=x']) {
        const res = await t.raw().get(path).expect(429);
        expect(res.headers['retry-after']).toBe('61');
      }
      // Refused requests do not count: the wait does not grow however often the client asks.
      t.clock.advance(60_000);
      expect((await t.api.get(previewPath).expect(429)).headers['retry-after']).toBe('1');
      t.clock.advance(1_000);
      await t.api.get(previewPath).expect(200);
    });

    it('counts a sliding window: Retry-After is when the oldest requests leave it', async () => {
      await t.api.get(previewPath).expect(200);
      await t.api.get(previewPath).expect(200);
      t.clock.advance(30_000);
      for (let i = 0; i < LIMIT - 2; i++) await t.api.get(previewPath).expect(200);
      t.clock.advance(29_000);
      // The first two requests, 59 s ago, leave the window in 2 s (whole seconds, never early).
      expect((await t.api.get(previewPath).expect(429)).headers['retry-after']).toBe('2');
      t.clock.advance(1_000);
      expect((await t.api.get(previewPath).expect(429)).headers['retry-after']).toBe('1');
      t.clock.advance(1_000);
      await t.api.get(previewPath).expect(200);
      await t.api.get(previewPath).expect(200);
      // The three of 30 s ago are still in the window.
      expect((await t.api.get(previewPath).expect(429)).headers['retry-after']).toBe('30');
    });

    it('keeps one budget per client address, in the database; a client naming itself in X-Forwarded-For changes nothing', async () => {
      for (let i = 0; i < LIMIT; i++) expect((await send(t.server, previewPath, { headers: { 'X-Forwarded-For': `203.0.113.${i}` } })).status).toBe(200);
      expect((await send(t.server, previewPath, { headers: { 'X-Forwarded-For': '203.0.113.99' } })).status).toBe(429);
      const other = await send(t.server, previewPath, { localAddress: '127.0.0.2' });
      expect(other.status).toBe(200);
      expect(other.headers['access-control-allow-origin']).toBe('*');
      const rows = await t.query<{ client_key: string; total: string }>(
        `SELECT client_key, (SELECT sum(c) FROM unnest(counts) c)::text AS total FROM public_rate_limits ORDER BY total DESC`,
      );
      expect(rows).toEqual([
        { client_key: '127.0.0.1', total: String(LIMIT) },
        { client_key: '127.0.0.2', total: '1' },
      ]);
    });
  });
});

describe('the public rate limit behind a trusted proxy (e2e)', () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await createTestApp({ config: { publicRateLimitPerMinute: 2, trustedProxies: TrustedProxies.parse('127.0.0.1'), webhookDispatcher: false } });
    await listen(t.server);
  });
  afterAll(() => t.close());

  it('counts each client the proxy forwards, an IPv6 client by its /64, and the proxy itself for what it sends on its own', async () => {
    const via = (forwarded: string) => send(t.server, '/public/v1/nothing', { headers: { 'X-Forwarded-For': forwarded } });
    expect((await via('203.0.113.7')).status).toBe(404);
    expect((await via('198.51.100.1, 203.0.113.7')).status).toBe(404);
    expect((await via('203.0.113.7')).status).toBe(429);
    expect((await via('203.0.113.8')).status).toBe(404);
    expect((await via('2001:db8:1:2::1')).status).toBe(404);
    expect((await via('2001:db8:1:2:ffff::9')).status).toBe(404);
    expect((await via('2001:db8:1:2::abcd')).status).toBe(429);
    expect((await send(t.server, '/public/v1/nothing')).status).toBe(404);
    const rows = await t.query<{ client_key: string; total: string }>(
      `SELECT client_key, (SELECT sum(c) FROM unnest(counts) c)::text AS total FROM public_rate_limits ORDER BY client_key`,
    );
    expect(rows).toEqual([
      { client_key: '127.0.0.1', total: '1' },
      { client_key: '2001:db8:1:2::/64', total: '2' },
      { client_key: '203.0.113.7', total: '2' },
      { client_key: '203.0.113.8', total: '1' },
    ]);
  });
});

describe('the public rate limit across two instances on one database (e2e)', () => {
  const LIMIT = 40;
  let t: TestApp;
  let second: INestApplication;

  beforeAll(async () => {
    t = await createTestApp({ config: { publicRateLimitPerMinute: LIMIT, webhookDispatcher: false } });
    t.clock.set('2026-11-21T10:00:00.500Z');
    ({ app: second } = await createApp({ config: t.config, clock: t.clock, quiet: true }));
    await listen(t.server);
    await listen(second.getHttpServer() as Server);
  });
  afterAll(async () => {
    await second.close();
    await t.close();
  });

  it(`lets exactly ${LIMIT} of ${LIMIT + 20} parallel requests from one address through, whichever instance each reaches`, async () => {
    const servers = [t.server, second.getHttpServer() as Server];
    const answers = await Promise.all(
      Array.from({ length: LIMIT + 20 }, (_, i) => send(servers[i % 2]!, i % 3 === 0 ? '/public/v1/no-such-route' : `/public/v1/previews/${UNKNOWN_TOKEN}`)),
    );
    const statuses = answers.map((answer) => answer.status);
    expect(statuses.filter((status) => status === 404)).toHaveLength(LIMIT);
    expect(statuses.filter((status) => status === 429)).toHaveLength(20);
    for (const answer of answers) expect(answer.headers['access-control-allow-origin']).toBe('*');
    const [row] = await t.query<{ total: string }>(`SELECT (SELECT sum(c) FROM unnest(counts) c)::text AS total FROM public_rate_limits`);
    expect(row!.total).toBe(String(LIMIT));
  });
});

describe('the public rate limit switched off (e2e)', () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await createTestApp({ config: { publicRateLimitPerMinute: 0, webhookDispatcher: false } });
  });
  afterAll(() => t.close());

  it('counts nothing and refuses nothing, and CORS still holds', async () => {
    for (let i = 0; i < 130; i++) {
      const res = await t.api.get(`/public/v1/previews/${UNKNOWN_TOKEN}`).expect(404);
      expect(res.headers['access-control-allow-origin']).toBe('*');
    }
    expect(await t.query('SELECT * FROM public_rate_limits')).toEqual([]);
  });
});
