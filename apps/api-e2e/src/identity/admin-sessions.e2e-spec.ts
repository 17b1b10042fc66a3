import { createHash } from 'node:crypto';
import { performance } from 'node:perf_hooks';
import { createTestApp, TestApp } from '../support/test-app';
import { ProbeModule } from './support/probe.module';

const ORIGIN = 'http://localhost:3000';
const PASSWORD = 'a-long-and-correct-password';

function sessionToken(setCookie: string[] | string | undefined): string {
  const header = ([] as string[]).concat(setCookie ?? []).find((c) => c.startsWith('almanac_session='));
  if (!header) throw new Error('no almanac_session cookie was set');
  return header.split(';')[0]!.slice('almanac_session='.length);
}

function withoutRequestId(body: Record<string, unknown>): Record<string, unknown> {
  const { request_id: _id, ...rest } = body;
  return rest;
}

describe('admin sessions (e2e)', () => {
  let t: TestApp;
  let orgId: string;
  let adminId: string;
  let emailCounter = 0;

  /** A fresh admin (own e-mail, so the throttle of one test does not touch another). */
  async function newAdmin(role: 'admin' | 'author' = 'admin'): Promise<{ id: string; email: string }> {
    emailCounter += 1;
    const email = `user${emailCounter}@example.com`;
    const user = await t.identity.createUser({ organizationId: orgId, email, name: `User ${emailCounter}`, password: PASSWORD, role });
    return { id: user.id, email };
  }

  async function login(email: string, password = PASSWORD): Promise<string> {
    const res = await t.api.post('/api/auth/login').send({ email, password }).expect(200);
    return sessionToken(res.headers['set-cookie'] as unknown as string[]);
  }

  beforeAll(async () => {
    t = await createTestApp({ extraModules: [ProbeModule] });
    orgId = (await t.identity.createOrganization('Session Org')).id;
    adminId = (await t.identity.createUser({ organizationId: orgId, email: 'Ada@Example.com', name: 'Ada Admin', password: PASSWORD, role: 'admin' })).id;
  });
  afterAll(async () => {
    await t.close();
  });

  it('signs in, reports the session and signs out, with the cookie flags and a hashed token in PostgreSQL', async () => {
    const res = await t.api.post('/api/auth/login').send({ email: 'ada@example.com', password: PASSWORD }).expect(200);
    expect(res.body).toEqual({ data: { user: { id: adminId, email: 'Ada@Example.com', name: 'Ada Admin', organization_id: orgId, role: 'admin' } } });
    const cookie = (res.headers['set-cookie'] as unknown as string[])[0]!;
    expect(cookie).toMatch(/^almanac_session=[A-Za-z0-9_-]{43}; /);
    const attributes = cookie.split('; ').slice(1);
    expect(attributes).toEqual(expect.arrayContaining(['HttpOnly', 'SameSite=Strict', 'Path=/']));
    expect(attributes).not.toContain('Secure'); // APP_URL is plain http here
    const token = sessionToken(cookie);

    const stored = await t.query<{ token_hash: string; organization_id: string; user_id: string }>('SELECT token_hash, organization_id, user_id FROM admin_sessions');
    expect(stored).toEqual([{ token_hash: createHash('sha256').update(token).digest('hex'), organization_id: orgId, user_id: adminId }]);

    const session = await t.api.get('/api/auth/session').set('Cookie', `almanac_session=${token}`).expect(200);
    expect(session.body).toEqual(res.body);

    const logout = await t.api.post('/api/auth/logout').set('Cookie', `almanac_session=${token}`).set('Origin', ORIGIN).expect(204);
    expect(String((logout.headers['set-cookie'] as unknown as string[])[0])).toMatch(/^almanac_session=; Max-Age=0;/);
    expect(await t.query('SELECT 1 FROM admin_sessions WHERE token_hash = $1', [createHash('sha256').update(token).digest('hex')])).toHaveLength(0);

    await t.api.get('/api/auth/session').set('Cookie', `almanac_session=${token}`).expect(401);
    await t.api.get('/api/auth/session').expect(401);
    await t.api.post('/api/auth/logout').expect(401);
  });

  it('sets the Secure flag when APP_URL is https', async () => {
    const secure = await createTestApp({ config: { appUrl: 'https://almanac.example' } });
    try {
      const org = await secure.identity.createOrganization('Secure Org');
      await secure.identity.createUser({ organizationId: org.id, email: 'sec@example.com', name: 'S', password: PASSWORD, role: 'admin' });
      const res = await secure.api.post('/api/auth/login').send({ email: 'sec@example.com', password: PASSWORD }).expect(200);
      expect(String((res.headers['set-cookie'] as unknown as string[])[0]).split('; ')).toContain('Secure');
    } finally {
      await secure.close();
    }
  });

  it('answers a wrong password, an unknown e-mail and an author alike, in similar time', async () => {
    const admin = await newAdmin();
    const author = await newAdmin('author');
    const timed = async (email: string, password: string) => {
      const started = performance.now();
      const res = await t.api.post('/api/auth/login').send({ email, password }).expect(401);
      expect(res.headers['set-cookie']).toBeUndefined();
      return { body: withoutRequestId(res.body), ms: performance.now() - started };
    };
    const wrongPassword: number[] = [];
    const unknownEmail: number[] = [];
    let reference: Record<string, unknown> | undefined;
    for (let i = 0; i < 5; i++) {
      const a = await timed(admin.email, `wrong-${i}`);
      const b = await timed(`nobody-${i}@example.com`, PASSWORD);
      const c = await timed(author.email, PASSWORD); // right password, but authors may not sign in
      reference ??= a.body;
      expect(a.body).toEqual(reference);
      expect(b.body).toEqual(reference);
      expect(c.body).toEqual(reference);
      wrongPassword.push(a.ms);
      unknownEmail.push(b.ms);
    }
    expect(reference).toMatchObject({ status: 401, code: 'unauthorized', detail: 'Invalid e-mail or password.' });
    // An unknown e-mail still costs a scrypt verification (against a dummy hash): without it, it would
    // answer some 20 times faster. The bound is loose so a busy machine does not make it flaky.
    const median = (xs: number[]) => [...xs].sort((x, y) => x - y)[Math.floor(xs.length / 2)]!;
    expect(median(unknownEmail)).toBeGreaterThan(median(wrongPassword) * 0.35);
  });

  it('refuses the 11th failed login for one e-mail within 15 minutes with 429 and Retry-After, until they age out', async () => {
    const admin = await newAdmin();
    for (let i = 0; i < 10; i++) {
      t.clock.advance(1000);
      await t.api.post('/api/auth/login').send({ email: admin.email, password: `wrong-${i}` }).expect(401);
    }
    const refused = await t.api.post('/api/auth/login').send({ email: admin.email.toUpperCase(), password: PASSWORD }).expect(429);
    expect(refused.body).toMatchObject({ status: 429, code: 'rate_limited' });
    // The first failure leaves the 15-minute window 15 min - 9 s from now.
    expect(Number(refused.headers['retry-after'])).toBe(15 * 60 - 9);
    // Refused attempts are not counted; other e-mails are not affected.
    expect(await t.query('SELECT 1 FROM login_failures WHERE email_key = $1', [admin.email])).toHaveLength(10);
    await login('ada@example.com');

    t.clock.advance(15 * 60 * 1000 - 9000);
    await login(admin.email);
    expect(await t.query('SELECT 1 FROM login_failures WHERE email_key = $1', [admin.email])).toHaveLength(0);
  });

  it('counts concurrent failed logins so that no more than 10 are verified', async () => {
    const admin = await newAdmin();
    const results = await Promise.all(
      Array.from({ length: 16 }, (_, i) => t.raw().post('/api/auth/login').send({ email: admin.email, password: `wrong-${i}` })),
    );
    // All the statuses at once, so that a failure shows any other answer (a 503, say) among them.
    expect(results.map((r) => r.status).sort()).toEqual([...Array(10).fill(401), ...Array(6).fill(429)]);
    expect(await t.query('SELECT 1 FROM login_failures WHERE email_key = $1', [admin.email])).toHaveLength(10);
  });

  it('refuses a cookie-authenticated request from a foreign Origin with 403 csrf_rejected', async () => {
    const admin = await newAdmin();
    const token = await login(admin.email);
    const cookie = `almanac_session=${token}`;
    for (const origin of ['https://evil.example', 'http://localhost:3001', 'null']) {
      const res = await t.api.get('/api/auth/session').set('Cookie', cookie).set('Origin', origin).expect(403);
      expect(res.body).toMatchObject({ status: 403, code: 'csrf_rejected' });
      await t.api.post('/api/auth/logout').set('Cookie', cookie).set('Origin', origin).expect(403);
      await t.api.get('/api/probe-admin/whoami').set('Cookie', cookie).set('Origin', origin).expect(403);
    }
    expect(await t.query('SELECT 1 FROM admin_sessions WHERE token_hash = $1', [createHash('sha256').update(token).digest('hex')])).toHaveLength(1);
    // Our own origin, or none at all (same-origin GET), is fine.
    await t.api.get('/api/auth/session').set('Cookie', cookie).set('Origin', ORIGIN).expect(200);
    await t.api.get('/api/auth/session').set('Cookie', cookie).expect(200);
    // Sign-in from a foreign page is refused as well.
    const login403 = await t.api.post('/api/auth/login').set('Origin', 'https://evil.example').send({ email: admin.email, password: PASSWORD }).expect(403);
    expect(login403.body.code).toBe('csrf_rejected');
  });

  it('ends a session after 12 hours idle, and after 7 days however busy', async () => {
    const admin = await newAdmin();
    const idle = await login(admin.email);
    t.clock.advance(12 * 60 * 60 * 1000 - 1000);
    await t.api.get('/api/auth/session').set('Cookie', `almanac_session=${idle}`).expect(200); // keeps it alive
    t.clock.advance(12 * 60 * 60 * 1000 - 1000);
    await t.api.get('/api/auth/session').set('Cookie', `almanac_session=${idle}`).expect(200);
    t.clock.advance(12 * 60 * 60 * 1000);
    const ended = await t.api.get('/api/auth/session').set('Cookie', `almanac_session=${idle}`).expect(401);
    expect(String((ended.headers['set-cookie'] as unknown as string[])[0])).toMatch(/^almanac_session=; Max-Age=0;/);

    const busy = await login(admin.email);
    for (let hours = 11; hours < 7 * 24; hours += 11) {
      t.clock.advance(11 * 60 * 60 * 1000);
      await t.api.get('/api/auth/session').set('Cookie', `almanac_session=${busy}`).expect(200);
    }
    t.clock.advance(11 * 60 * 60 * 1000); // 176 h after sign-in, used 11 h ago
    await t.api.get('/api/auth/session').set('Cookie', `almanac_session=${busy}`).expect(401);
  });

  it('validates the login body', async () => {
    const res = await t.api.post('/api/auth/login').send({ email: 'a@example.com' }).expect(400);
    expect(res.body.code).toBe('validation_failed');
    expect(res.body.errors.length).toBeGreaterThan(0);
    for (const error of res.body.errors) expect(error.field).toBe('password');
    await t.api.post('/api/auth/login').set('Content-Type', 'text/plain').send('email=a').expect(415);
  });

  describe('AdminSessionGuard and @AdminSession() (as the admin routes use them)', () => {
    it('gives the handler the signed-in admin', async () => {
      const admin = await newAdmin();
      const token = await login(admin.email);
      const res = await t.api.get('/api/probe-admin/whoami').set('Cookie', `almanac_session=${token}`).expect(200);
      expect(res.body.data).toEqual({ userId: admin.id, organizationId: orgId, role: 'admin', email: admin.email, name: expect.any(String) });
    });

    it('answers 401 without a valid session, and ignores bearer keys', async () => {
      const tenant = await t.tenant();
      const noSession = await t.api.get('/api/probe-admin/whoami').set(tenant.auth).expect(401);
      expect(noSession.body.code).toBe('unauthorized');
      await t.api.get('/api/probe-admin/whoami').set('Cookie', 'almanac_session=not-a-token').expect(401);
      await t.api.get('/api/probe-admin/whoami').set('Cookie', `almanac_session=${'x'.repeat(43)}`).expect(401);
    });

    it('answers 403 to a session whose user is no longer an admin', async () => {
      const admin = await newAdmin();
      const token = await login(admin.email);
      await t.query(`UPDATE users SET role = 'author' WHERE id = $1`, [admin.id]);
      const res = await t.api.get('/api/probe-admin/whoami').set('Cookie', `almanac_session=${token}`).expect(403);
      expect(res.body.code).toBe('forbidden');
      // The session itself is still valid: the user can see who they are and sign out.
      const session = await t.api.get('/api/auth/session').set('Cookie', `almanac_session=${token}`).expect(200);
      expect(session.body.data.user.role).toBe('author');
      await t.api.post('/api/auth/logout').set('Cookie', `almanac_session=${token}`).expect(204);
    });

    it('requires JSON bodies on cookie-authenticated writes', async () => {
      const admin = await newAdmin();
      const token = await login(admin.email);
      await t.api.post('/api/probe-admin/echo').set('Cookie', `almanac_session=${token}`).set('Content-Type', 'text/plain').send('x').expect(415);
      await t.api.post('/api/probe-admin/echo').set('Cookie', `almanac_session=${token}`).set('Origin', ORIGIN).send({}).expect(201);
    });

    it('documents admin routes with the session cookie scheme', () => {
      const paths = t.document['paths'] as Record<string, Record<string, { security?: unknown[] }>>;
      expect(paths['/api/probe-admin/whoami']!['get']!.security).toEqual([{ session: [] }]);
      expect(paths['/api/auth/session']!['get']!.security).toEqual([{ session: [] }]);
    });
  });
});
