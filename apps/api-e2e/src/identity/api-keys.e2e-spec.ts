import { createHash } from 'node:crypto';
import { createTestApp, TestApp } from '../support/test-app';
import { ProbeModule } from './support/probe.module';

/** The 401 body minus the request id, which differs per request by design. */
function stable(body: Record<string, unknown>): Record<string, unknown> {
  const { request_id: _requestId, ...rest } = body;
  return rest;
}

describe('API keys on /api/v1 (e2e)', () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await createTestApp({ extraModules: [ProbeModule] });
  });
  afterAll(async () => {
    await t.close();
  });

  it('GET /api/v1/api-keys/current describes the calling key, which needs no scope', async () => {
    const org = await t.identity.createOrganization('Keys Inc');
    const created = await t.identity.createApiKey({ organizationId: org.id, name: 'Website', scopes: ['events:read'] });
    const res = await t.api.get('/api/v1/api-keys/current').set('Authorization', `Bearer ${created.key}`).expect(200);
    expect(res.body.data).toEqual({
      id: created.id,
      name: 'Website',
      prefix: created.key.slice(0, 12),
      kind: 'secret',
      scopes: ['events:read'],
      organization_id: org.id,
      created_at: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/),
      last_used_at: res.body.data.last_used_at,
      expires_at: null,
    });
    expect([null, t.clock.now().toISOString()]).toContain(res.body.data.last_used_at);
    // Only the SHA-256 of the key is stored.
    const rows = await t.query<{ key_hash: string }>('SELECT key_hash FROM api_keys WHERE id = $1', [created.id]);
    expect(rows[0]!.key_hash).toBe(createHash('sha256').update(created.key).digest('hex'));
    const leaked = await t.query(`SELECT 1 FROM api_keys WHERE key_hash = $1 OR prefix = $1 OR name = $1`, [created.key]);
    expect(leaked).toHaveLength(0);
  });

  it('answers no key, a malformed header, a wrong, a revoked and an expired key with the same 401', async () => {
    const a = await t.tenant();
    const revoked = await t.identity.createApiKey({ organizationId: a.orgId });
    await t.api.get('/api/v1/api-keys/current').set('Authorization', `Bearer ${revoked.key}`).expect(200); // cached as valid
    expect(await t.identity.revokeApiKey(revoked.id)).toBe(true);
    const expired = await t.identity.createApiKey({ organizationId: a.orgId, expiresAt: new Date(t.clock.now().getTime() + 60_000) });
    await t.api.get('/api/v1/api-keys/current').set('Authorization', `Bearer ${expired.key}`).expect(200);
    t.clock.advance(60_000);

    const wrong = `alm_${'A'.repeat(32)}`;
    const attempts: Array<[string, Record<string, string>]> = [
      ['no key', {}],
      ['malformed header', { Authorization: `Basic ${Buffer.from('a:b').toString('base64')}` }],
      ['not an alm_ key', { Authorization: 'Bearer abc' }],
      ['wrong key', { Authorization: `Bearer ${wrong}` }],
      ['revoked key', { Authorization: `Bearer ${revoked.key}` }],
      ['expired key', { Authorization: `Bearer ${expired.key}` }],
    ];
    const bodies: Record<string, unknown>[] = [];
    for (const [, headers] of attempts) {
      const res = await t.api.get('/api/v1/api-keys/current').set(headers).expect(401);
      expect(res.headers['www-authenticate']).toBe('Bearer');
      expect(res.headers['content-type']).toMatch(/^application\/problem\+json/);
      expect(res.body.code).toBe('unauthorized');
      bodies.push(stable(res.body));
    }
    for (const body of bodies) expect(body).toEqual(bodies[0]);
  });

  it('refuses a key without the operation scope with 403, and lets one with it through', async () => {
    const without = await t.tenant({ scopes: ['events:read', 'posts:write'] });
    const res = await t.api.get('/api/v1/probe/scoped').set(without.auth).expect(403);
    expect(res.body).toMatchObject({ status: 403, code: 'forbidden' });
    const withScope = await t.tenant({ scopes: ['bookings:read'] });
    await t.api.get('/api/v1/probe/scoped').set(withScope.auth).expect(200);
    const all = await t.tenant(); // created without scopes: has them all
    await t.api.get('/api/v1/probe/scoped').set(all.auth).expect(200);
  });

  it('refuses a real scoped route (GET /api/v1/schedules) to a key without bookings:read', async () => {
    const without = await t.tenant({ scopes: ['events:read', 'events:write', 'posts:read', 'posts:write', 'bookings:write'] });
    const res = await t.api.get('/api/v1/schedules').set(without.auth).expect(403);
    expect(res.body).toMatchObject({ status: 403, code: 'forbidden' });
    const reader = await t.tenant({ scopes: ['bookings:read'] });
    await t.api.get('/api/v1/schedules').set(reader.auth).expect(200);
    await t.api.post('/api/v1/schedules').set(reader.auth).send({ name: 'Nope' }).expect(403);
    expect(await t.query('SELECT 1 FROM schedules WHERE organization_id = $1', [reader.orgId])).toHaveLength(0);
  });

  it('documents the required scope of an operation in OpenAPI', () => {
    const paths = t.document['paths'] as Record<string, Record<string, Record<string, unknown>>>;
    expect(paths['/api/v1/probe/scoped']!['get']!['x-required-scope']).toBe('bookings:read');
    expect(paths['/api/v1/api-keys/current']!['get']!['x-required-scope']).toBeUndefined();
  });

  it('ignores session cookies under /api/v1', async () => {
    const org = await t.identity.createOrganization('Cookie Org');
    await t.identity.createUser({ organizationId: org.id, email: 'cookie-admin@example.com', name: 'C', password: 'correct-password', role: 'admin' });
    const login = await t.api.post('/api/auth/login').send({ email: 'cookie-admin@example.com', password: 'correct-password' }).expect(200);
    const cookie = String(login.headers['set-cookie']![0]).split(';')[0]!;
    const res = await t.api.get('/api/v1/api-keys/current').set('Cookie', cookie).expect(401);
    expect(res.body.code).toBe('unauthorized');
  });

  it('records when a key was last used, at most once a minute', async () => {
    const a = await t.tenant();
    const keyId = (await t.api.get('/api/v1/api-keys/current').set(a.auth).expect(200)).body.data.id as string;
    // The write is fire-and-forget: wait for it by polling the database (bounded).
    const lastUsedBecomes = async (expected: Date): Promise<Date | null> => {
      let value: Date | null = null;
      for (let i = 0; i < 200; i++) {
        value = (await t.query<{ last_used_at: Date | null }>('SELECT last_used_at FROM api_keys WHERE id = $1', [keyId]))[0]!.last_used_at;
        if (value?.getTime() === expected.getTime()) break;
      }
      return value;
    };
    const firstUse = t.clock.now();
    expect(await lastUsedBecomes(firstUse)).toEqual(firstUse);
    t.clock.advance(61_000);
    const laterUse = t.clock.now();
    await t.api.get('/api/v1/api-keys/current').set(a.auth).expect(200);
    expect(await lastUsedBecomes(laterUse)).toEqual(laterUse);
  });
});
