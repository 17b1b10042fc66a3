import { WebhookDispatcher } from '@almanac/webhooks';
import { createTestApp, Tenant, TestApp } from '../support/test-app';
import { Receiver } from '../webhooks/receiver';
import { startFeedServer } from './admin-fixtures';

const ORIGIN = 'http://localhost:3000';
const PASSWORD = 'correct horse battery';

interface Admin extends Tenant {
  cookie: string;
}

describe('admin console endpoints (e2e)', () => {
  let t: TestApp;
  let feeds: Awaited<ReturnType<typeof startFeedServer>>;
  const receiver = new Receiver();
  let counter = 0;

  beforeAll(async () => {
    feeds = await startFeedServer();
    await receiver.start();
    // The dispatcher is driven by the tests (runOnce), so each delivery is awaited, not raced.
    t = await createTestApp({ config: { calendarAllowPrivateHosts: true, webhookAllowPrivateHosts: true, webhookDispatcher: false } });
  });
  afterAll(async () => {
    await t.close();
    await feeds.stop();
    await receiver.stop();
  });

  async function admin(): Promise<Admin> {
    counter += 1;
    const tenant = await t.tenant();
    const email = `console${counter}@example.com`;
    await t.identity.createUser({ organizationId: tenant.orgId, email, name: `Admin ${counter}`, password: PASSWORD, role: 'admin' });
    const login = await t.api.post('/api/auth/login').set('Origin', ORIGIN).send({ email, password: PASSWORD }).expect(200);
    return { ...tenant, cookie: String(login.headers['set-cookie']![0]).split(';')[0]! };
  }

  const as = (a: Admin, method: 'get' | 'post' | 'patch' | 'delete', path: string) => t.api[method](path).set('Cookie', a.cookie).set('Origin', ORIGIN);

  describe('schedules', () => {
    it("lists the organization's schedules for the session (paginated, with Link); another organization: 403; a bearer key: 401", async () => {
      const a = await admin();
      const b = await admin();
      for (const name of ['Room A', 'Room B', 'Room C']) await t.api.post('/api/v1/schedules').set(a.auth).send({ name }).expect(201);
      await t.api.post('/api/v1/schedules').set(b.auth).send({ name: 'Other' }).expect(201);
      const page = await as(a, 'get', `/api/organizations/${a.orgId}/schedules?limit=2`).expect(200);
      expect(page.body.data.map((s: { name: string }) => s.name)).toEqual(['Room A', 'Room B']);
      expect(page.body.meta).toEqual({ total: 3, limit: 2, offset: 0, hasMore: true });
      expect(page.headers['link']).toContain(`</api/organizations/${a.orgId}/schedules?limit=2&offset=2>; rel="next"`);
      await as(a, 'get', `/api/organizations/${b.orgId}/schedules`).expect(403);
      await t.api.get(`/api/organizations/${a.orgId}/schedules`).set(a.auth).expect(401);
    });
  });

  describe('API keys', () => {
    it('creates a key shown once, lists it without the key or its hash, and the key works on /api/v1', async () => {
      const a = await admin();
      const created = await as(a, 'post', `/api/organizations/${a.orgId}/api-keys`)
        .send({ name: 'Website', scopes: ['bookings:read'] })
        .expect(201);
      const key = created.body.data;
      expect(key.key).toMatch(/^alm_[0-9A-Za-z]{32}$/);
      expect(key.prefix).toBe(key.key.slice(0, 12));
      expect(key).toMatchObject({ name: 'Website', scopes: ['bookings:read'], revoked_at: null, expires_at: null, last_used_at: null });
      expect(created.headers['location']).toBe(`/api/organizations/${a.orgId}/api-keys/${key.id}`);
      const [stored] = await t.query<{ key_hash: string }>('SELECT key_hash FROM api_keys WHERE id = $1', [key.id]);
      expect(stored!.key_hash).not.toContain(key.key);

      await t.api.get('/api/v1/schedules').set('Authorization', `Bearer ${key.key}`).expect(200);
      await t.api.post('/api/v1/schedules').set('Authorization', `Bearer ${key.key}`).send({ name: 'X', timezone: 'UTC' }).expect(403);

      const list = await as(a, 'get', `/api/organizations/${a.orgId}/api-keys`).expect(200);
      expect(list.body.meta).toEqual({ total: 2, limit: 50, offset: 0, hasMore: false });
      expect(list.body.data.map((k: { id: string }) => k.id)).toContain(key.id);
      const text = JSON.stringify(list.body);
      expect(text).not.toContain(key.key);
      expect(text).not.toContain(stored!.key_hash);
      expect(list.body.data.every((k: Record<string, unknown>) => !('key' in k))).toBe(true);
      // Past the last key: no rows, and the total still counted.
      const beyond = await as(a, 'get', `/api/organizations/${a.orgId}/api-keys?offset=5`).expect(200);
      expect(beyond.body).toEqual({ data: [], meta: { total: 2, limit: 50, offset: 5, hasMore: false } });
    });

    it('gives a key without scopes every scope, and takes a future expiry', async () => {
      const a = await admin();
      const expires = new Date(Date.now() + 86_400_000).toISOString();
      const created = await as(a, 'post', `/api/organizations/${a.orgId}/api-keys`).send({ name: 'All', expires_at: expires }).expect(201);
      expect(created.body.data.scopes).toHaveLength(8);
      expect(created.body.data.expires_at).toBe(expires);
    });

    it('validates the body', async () => {
      const a = await admin();
      const bad = await as(a, 'post', `/api/organizations/${a.orgId}/api-keys`).send({ name: '', scopes: ['root'], expires_at: '2020-01-01' }).expect(400);
      expect(bad.body.errors.map((e: { field: string }) => e.field).sort()).toEqual(['expires_at', 'name', 'scopes']);
      const past = await as(a, 'post', `/api/organizations/${a.orgId}/api-keys`).send({ name: 'Old', expires_at: '2020-01-01T00:00:00Z' }).expect(400);
      expect(past.body.errors[0].field).toBe('expires_at');
    });

    it('revokes a key (it stays listed with revoked_at and stops working), 404 for another organization’s key', async () => {
      const a = await admin();
      const b = await admin();
      const created = await as(a, 'post', `/api/organizations/${a.orgId}/api-keys`).send({ name: 'Temp' }).expect(201);
      const id = created.body.data.id;
      await t.api.get('/api/v1/api-keys/current').set('Authorization', `Bearer ${created.body.data.key}`).expect(200);

      await as(b, 'delete', `/api/organizations/${b.orgId}/api-keys/${id}`).expect(404);
      const revoked = await as(a, 'delete', `/api/organizations/${a.orgId}/api-keys/${id}`).expect(200);
      expect(revoked.body.data.revoked_at).toEqual(expect.any(String));
      expect(revoked.body.data).not.toHaveProperty('key');
      await t.api.get('/api/v1/api-keys/current').set('Authorization', `Bearer ${created.body.data.key}`).expect(401);
      const again = await as(a, 'delete', `/api/organizations/${a.orgId}/api-keys/${id}`).expect(200);
      expect(again.body.data.revoked_at).toBe(revoked.body.data.revoked_at);

      const list = await as(a, 'get', `/api/organizations/${a.orgId}/api-keys`).expect(200);
      expect(list.body.data.find((k: { id: string }) => k.id === id).revoked_at).toBe(revoked.body.data.revoked_at);
      await as(a, 'delete', `/api/organizations/${a.orgId}/api-keys/not-a-uuid`).expect(404);
    });

    it('refuses another organization (403), no session (401), a bearer key (401) and a foreign Origin (403)', async () => {
      const a = await admin();
      const b = await admin();
      await as(a, 'get', `/api/organizations/${b.orgId}/api-keys`).expect(403);
      await as(a, 'post', `/api/organizations/${b.orgId}/api-keys`).send({ name: 'X' }).expect(403);
      await t.api.get(`/api/organizations/${a.orgId}/api-keys`).expect(401);
      await t.api.get(`/api/organizations/${a.orgId}/api-keys`).set(a.auth).expect(401);
      const csrf = await t.api.post(`/api/organizations/${a.orgId}/api-keys`).set('Cookie', a.cookie).set('Origin', 'https://evil.example').send({ name: 'X' }).expect(403);
      expect(csrf.body.code).toBe('csrf_rejected');
      expect(await t.query('SELECT 1 FROM api_keys WHERE organization_id = $1 AND name = $2', [b.orgId, 'X'])).toHaveLength(0);
    });
  });

  describe('calendar-syncs', () => {
    it('keeps one record per run, succeeded with the summary or failed with the error, newest first, paginated', async () => {
      const a = await admin();
      const schedule = await t.api.post('/api/v1/schedules').set(a.auth).send({ name: 'Imported', timezone: 'UTC' }).expect(201);
      const integrate = (path: string) =>
        t.api
          .put(`/api/organizations/${a.orgId}/calendar-integration`)
          .set('Cookie', a.cookie)
          .set('Origin', ORIGIN)
          .send({ provider: 'ics', url: `${feeds.base}${path}`, schedule_id: schedule.body.data.id, name: 'Clinic' })
          .expect(200);
      const sync = () =>
        as(a, 'post', '/api/bookings/sync-external').send({ organizationId: a.orgId, startDate: '2027-03-01', endDate: '2027-04-01' });

      // Not configured yet: a failed run.
      await sync().expect(422);
      await integrate('/feed.ics');
      t.clock.advance(1000);
      const ok = await sync().expect(200);
      expect(ok.body).toMatchObject({ synced: 2, skipped: 2, updated: 0, cancelled: 0 });
      await integrate('/down.ics');
      t.clock.advance(1000);
      await sync().expect(502);

      const history = await as(a, 'get', `/api/organizations/${a.orgId}/calendar-syncs`).expect(200);
      expect(history.body.meta).toEqual({ total: 3, limit: 50, offset: 0, hasMore: false });
      const [failed, succeeded, unconfigured] = history.body.data;
      expect(failed).toMatchObject({ status: 'failed', summary: null, error: { code: 'upstream_failed' } });
      expect(succeeded).toMatchObject({
        status: 'succeeded',
        error: null,
        start_date: '2027-03-01T00:00:00.000Z',
        end_date: '2027-04-01T00:00:00.000Z',
        summary: { synced: 2, skipped: 2, updated: 0, cancelled: 0, skipped_reasons: { cancelled: 1, all_day: 1 } },
      });
      expect(unconfigured).toMatchObject({ status: 'failed', error: { code: 'integration_not_configured' } });
      expect(Date.parse(failed.started_at)).toBeGreaterThan(Date.parse(succeeded.started_at));

      const page = await as(a, 'get', `/api/organizations/${a.orgId}/calendar-syncs?limit=1&offset=1`).expect(200);
      expect(page.body.data.map((r: { id: string }) => r.id)).toEqual([succeeded.id]);
      expect(page.body.meta).toEqual({ total: 3, limit: 1, offset: 1, hasMore: true });
      expect(page.headers['link']).toContain('rel="next"');
    });

    it('refuses another organization’s history with 403 and keeps histories apart', async () => {
      const a = await admin();
      const b = await admin();
      await as(b, 'post', '/api/bookings/sync-external').send({ organizationId: b.orgId }).expect(422);
      await as(a, 'get', `/api/organizations/${b.orgId}/calendar-syncs`).expect(403);
      const own = await as(a, 'get', `/api/organizations/${a.orgId}/calendar-syncs`).expect(200);
      expect(own.body).toEqual({ data: [], meta: { total: 0, limit: 50, offset: 0, hasMore: false } });
      await t.api.get(`/api/organizations/${a.orgId}/calendar-syncs`).expect(401);
    });
  });

  describe('webhooks', () => {
    it('creates an endpoint with its secret shown once, lists it, pings it, shows the delivery log, redelivers and disables', async () => {
      const a = await admin();
      const base = `/api/organizations/${a.orgId}/webhooks`;
      const created = await as(a, 'post', base).send({ url: `${receiver.base}/console`, events: ['*'], description: 'Console' }).expect(201);
      const hook = created.body.data;
      expect(hook.secret).toMatch(/^whsec_/);
      expect(created.headers['location']).toBe(`${base}/${hook.id}`);
      const list = await as(a, 'get', base).expect(200);
      expect(list.body.data).toEqual([expect.objectContaining({ id: hook.id, enabled: true, description: 'Console' })]);
      expect(JSON.stringify(list.body)).not.toContain(hook.secret);

      const ping = await as(a, 'post', `${base}/${hook.id}/ping`).expect(200);
      await t.app.get(WebhookDispatcher).runOnce();
      expect(receiver.on('/console')).toHaveLength(1);
      expect(receiver.on('/console')[0]!.body).toContain('webhook.ping');
      const log = await as(a, 'get', `${base}/${hook.id}/deliveries`).expect(200);
      expect(log.body.data).toEqual([expect.objectContaining({ id: ping.body.data.id, event_type: 'webhook.ping', status: 'succeeded', attempts: 1, response_status: 200 })]);

      const again = await as(a, 'post', `${base}/${hook.id}/deliveries/${ping.body.data.id}/redeliver`).expect(200);
      expect(again.body.data.status).toBe('pending');
      await t.app.get(WebhookDispatcher).runOnce();
      expect(receiver.on('/console')).toHaveLength(2);

      // If-Match as on /api/v1: a stale tag is 412 and changes nothing; the answer carries the new ETag.
      const stale = await as(a, 'patch', `${base}/${hook.id}`).set('If-Match', '"stale"').send({ enabled: false }).expect(412);
      expect(stale.body.code).toBe('precondition_failed');
      expect((await as(a, 'get', base).expect(200)).body.data[0].enabled).toBe(true);
      const disabled = await as(a, 'patch', `${base}/${hook.id}`).send({ enabled: false }).expect(200);
      expect(disabled.body.data.enabled).toBe(false);
      const tag = disabled.headers['etag'] as string;
      expect(tag).toMatch(/^"[A-Za-z0-9_-]+"$/);
      const enabled = await as(a, 'patch', `${base}/${hook.id}`).set('If-Match', tag).send({ enabled: true }).expect(200);
      expect(enabled.body.data.enabled).toBe(true);
    });

    it('refuses another organization (403) and another organization’s endpoint (404); bearer keys are not sessions', async () => {
      const a = await admin();
      const b = await admin();
      const hook = await as(b, 'post', `/api/organizations/${b.orgId}/webhooks`).send({ url: `${receiver.base}/b`, events: ['*'] }).expect(201);
      await as(a, 'get', `/api/organizations/${b.orgId}/webhooks`).expect(403);
      await as(a, 'patch', `/api/organizations/${a.orgId}/webhooks/${hook.body.data.id}`).send({ enabled: false }).expect(404);
      await as(a, 'get', `/api/organizations/${a.orgId}/webhooks/${hook.body.data.id}/deliveries`).expect(404);
      await t.api.get(`/api/organizations/${a.orgId}/webhooks`).set(a.auth).expect(401);
      const [row] = await t.query<{ enabled: boolean }>('SELECT enabled FROM webhook_endpoints WHERE id = $1', [hook.body.data.id]);
      expect(row!.enabled).toBe(true);
    });
  });
});
