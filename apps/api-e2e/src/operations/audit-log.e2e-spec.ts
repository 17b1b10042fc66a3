import { AUDIT_ACTIONS, AuditLog, NO_AUDIT_SOURCE, TrustedProxies } from '@almanac/shared';
import { ADMIN_ORIGIN as ORIGIN, ADMIN_PASSWORD as PASSWORD, asAdmin, SignedInAdmin as Admin, signedInAdmin } from '../support/admin-session';
import { createTestApp, TestApp } from '../support/test-app';
import { Receiver } from '../webhooks/receiver';
import { startFeedServer } from '../admin/admin-fixtures';


interface Entry {
  id: string;
  at: string;
  action: string;
  actor: { type: string; id: string; name: string } | null;
  target: { type: string; id: string };
  ip: string | null;
  request_id: string | null;
}

describe('the audit log (e2e)', () => {
  let t: TestApp;
  let feeds: Awaited<ReturnType<typeof startFeedServer>>;
  const receiver = new Receiver();
  beforeAll(async () => {
    feeds = await startFeedServer();
    await receiver.start();
    t = await createTestApp({ config: { calendarAllowPrivateHosts: true, webhookAllowPrivateHosts: true, webhookDispatcher: false } });
  });
  afterAll(async () => {
    await t.close();
    await feeds.stop();
    await receiver.stop();
  });

  const admin = () => signedInAdmin(t, 'audited');
  const as = (a: Admin, method: 'get' | 'post' | 'put' | 'patch' | 'delete', path: string) => asAdmin(t, a, method, path);
  const log = async (a: Admin, query = ''): Promise<Entry[]> => (await as(a, 'get', `/api/organizations/${a.orgId}/audit-log?limit=100${query}`).expect(200)).body.data;
  const userActor = (a: Admin) => ({ type: 'user', id: a.userId, name: a.name });

  it('records sign-ins, refused sign-ins of known e-mails and sign-outs; never one of an unknown e-mail', async () => {
    const a = await admin();
    const wrong = await t.api.post('/api/auth/login').set('Origin', ORIGIN).send({ email: a.email.toUpperCase(), password: 'not the password' }).expect(401);
    await t.api.post('/api/auth/login').set('Origin', ORIGIN).send({ email: 'nobody-at-all@example.com', password: 'whatever it is' }).expect(401);
    const logout = await as(a, 'post', '/api/auth/logout').expect(204);
    const other = await admin();
    // Another organization's log holds its own entries only.
    expect((await log(other)).map((e) => e.action)).toEqual(['auth.signed_in', 'api_key.created']);
    const cookie = (await t.api.post('/api/auth/login').set('Origin', ORIGIN).send({ email: a.email, password: PASSWORD }).expect(200)).headers['set-cookie']![0]!.split(';')[0]!;
    const mine = await log({ ...a, cookie }, '&action=auth.signed_in');
    expect(mine).toHaveLength(2);
    expect(mine[0]).toMatchObject({ action: 'auth.signed_in', actor: userActor(a), target: { type: 'user', id: a.userId } });
    expect(mine[0]!.ip).toMatch(/127\.0\.0\.1$/);
    // A refusal is recorded off the answer's path (a known e-mail must not answer later than an unknown one).
    const deadline = Date.now() + 10_000;
    let failed = await log({ ...a, cookie }, '&action=auth.sign_in_failed');
    while (failed.length === 0 && Date.now() < deadline) failed = await log({ ...a, cookie }, '&action=auth.sign_in_failed');
    expect(failed).toEqual([
      { id: expect.any(String), at: expect.any(String), action: 'auth.sign_in_failed', actor: null, target: { type: 'user', id: a.userId }, ip: expect.stringMatching(/127\.0\.0\.1$/), request_id: wrong.headers['x-request-id'] },
    ]);
    const out = await log({ ...a, cookie }, '&action=auth.signed_out');
    expect(out).toEqual([expect.objectContaining({ actor: userActor(a), target: { type: 'user', id: a.userId }, request_id: logout.headers['x-request-id'] })]);
    // The unknown e-mail belongs to no organization: recorded nowhere.
    expect(await t.query("SELECT 1 FROM audit_log WHERE action = 'auth.sign_in_failed' AND target_id <> $1", [a.userId])).toEqual([]);
  });

  it('records keys created and revoked (by the console, or the command line without an actor), never the key', async () => {
    const a = await admin();
    const created = await as(a, 'post', `/api/organizations/${a.orgId}/api-keys`).send({ name: 'Robot' }).expect(201);
    const key = created.body.data;
    await as(a, 'delete', `/api/organizations/${a.orgId}/api-keys/${key.id}`).expect(200);
    // Revoking again keeps the first revoked_at; the request is recorded all the same.
    await as(a, 'delete', `/api/organizations/${a.orgId}/api-keys/${key.id}`).expect(200);
    const byCli = await t.identity.createApiKey({ organizationId: a.orgId, name: 'From the CLI' }, NO_AUDIT_SOURCE);

    const entries = await log(a, '&action=api_key.created');
    expect(entries.slice(0, 2)).toEqual([
      expect.objectContaining({ actor: null, target: { type: 'api_key', id: byCli.id }, ip: null, request_id: null }),
      expect.objectContaining({ actor: userActor(a), target: { type: 'api_key', id: key.id }, request_id: created.headers['x-request-id'] }),
    ]);
    expect(await log(a, '&action=api_key.revoked')).toEqual([
      expect.objectContaining({ actor: userActor(a), target: { type: 'api_key', id: key.id } }),
      expect.objectContaining({ actor: userActor(a), target: { type: 'api_key', id: key.id } }),
    ]);
    const stored = JSON.stringify(await t.query('SELECT * FROM audit_log WHERE organization_id = $1', [a.orgId]));
    expect(stored).not.toContain(key.key);
    expect(stored).not.toContain(byCli.key);
    expect(stored).not.toContain(PASSWORD);
  });

  it('records the calendar integration set and removed, and every import run, failed ones too', async () => {
    const a = await admin();
    const schedule = (await t.api.post('/api/v1/schedules').set(a.auth).send({ name: 'Imported' }).expect(201)).body.data;
    const put = await as(a, 'put', `/api/organizations/${a.orgId}/calendar-integration`).send({ provider: 'ics', url: `${feeds.base}/feed.ics`, schedule_id: schedule.id }).expect(200);
    await as(a, 'post', '/api/bookings/sync-external').send({ organizationId: a.orgId, startDate: '2027-03-01', endDate: '2027-04-01' }).expect(200);
    await as(a, 'delete', `/api/organizations/${a.orgId}/calendar-integration`).expect(200);
    await as(a, 'post', '/api/bookings/sync-external').send({ organizationId: a.orgId }).expect(422);

    const runs = await t.query<{ id: string; status: string }>('SELECT id, status FROM calendar_syncs WHERE organization_id = $1 ORDER BY started_at DESC, id DESC', [a.orgId]);
    expect(runs.map((r) => r.status)).toEqual(['failed', 'succeeded']);
    expect((await log(a)).filter((e) => !e.action.startsWith('auth.') && !e.action.startsWith('api_key.')).map((e) => [e.action, e.target])).toEqual([
      ['calendar.import_ran', { type: 'calendar_sync', id: runs[0]!.id }],
      ['calendar_integration.removed', { type: 'calendar_integration', id: put.body.data.id }],
      ['calendar.import_ran', { type: 'calendar_sync', id: runs[1]!.id }],
      ['calendar_integration.set', { type: 'calendar_integration', id: put.body.data.id }],
    ]);
    expect(JSON.stringify(await log(a))).not.toContain('feed.ics');
  });

  it('records webhook endpoints created, changed, rotated and deleted, by an API key or by the console, never the secret', async () => {
    const a = await admin();
    const [{ name: keyName }] = await t.query<{ name: string }>("SELECT name FROM api_keys WHERE organization_id = $1 AND key_hash IS NOT NULL ORDER BY created_at LIMIT 1", [a.orgId]);
    const [{ id: keyId }] = await t.query<{ id: string }>('SELECT id FROM api_keys WHERE organization_id = $1 ORDER BY created_at LIMIT 1', [a.orgId]);
    const byKey = (await t.api.post('/api/v1/webhooks').set(a.auth).send({ url: `${receiver.base}/a`, events: ['*'] }).expect(201)).body.data;
    await t.api.patch(`/api/v1/webhooks/${byKey.id}`).set(a.auth).send({ enabled: false }).expect(200);
    const rotatedByKey = (await t.api.post(`/api/v1/webhooks/${byKey.id}/rotate-secret`).set(a.auth).expect(200)).body.data;
    await t.api.delete(`/api/v1/webhooks/${byKey.id}`).set(a.auth).expect(200);
    const byConsole = (await as(a, 'post', `/api/organizations/${a.orgId}/webhooks`).send({ url: `${receiver.base}/b`, events: ['*'] }).expect(201)).body.data;
    await as(a, 'patch', `/api/organizations/${a.orgId}/webhooks/${byConsole.id}`).send({ description: 'CRM' }).expect(200);
    const rotatedByConsole = (await as(a, 'post', `/api/organizations/${a.orgId}/webhooks/${byConsole.id}/rotate-secret`).expect(200)).body.data;
    expect(rotatedByConsole.secret).toMatch(/^whsec_/);
    await as(a, 'delete', `/api/organizations/${a.orgId}/webhooks/${byConsole.id}`).expect(200);
    // A change that fails (a stale If-Match) records nothing.
    await t.api.patch(`/api/v1/webhooks/${byConsole.id}`).set(a.auth).set('If-Match', '"stale"').send({ enabled: true }).expect(404);

    const keyActor = { type: 'api_key', id: keyId, name: keyName };
    const webhookEntries = (await log(a)).filter((e) => e.action.startsWith('webhook.')).map((e) => [e.action, e.actor, e.target.id]);
    expect(webhookEntries).toEqual([
      ['webhook.deleted', userActor(a), byConsole.id],
      ['webhook.secret_rotated', userActor(a), byConsole.id],
      ['webhook.updated', userActor(a), byConsole.id],
      ['webhook.created', userActor(a), byConsole.id],
      ['webhook.deleted', keyActor, byKey.id],
      ['webhook.secret_rotated', keyActor, byKey.id],
      ['webhook.updated', keyActor, byKey.id],
      ['webhook.created', keyActor, byKey.id],
    ]);
    const stored = JSON.stringify(await t.query('SELECT * FROM audit_log WHERE organization_id = $1', [a.orgId]));
    for (const secret of [byKey.secret, rotatedByKey.secret, byConsole.secret, rotatedByConsole.secret]) expect(stored).not.toContain(secret);
  });

  it('writes an entry in the transaction of its action: an action that rolls back leaves none', async () => {
    const a = await admin();
    const b = await admin();
    // A key for a user of another organization is refused after the transaction began.
    await as(a, 'post', `/api/organizations/${a.orgId}/api-keys`).send({ name: 'x' }).expect(201);
    await expect(t.identity.createApiKey({ organizationId: a.orgId, userId: b.userId })).rejects.toMatchObject({ code: 'invalid_reference' });
    expect(await log(a, '&action=api_key.created')).toHaveLength(2); // the tenant's own key and the console's
    // The endpoint cap is checked inside the create's transaction.
    await t.query(
      `INSERT INTO webhook_endpoints (organization_id, id, url, events, enabled, secret, created_at, updated_at)
       SELECT $1, gen_random_uuid(), 'https://example.com/' || n, '{*}', true, 'whsec_x', now(), now() FROM generate_series(1, 25) n`,
      [a.orgId],
    );
    await t.api.post('/api/v1/webhooks').set(a.auth).send({ url: `${receiver.base}/c`, events: ['*'] }).expect(409);
    expect(await log(a, '&action=webhook.created')).toEqual([]);
  });

  it('lists newest first with a page and a total, filters by action, refuses an unknown action and another organization', async () => {
    const a = await admin();
    for (const name of ['k1', 'k2', 'k3']) await as(a, 'post', `/api/organizations/${a.orgId}/api-keys`).send({ name }).expect(201);
    const all = await log(a);
    expect(all.map((e) => e.action)).toEqual(['api_key.created', 'api_key.created', 'api_key.created', 'auth.signed_in', 'api_key.created']);
    const sorted = [...all].sort((x, y) => (x.at === y.at ? (x.id < y.id ? 1 : -1) : x.at < y.at ? 1 : -1));
    expect(all).toEqual(sorted);
    const page = await as(a, 'get', `/api/organizations/${a.orgId}/audit-log?action=api_key.created&limit=2&offset=1`).expect(200);
    expect(page.body.meta).toEqual({ total: 4, limit: 2, offset: 1, hasMore: true });
    expect(page.headers['link']).toContain('action=api_key.created');
    const bad = await as(a, 'get', `/api/organizations/${a.orgId}/audit-log?action=api_key.deleted`).expect(400);
    expect(bad.body.errors).toEqual([expect.objectContaining({ field: 'action' })]);
    const b = await admin();
    await as(a, 'get', `/api/organizations/${b.orgId}/audit-log`).expect(403);
    await t.api.get(`/api/organizations/${a.orgId}/audit-log`).set(a.auth).expect(401);
    expect(AUDIT_ACTIONS).toHaveLength(13);
  });

  it('is append-only by the database: no UPDATE, DELETE or TRUNCATE; an organization deleted takes its entries with it', async () => {
    const a = await admin();
    await expect(t.query("UPDATE audit_log SET actor_name = 'someone else' WHERE organization_id = $1", [a.orgId])).rejects.toThrow(/append-only/);
    await expect(t.query('DELETE FROM audit_log WHERE organization_id = $1', [a.orgId])).rejects.toThrow(/append-only/);
    await expect(t.query('TRUNCATE audit_log')).rejects.toThrow(/append-only/);
    expect((await t.query('SELECT 1 FROM audit_log WHERE organization_id = $1', [a.orgId])).length).toBeGreaterThan(0);
    await t.query('DELETE FROM admin_sessions WHERE organization_id = $1', [a.orgId]);
    await t.query('DELETE FROM organizations WHERE id = $1', [a.orgId]);
    expect(await t.query('SELECT 1 FROM audit_log WHERE organization_id = $1', [a.orgId])).toEqual([]);
    // No route writes to it but the actions themselves: the document has one audit-log operation, a GET.
    const paths = Object.entries(t.document['paths'] as Record<string, Record<string, unknown>>).filter(([path]) => path.includes('audit-log'));
    expect(paths.map(([path, item]) => [path, Object.keys(item)])).toEqual([['/api/organizations/{organizationId}/audit-log', ['get']]]);
    expect(t.app.get(AuditLog)).toBeDefined();
  });

  it('answers another organization\'s id with 403 on every /api/organizations/{organizationId}/… operation, before reading the body', async () => {
    const a = await admin();
    const b = await admin();
    const operations = Object.entries(t.document['paths'] as Record<string, Record<string, unknown>>)
      .filter(([path]) => path.startsWith('/api/organizations/{organizationId}/'))
      .flatMap(([path, item]) => Object.keys(item).filter((m) => ['get', 'post', 'put', 'patch', 'delete'].includes(m)).map((method) => ({ method, path })));
    expect(operations.length).toBeGreaterThanOrEqual(20);
    const someId = '018f0000-0000-7000-8000-000000000000';
    for (const { method, path } of operations) {
      const url = path.replace('{organizationId}', b.orgId).replace(/\{[a-zA-Z]+\}/g, someId);
      const res = await t.api[method as 'get'](url).set('Cookie', a.cookie).set('Origin', ORIGIN).send(method === 'get' || method === 'delete' ? undefined : { not: 'valid' });
      expect([method, path, res.status]).toEqual([method, path, 403]);
    }
  });
});

describe('the audit log behind a trusted proxy (e2e)', () => {
  // The test client connects over loopback: here loopback is the proxy, as the compose file's nginx is.
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ config: { trustedProxies: TrustedProxies.parse('127.0.0.1'), webhookAllowPrivateHosts: true, webhookDispatcher: false } });
  });
  afterAll(async () => {
    await t.close();
  });

  it('names the client the proxy forwarded for every action, as for a sign-in: never the proxy, IPv6 by its /64, and not what the client wrote itself', async () => {
    const a = await signedInAdmin(t, 'proxied');
    // What the client put in the header itself comes first; the proxy appends the address it saw.
    const signIn = await t.api.post('/api/auth/login').set('Origin', ORIGIN).set('X-Forwarded-For', '198.51.100.1, 203.0.113.7').send({ email: a.email, password: PASSWORD }).expect(200);
    const cookie = String(signIn.headers['set-cookie']![0]).split(';')[0]!;
    const viaConsole = await asAdmin(t, { cookie }, 'post', `/api/organizations/${a.orgId}/api-keys`).set('X-Forwarded-For', '198.51.100.1, 203.0.113.7').send({ name: 'Robot' }).expect(201);
    const viaKey = await t.api.post('/api/v1/webhooks').set(a.auth).set('X-Forwarded-For', '2001:db8:1:2:3:4:5:6').send({ url: 'http://127.0.0.1:9/hook', events: ['*'] }).expect(201);
    const ipOf = async (requestId: string) =>
      (await t.query<{ action: string; ip: string }>('SELECT action, ip FROM audit_log WHERE organization_id = $1 AND request_id = $2', [a.orgId, requestId]));
    expect(await ipOf(signIn.headers['x-request-id'])).toEqual([{ action: 'auth.signed_in', ip: '203.0.113.7' }]);
    expect(await ipOf(viaConsole.headers['x-request-id'])).toEqual([{ action: 'api_key.created', ip: '203.0.113.7' }]);
    expect(await ipOf(viaKey.headers['x-request-id'])).toEqual([{ action: 'webhook.created', ip: '2001:db8:1:2::/64' }]);
    // The route answers what was stored.
    const listed = (await asAdmin(t, { cookie }, 'get', `/api/organizations/${a.orgId}/audit-log?action=webhook.created`).expect(200)).body.data as Entry[];
    expect(listed.map((e) => [e.request_id, e.ip])).toEqual([[viaKey.headers['x-request-id'], '2001:db8:1:2::/64']]);
  });
});
