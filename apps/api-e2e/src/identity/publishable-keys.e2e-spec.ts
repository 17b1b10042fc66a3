import { createTestApp, Tenant, TestApp } from '../support/test-app';

const ORIGIN = 'http://localhost:3000';
const PASSWORD = 'correct horse battery';
const SITE = 'https://www.acme.example';
const OTHER_SITE = 'https://evil.example';
const MISSING = '0194a7a0-0000-7000-8000-0000000000aa';

interface Reader extends Tenant {
  /** `{ Authorization: 'Bearer alm_pub_…' }` */
  pub: Record<string, string>;
  publishableKey: string;
  publishableId: string;
}

type Operation = { 'x-publishable-key'?: boolean; requestBody?: unknown };

/**
 * Publishable keys: read-only keys for static sites and browser apps. They see published posts and
 * events only, everything else answers 403, and browsers on their listed origins get CORS headers.
 */
describe('publishable API keys (e2e)', () => {
  let t: TestApp;
  let counter = 0;
  const start = new Date('2026-11-21T10:00:00.000Z');

  beforeAll(async () => {
    t = await createTestApp({ config: { webhookDispatcher: false } });
    t.clock.set(start);
  });
  afterAll(async () => {
    await t.close();
  });

  async function reader(origins: string[] = [SITE]): Promise<Reader> {
    const tenant = await t.tenant();
    const created = await t.identity.createApiKey({ organizationId: tenant.orgId, name: 'Site', kind: 'publishable', allowedOrigins: origins });
    return { ...tenant, pub: { Authorization: `Bearer ${created.key}` }, publishableKey: created.key, publishableId: created.id };
  }

  async function admin(tenant: Tenant): Promise<string> {
    counter += 1;
    const email = `publisher${counter}@example.com`;
    await t.identity.createUser({ organizationId: tenant.orgId, email, name: `Admin ${counter}`, password: PASSWORD, role: 'admin' });
    const login = await t.api.post('/api/auth/login').set('Origin', ORIGIN).send({ email, password: PASSWORD }).expect(200);
    return String(login.headers['set-cookie']![0]).split(';')[0]!;
  }

  describe('creation', () => {
    it('creates a publishable key from the admin session: alm_pub_, the two read scopes, canonical origins, the site URL; lists show each kind', async () => {
      const tenant = await t.tenant();
      const cookie = await admin(tenant);
      const keys = `/api/organizations/${tenant.orgId}/api-keys`;
      const created = await t.api
        .post(keys)
        .set('Cookie', cookie)
        .set('Origin', ORIGIN)
        .send({ name: 'Website', kind: 'publishable', allowed_origins: ['HTTPS://WWW.ACME.example:443', 'http://localhost:8080'], site_url: `${SITE}/blog` })
        .expect(201);
      const key = created.body.data;
      expect(key).toEqual({
        id: expect.any(String),
        name: 'Website',
        prefix: key.key.slice(0, 12),
        kind: 'publishable',
        scopes: ['posts:read', 'events:read'],
        allowed_origins: [SITE, 'http://localhost:8080'],
        site_url: `${SITE}/blog`,
        created_at: start.toISOString(),
        last_used_at: null,
        expires_at: null,
        revoked_at: null,
        key: expect.stringMatching(/^alm_pub_[0-9A-Za-z]{32}$/),
      });
      const [row] = await t.query('SELECT kind, scopes, allowed_origins, site_url FROM api_keys WHERE id = $1', [key.id]);
      expect(row).toEqual({ kind: 'publishable', scopes: ['posts:read', 'events:read'], allowed_origins: [SITE, 'http://localhost:8080'], site_url: `${SITE}/blog` });

      const list = await t.api.get(keys).set('Cookie', cookie).set('Origin', ORIGIN).expect(200);
      const kinds = Object.fromEntries(list.body.data.map((k: { id: string; kind: string }) => [k.id, k.kind]));
      expect(Object.values(kinds).sort()).toEqual(['publishable', 'secret']);
      expect(kinds[key.id]).toBe('publishable');
      const secret = list.body.data.find((k: { kind: string }) => k.kind === 'secret');
      expect(secret).toMatchObject({ allowed_origins: [], site_url: null });
      const current = await t.api.get('/api/v1/api-keys/current').set('Authorization', `Bearer ${key.key}`).expect(200);
      expect(current.body.data).toMatchObject({ id: key.id, kind: 'publishable', scopes: ['posts:read', 'events:read'] });
    });

    it.each<[string, Record<string, unknown>, string[]]>([
      ['a write scope', { kind: 'publishable', scopes: ['posts:read', 'events:read', 'posts:write'] }, ['scopes']],
      ['one read scope only', { kind: 'publishable', scopes: ['posts:read'] }, ['scopes']],
      ['origins on a secret key', { allowed_origins: [SITE] }, ['allowed_origins']],
      ['a site URL on a secret key', { kind: 'secret', site_url: SITE }, ['site_url']],
      ['an origin with a path', { kind: 'publishable', allowed_origins: [`${SITE}/blog`] }, ['allowed_origins']],
      ['a site URL that is none', { kind: 'publishable', site_url: 'javascript:alert(1)' }, ['site_url']],
      ['an unknown kind', { kind: 'public' }, ['kind']],
    ])('refuses %s with 400 naming the field, and stores nothing', async (_why, extra, fields) => {
      const tenant = await t.tenant();
      const cookie = await admin(tenant);
      const res = await t.api.post(`/api/organizations/${tenant.orgId}/api-keys`).set('Cookie', cookie).set('Origin', ORIGIN).send({ name: 'Bad', ...extra }).expect(400);
      expect(res.body.code).toBe('validation_failed');
      expect(res.body.errors.map((e: { field: string }) => e.field)).toEqual(fields);
      expect(await t.query('SELECT 1 FROM api_keys WHERE organization_id = $1 AND name = $2', [tenant.orgId, 'Bad'])).toEqual([]);
    });

    it('keeps the rules in the database too: no origins on a secret key, no other scopes on a publishable one', async () => {
      const tenant = await t.tenant();
      const insert = (kind: string, scopes: string[], origins: string[]) =>
        t.query(
          `INSERT INTO api_keys (id, organization_id, name, prefix, key_hash, kind, scopes, allowed_origins) VALUES (gen_random_uuid(), $1, 'x', 'x', md5(random()::text), $2, $3, $4)`,
          [tenant.orgId, kind, scopes, origins],
        );
      await expect(insert('secret', ['posts:read'], [SITE])).rejects.toThrow(/api_keys_publishable_terms_check/);
      await expect(insert('publishable', ['posts:read', 'posts:write'], [])).rejects.toThrow(/api_keys_publishable_scopes_check/);
      await expect(insert('publishable', ['events:read', 'posts:read'], [SITE])).resolves.toBeDefined();
    });
  });

  describe('reads', () => {
    let r: Reader;
    const ids: Record<string, string> = {};
    const dueAt = new Date(start.getTime() + 3_600_000);

    beforeAll(async () => {
      r = await reader();
      const post = async (slug: string, extra: Record<string, unknown>) =>
        (await t.api.post('/api/v1/posts').set(r.auth).send({ title: slug, slug, ...extra }).expect(201)).body.data.id as string;
      ids['published'] = await post('published', { status: 'published' });
      ids['draft'] = await post('draft', {});
      ids['scheduled'] = await post('scheduled', { status: 'scheduled', published_at: dueAt.toISOString() });
      ids['archived'] = await post('archived', { status: 'archived' });
      const event = async (title: string, status: string | null) => {
        const created = (await t.api.post('/api/v1/events').set(r.auth).send({ title, start_date: '2027-01-10' }).expect(201)).body.data.id as string;
        if (status) await t.api.patch(`/api/v1/events/${created}`).set(r.auth).send({ status }).expect(200);
        return created;
      };
      ids['event-published'] = await event('Open', 'published');
      ids['event-draft'] = await event('Planned', null);
      ids['event-cancelled'] = await event('Called off', 'cancelled');
    });

    it('sees published posts only: the others answer 404, lists hold only what it may see, status=draft lists nothing', async () => {
      await t.api.get(`/api/v1/posts/${ids['published']}`).set(r.pub).expect(200);
      for (const hidden of ['draft', 'scheduled', 'archived']) {
        const res = await t.api.get(`/api/v1/posts/${ids[hidden]}`).set(r.pub).expect(404);
        expect(res.body.code).toBe('not_found');
        await t.api.get(`/api/v1/posts/${ids[hidden]}`).set(r.auth).expect(200);
      }
      const listed = await t.api.get('/api/v1/posts').set(r.pub).expect(200);
      expect(listed.body.data.map((p: { id: string }) => p.id)).toEqual([ids['published']]);
      expect(listed.body.meta.total).toBe(1);
      for (const status of ['draft', 'scheduled', 'archived']) {
        const none = await t.api.get(`/api/v1/posts?status=${status}`).set(r.pub).expect(200);
        expect(none.body).toEqual({ data: [], meta: { total: 0, limit: 20, offset: 0, hasMore: false } });
      }
      expect((await t.api.get('/api/v1/posts?status=published').set(r.pub).expect(200)).body.meta.total).toBe(1);
      expect((await t.api.get('/api/v1/posts?status=draft').set(r.auth).expect(200)).body.meta.total).toBe(1);
      expect((await t.api.get('/api/v1/posts/tags').set(r.pub).expect(200)).body).toEqual({ data: [] });
      await t.api.get('/api/v1/posts/categories').set(r.pub).expect(200);
    });

    it('sees a scheduled post once it is due, before the publisher has run', async () => {
      await t.api.get(`/api/v1/posts/${ids['scheduled']}`).set(r.pub).expect(404);
      t.clock.set(new Date(dueAt.getTime() + 1));
      try {
        const res = await t.api.get(`/api/v1/posts/${ids['scheduled']}`).set(r.pub).expect(200);
        expect(res.body.data.status).toBe('published');
        const listed = await t.api.get('/api/v1/posts?status=published').set(r.pub).expect(200);
        expect(listed.body.data.map((p: { id: string }) => p.id).sort()).toEqual([ids['published'], ids['scheduled']].sort());
      } finally {
        t.clock.set(start);
      }
    });

    it('sees published events only; drafts and cancelled events answer 404', async () => {
      await t.api.get(`/api/v1/events/${ids['event-published']}`).set(r.pub).expect(200);
      await t.api.get(`/api/v1/events/${ids['event-draft']}`).set(r.pub).expect(404);
      await t.api.get(`/api/v1/events/${ids['event-cancelled']}`).set(r.pub).expect(404);
      const listed = await t.api.get('/api/v1/events?include_counts=true').set(r.pub).expect(200);
      expect(listed.body.data.map((e: { id: string }) => e.id)).toEqual([ids['event-published']]);
      expect((await t.api.get('/api/v1/events?status=draft').set(r.pub).expect(200)).body.data).toEqual([]);
      expect((await t.api.get('/api/v1/events').set(r.auth).expect(200)).body.meta.total).toBe(3);
    });

    it('answers 403 to every other operation of /api/v1: registrations, bookings, webhooks, changes, every write', async () => {
      const paths = t.document['paths'] as Record<string, Record<string, Operation>>;
      const tried: string[] = [];
      const open: string[] = [];
      for (const [template, methods] of Object.entries(paths)) {
        if (!template.startsWith('/api/v1/')) continue;
        for (const [method, operation] of Object.entries(methods)) {
          if (!['get', 'post', 'put', 'patch', 'delete'].includes(method)) continue;
          const path = template.replace(/\{[^}]+\}/g, MISSING);
          if (operation['x-publishable-key'] === true) {
            open.push(`${method.toUpperCase()} ${template}`);
            continue;
          }
          const req = t.api[method as 'get' | 'post' | 'put' | 'patch' | 'delete'](path).set(r.pub).set('Origin', SITE);
          const res = operation.requestBody ? await req.send({}) : await req;
          expect({ operation: `${method.toUpperCase()} ${template}`, status: res.status, code: res.body.code }).toEqual({
            operation: `${method.toUpperCase()} ${template}`,
            status: 403,
            code: 'forbidden',
          });
          // Errors of a request from an allowed origin carry the CORS headers too.
          expect(res.headers['access-control-allow-origin']).toBe(SITE);
          tried.push(template);
        }
      }
      expect(open.sort()).toEqual(
        [
          'GET /api/v1/api-keys/current',
          'GET /api/v1/events',
          'GET /api/v1/events/{id}',
          'GET /api/v1/posts',
          'GET /api/v1/posts/{id}',
          'GET /api/v1/posts/categories',
          'GET /api/v1/posts/categories/{id}',
          'GET /api/v1/posts/tags',
          'GET /api/v1/posts/tags/{id}',
        ].sort(),
      );
      for (const path of ['/api/v1/bookings', '/api/v1/events/{eventId}/registrations', '/api/v1/webhooks', '/api/v1/changes', '/api/v1/slots']) {
        expect(tried).toContain(path);
      }
    });

    it('stops working once revoked (401), as a secret key does', async () => {
      const other = await reader();
      await t.api.get('/api/v1/posts').set(other.pub).expect(200);
      await t.identity.revokeApiKey(other.publishableId);
      await t.api.get('/api/v1/posts').set(other.pub).expect(401);
    });
  });

  describe('CORS', () => {
    it('answers a request from a listed origin with that origin and Vary: Origin, errors included; other origins get nothing', async () => {
      const r = await reader([SITE, 'http://localhost:5173']);
      const ok = await t.api.get('/api/v1/posts').set(r.pub).set('Origin', SITE).expect(200);
      expect(ok.headers['access-control-allow-origin']).toBe(SITE);
      expect(ok.headers['vary']).toMatch(/\bOrigin\b/);
      expect(ok.headers['access-control-expose-headers']).toContain('ETag');
      expect(ok.headers['access-control-allow-credentials']).toBeUndefined();

      const missing = await t.api.get(`/api/v1/posts/${MISSING}`).set(r.pub).set('Origin', 'http://localhost:5173').expect(404);
      expect(missing.headers['access-control-allow-origin']).toBe('http://localhost:5173');

      for (const origin of [OTHER_SITE, `${SITE}/`, SITE.toUpperCase(), 'null']) {
        const res = await t.api.get('/api/v1/posts').set(r.pub).set('Origin', origin).expect(200);
        expect(res.headers['access-control-allow-origin']).toBeUndefined();
      }
      const noOrigin = await t.api.get('/api/v1/posts').set(r.pub).expect(200);
      expect(noOrigin.headers['access-control-allow-origin']).toBeUndefined();
    });

    it('never gives a secret key CORS headers, even from an origin a publishable key lists', async () => {
      const r = await reader([SITE]);
      const res = await t.api.get('/api/v1/posts').set(r.auth).set('Origin', SITE).expect(200);
      expect(res.headers['access-control-allow-origin']).toBeUndefined();
      expect(res.headers['vary']).toBeUndefined();
    });

    it('answers a preflight (no key) 204 for an origin some usable publishable key lists, and without CORS headers otherwise', async () => {
      const origin = 'https://preflight.example';
      const preflight = (from: string) =>
        t
          .raw()
          .options('/api/v1/posts?limit=5')
          .set('Origin', from)
          .set('Access-Control-Request-Method', 'GET')
          .set('Access-Control-Request-Headers', 'authorization');
      const before = await preflight(origin).expect(204);
      expect(before.headers['access-control-allow-origin']).toBeUndefined();

      const r = await reader([origin]);
      const allowed = await preflight(origin).expect(204);
      expect(allowed.headers).toMatchObject({
        'access-control-allow-origin': origin,
        'access-control-allow-methods': 'GET',
        'access-control-allow-headers': 'authorization',
      });
      expect(allowed.headers['vary']).toMatch(/\bOrigin\b/);
      const nested = await t.raw().options(`/api/v1/posts/${MISSING}`).set('Origin', origin).expect(204);
      expect(nested.headers['access-control-allow-origin']).toBe(origin);
      expect((await preflight(OTHER_SITE).expect(204)).headers['access-control-allow-origin']).toBeUndefined();

      await t.identity.revokeApiKey(r.publishableId);
      expect((await preflight(origin).expect(204)).headers['access-control-allow-origin']).toBeUndefined();
    });
  });
});
