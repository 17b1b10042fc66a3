import { Outbox } from '@almanac/shared';
import { MAX_WEBHOOK_ENDPOINTS_PER_ORGANIZATION, WebhookDispatcher, webhooksMigrations } from '@almanac/webhooks';
import { Webhook } from 'standardwebhooks';
import type { MigrationInterface } from 'typeorm';
import { changeFeedCaughtUp } from '../support/change-feed';
import { createTestApp, Tenant, TestApp } from '../support/test-app';
import { Receiver } from './receiver';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/** Webhooks (docs/contract/webhooks.md), against real loopback receivers; the dispatcher is driven by the test (runOnce). */
describe('webhooks (e2e)', () => {
  let t: TestApp;
  let a: Tenant;
  let dispatcher: WebhookDispatcher;
  const receiver = new Receiver();
  let counter = 0;

  beforeAll(async () => {
    await receiver.start();
    t = await createTestApp({
      config: {
        webhookAllowPrivateHosts: true,
        webhookDispatcher: false,
        webhookMaxAttempts: 3,
        webhookRetryBaseSeconds: 30,
        // The feed readers below follow the feed as fast as it answers; no per-key limit to meet.
        rateLimitPerMinute: 0,
      },
    });
    dispatcher = t.app.get(WebhookDispatcher);
    a = await t.tenant();
  });
  afterAll(async () => {
    await t.close();
    await receiver.stop();
  });

  async function subscribe(
    tenant: Tenant,
    events: string[] = ['*'],
  ): Promise<{ id: string; secret: string; path: string }> {
    counter += 1;
    const path = `/hook-${counter}`;
    const res = await t.api
      .post('/api/v1/webhooks')
      .set(tenant.auth)
      .send({ url: receiver.base + path, events })
      .expect(201);
    return { id: res.body.data.id, secret: res.body.data.secret, path };
  }
  const post = (tenant: Tenant, slug: string) =>
    t.api.post('/api/v1/posts').set(tenant.auth).send({ title: slug, slug });

  describe('endpoints', () => {
    it('creates with the secret shown once, reads, lists, changes and deletes', async () => {
      const res = await t.api
        .post('/api/v1/webhooks')
        .set(a.auth)
        .send({
          url: `${receiver.base}/crud`,
          events: ['booking.created', 'booking.created', 'post.published'],
          description: 'CRM',
        })
        .expect(201);
      const created = res.body.data;
      expect(res.headers['location']).toBe(`/api/v1/webhooks/${created.id}`);
      expect(created).toMatchObject({
        id: expect.stringMatching(UUID),
        events: ['booking.created', 'post.published'],
        description: 'CRM',
        enabled: true,
      });
      expect(Buffer.from(created.secret.replace(/^whsec_/, ''), 'base64')).toHaveLength(32);
      const read = (await t.api.get(`/api/v1/webhooks/${created.id}`).set(a.auth).expect(200)).body.data;
      expect(read).not.toHaveProperty('secret');
      expect(
        (await t.api.get('/api/v1/webhooks').set(a.auth).expect(200)).body.data.map(
          (w: { id: string }) => w.id,
        ),
      ).toContain(created.id);
      const patched = await t.api
        .patch(`/api/v1/webhooks/${created.id}`)
        .set(a.auth)
        .send({ enabled: false })
        .expect(200);
      expect(patched.body.data.enabled).toBe(false);
      const empty = await t.api.patch(`/api/v1/webhooks/${created.id}`).set(a.auth).send({}).expect(400);
      expect(empty.body.errors).toEqual([
        { field: 'body', message: 'must contain at least one field to change' },
      ]);
      await t.api.delete(`/api/v1/webhooks/${created.id}`).set(a.auth).expect(200);
      await t.api.get(`/api/v1/webhooks/${created.id}`).set(a.auth).expect(404);
    });

    it('lists endpoints by page only: the document names limit and offset, and a status is ignored as any unknown parameter', async () => {
      type Operation = { parameters?: Array<{ in: string; name: string }> };
      const paths = t.document['paths'] as Record<string, Record<string, Operation>>;
      const queryOf = (path: string) => (paths[path]!['get']!.parameters ?? []).filter((p) => p.in === 'query').map((p) => p.name).sort();
      expect(queryOf('/api/v1/webhooks')).toEqual(['limit', 'offset']);
      expect(queryOf('/api/organizations/{organizationId}/webhooks')).toEqual(['limit', 'offset']);
      // A delivery has a status; its list does filter by it.
      expect(queryOf('/api/v1/webhooks/{id}/deliveries')).toEqual(['limit', 'offset', 'status']);
      const tenant = await t.tenant();
      const first = await subscribe(tenant);
      const second = await subscribe(tenant);
      for (const status of ['failed', 'no-such-status']) {
        const listed = await t.api.get(`/api/v1/webhooks?status=${status}`).set(tenant.auth).expect(200);
        expect(listed.body.data.map((w: { id: string }) => w.id)).toEqual([first.id, second.id]);
      }
      const paged = await t.api.get('/api/v1/webhooks?limit=1&offset=1').set(tenant.auth).expect(200);
      expect(paged.body.data.map((w: { id: string }) => w.id)).toEqual([second.id]);
    });

    it('refuses unknown event types, other organizations and keys without the scopes', async () => {
      const bad = await t.api
        .post('/api/v1/webhooks')
        .set(a.auth)
        .send({ url: `${receiver.base}/x`, events: ['booking.exploded'] })
        .expect(400);
      expect(bad.body.errors[0].field).toMatch(/^events/);
      const hook = await subscribe(a);
      const b = await t.tenant();
      await t.api.get(`/api/v1/webhooks/${hook.id}`).set(b.auth).expect(404);
      const reader = await t.tenant({ scopes: ['posts:read'] });
      await t.api.get('/api/v1/webhooks').set(reader.auth).expect(403);
      const writerOnly = await t.tenant({ scopes: ['webhooks:read'] });
      await t.api
        .post('/api/v1/webhooks')
        .set(writerOnly.auth)
        .send({ url: `${receiver.base}/x`, events: ['*'] })
        .expect(403);
    });
  });

  describe('a subscription needs the scopes that read its event types', () => {
    const create = (tenant: Tenant, events: string[]) =>
      t.api.post('/api/v1/webhooks').set(tenant.auth).send({ url: `${receiver.base}/scoped`, events });
    const stored = async (orgId: string) =>
      (await t.query<{ events: string[] }>('SELECT events FROM webhook_endpoints WHERE organization_id = $1 ORDER BY created_at', [orgId])).map((r) => r.events);
    const refused = (res: { body: unknown; headers: Record<string, string> }, detail: string) => {
      expect(res.headers['content-type']).toMatch(/^application\/problem\+json/);
      expect(res.body).toMatchObject({ status: 403, code: 'forbidden', detail });
    };

    it('create: a write scope alone subscribes to nothing; each type needs its read scope, `*` all of them', async () => {
      const hooksOnly = await t.tenant({ scopes: ['webhooks:read', 'webhooks:write'] });
      refused(await create(hooksOnly, ['booking.created']).expect(403), 'Subscribing to booking.created needs the bookings:read scope, which this API key lacks.');
      refused(
        await create(hooksOnly, ['*']).expect(403),
        'Subscribing to * needs the bookings:read, events:read, posts:read scopes, which this API key lacks.',
      );
      refused(
        await create(hooksOnly, ['calendar.synced', 'registration.promoted', 'post.deleted']).expect(403),
        'Subscribing to registration.promoted, post.deleted needs the events:read, posts:read scopes, which this API key lacks.',
      );
      expect(await stored(hooksOnly.orgId)).toEqual([]);
      await create(hooksOnly, ['calendar.synced', 'webhook.ping']).expect(201);

      const bookings = await t.tenant({ scopes: ['webhooks:write', 'bookings:read'] });
      await create(bookings, ['booking.created', 'booking.no_show']).expect(201);
      refused(await create(bookings, ['booking.created', 'event.created']).expect(403), 'Subscribing to event.created needs the events:read scope, which this API key lacks.');
      // calendar.synced and webhook.ping are read with webhooks:read, as in the change feed; `*` covers them too.
      refused(await create(bookings, ['webhook.ping']).expect(403), 'Subscribing to webhook.ping needs the webhooks:read scope, which this API key lacks.');
      const threeReads = await t.tenant({ scopes: ['webhooks:write', 'bookings:read', 'events:read', 'posts:read'] });
      refused(await create(threeReads, ['*']).expect(403), 'Subscribing to * needs the webhooks:read scope, which this API key lacks.');
      await create(threeReads, ['booking.created', 'event.updated', 'registration.created', 'post.published']).expect(201);
      const reader = await t.tenant({ scopes: ['webhooks:read', 'webhooks:write', 'bookings:read', 'events:read', 'posts:read'] });
      await create(reader, ['*']).expect(201);
      expect(await stored(bookings.orgId)).toEqual([['booking.created', 'booking.no_show']]);
      expect(await stored(reader.orgId)).toEqual([['*']]);
    });

    it('PATCH: the events a request sends are checked the same way; other fields need no read scope', async () => {
      const tenant = await t.tenant({ scopes: ['webhooks:read', 'webhooks:write', 'posts:read'] });
      const hook = (await create(tenant, ['post.created']).expect(201)).body.data;
      refused(
        await t.api.patch(`/api/v1/webhooks/${hook.id}`).set(tenant.auth).send({ events: ['post.created', 'booking.cancelled'], enabled: false }).expect(403),
        'Subscribing to booking.cancelled needs the bookings:read scope, which this API key lacks.',
      );
      refused(await t.api.patch(`/api/v1/webhooks/${hook.id}`).set(tenant.auth).send({ events: ['*'] }).expect(403), 'Subscribing to * needs the bookings:read, events:read scopes, which this API key lacks.');
      const [row] = await t.query<{ events: string[]; enabled: boolean }>('SELECT events, enabled FROM webhook_endpoints WHERE id = $1', [hook.id]);
      expect(row).toEqual({ events: ['post.created'], enabled: true });
      await t.api.patch(`/api/v1/webhooks/${hook.id}`).set(tenant.auth).send({ description: 'posts only' }).expect(200);
      const moved = await t.api.patch(`/api/v1/webhooks/${hook.id}`).set(tenant.auth).send({ events: ['post.published', 'webhook.ping'] }).expect(200);
      expect(moved.body.data.events).toEqual(['post.published', 'webhook.ping']);
    });

    it('an admin (session) may subscribe to every event type', async () => {
      const tenant = await t.tenant({ scopes: ['webhooks:read'] });
      const email = `hooks-admin-${tenant.orgId}@example.com`;
      await t.identity.createUser({ organizationId: tenant.orgId, email, name: 'Admin', password: 'correct horse battery', role: 'admin' });
      const origin = 'http://localhost:3000';
      const login = await t.api.post('/api/auth/login').set('Origin', origin).send({ email, password: 'correct horse battery' }).expect(200);
      const cookie = String(login.headers['set-cookie']![0]).split(';')[0]!;
      const base = `/api/organizations/${tenant.orgId}/webhooks`;
      const hook = await t.api.post(base).set('Cookie', cookie).set('Origin', origin).send({ url: `${receiver.base}/admin`, events: ['booking.created'] }).expect(201);
      await t.api.patch(`${base}/${hook.body.data.id}`).set('Cookie', cookie).set('Origin', origin).send({ events: ['*'] }).expect(200);
      expect(await stored(tenant.orgId)).toEqual([['*']]);
    });
  });

  describe('at most MAX_WEBHOOK_ENDPOINTS_PER_ORGANIZATION endpoints per organization', () => {
    it('parallel creates past the cap: exactly the cap succeeds, the rest are 409 webhook_limit_reached', async () => {
      const cap = MAX_WEBHOOK_ENDPOINTS_PER_ORGANIZATION;
      expect(cap).toBe(25);
      const tenant = await t.tenant();
      const create = (i: number) =>
        t.api
          .post('/api/v1/webhooks')
          .set(tenant.auth)
          .send({ url: `${receiver.base}/cap-${i}`, events: ['*'] });
      const answers = await Promise.all(Array.from({ length: cap + 5 }, (_, i) => create(i)));
      const statuses = answers.map((r) => r.status);
      expect(statuses.filter((s) => s === 201)).toHaveLength(cap);
      expect(statuses.filter((s) => s === 409)).toHaveLength(5);
      for (const refused of answers.filter((r) => r.status === 409)) {
        expect(refused.headers['content-type']).toMatch(/^application\/problem\+json/);
        expect(refused.body).toMatchObject({
          status: 409,
          code: 'webhook_limit_reached',
          detail: `An organization may have at most ${cap} webhook endpoints; delete one before adding another.`,
        });
      }
      const count = async () =>
        Number(
          (
            await t.query<{ n: string }>('SELECT count(*) AS n FROM webhook_endpoints WHERE organization_id = $1', [
              tenant.orgId,
            ])
          )[0]!.n,
        );
      expect(await count()).toBe(cap);
      // The list's total, on a page and past the last row.
      const listed = (await t.api.get('/api/v1/webhooks?limit=10&offset=20').set(tenant.auth).expect(200)).body;
      expect(listed.data).toHaveLength(5);
      expect(listed.meta).toMatchObject({ total: cap, hasMore: false });
      const past = (await t.api.get('/api/v1/webhooks?offset=100').set(tenant.auth).expect(200)).body;
      expect(past.data).toEqual([]);
      expect(past.meta).toMatchObject({ total: cap, hasMore: false });
      // Another organization is not affected; a deleted endpoint frees its place.
      const other = await t.tenant();
      await t.api.post('/api/v1/webhooks').set(other.auth).send({ url: `${receiver.base}/cap-other`, events: ['*'] }).expect(201);
      const first = answers.find((r) => r.status === 201)!.body.data.id as string;
      await t.api.delete(`/api/v1/webhooks/${first}`).set(tenant.auth).expect(200);
      await create(cap + 5).expect(201);
      await create(cap + 6).expect(409);
      expect(await count()).toBe(cap);
      const fresh = await t.tenant();
      expect((await t.api.get('/api/v1/webhooks').set(fresh.auth).expect(200)).body.meta).toMatchObject({ total: 0 });
    });
  });

  describe('deliveries', () => {
    it('delivers each subscribed event once, signed (verified with the standardwebhooks package)', async () => {
      const tenant = await t.tenant();
      const hook = await subscribe(tenant, ['post.created']);
      const created = (await post(tenant, 'signed').expect(201)).body.data;
      await t.api
        .patch(`/api/v1/posts/${created.id}`)
        .set(tenant.auth)
        .send({ title: 'renamed' })
        .expect(200); // post.updated: not subscribed
      await dispatcher.runOnce();
      await dispatcher.runOnce();
      const got = receiver.on(hook.path);
      expect(got).toHaveLength(1);
      const verified = new Webhook(hook.secret).verify(
        got[0]!.body,
        got[0]!.headers as Record<string, string>,
      ) as Record<string, unknown>;
      expect(verified).toEqual({
        id: got[0]!.headers['webhook-id'],
        type: 'post.created',
        created_at: expect.any(String),
        organization_id: tenant.orgId,
        data: created,
      });
      expect(() =>
        new Webhook(`whsec_${Buffer.alloc(32, 1).toString('base64')}`).verify(
          got[0]!.body,
          got[0]!.headers as Record<string, string>,
        ),
      ).toThrow();
      const log = (await t.api.get(`/api/v1/webhooks/${hook.id}/deliveries`).set(tenant.auth).expect(200))
        .body;
      expect(log.data).toEqual([
        expect.objectContaining({
          event_type: 'post.created',
          status: 'succeeded',
          attempts: 1,
          response_status: 200,
          response_body: `ok ${hook.path}`,
          error: null,
        }),
      ]);
      expect(
        (await t.api.get(`/api/v1/webhooks/${hook.id}/deliveries?status=failed`).set(tenant.auth).expect(200))
          .body.data,
      ).toEqual([]);
      const past = (await t.api.get(`/api/v1/webhooks/${hook.id}/deliveries?offset=5`).set(tenant.auth).expect(200))
        .body;
      expect(past.data).toEqual([]);
      expect(past.meta).toMatchObject({ total: 1, hasMore: false });
    });

    it('retries with base × 4^(n−1) ± 10 %, then gives up (failed)', async () => {
      const tenant = await t.tenant();
      const hook = await subscribe(tenant, ['post.created']);
      receiver.statusFor.set(hook.path, 500);
      await post(tenant, 'retried').expect(201);
      const delivery = async () =>
        (await t.api.get(`/api/v1/webhooks/${hook.id}/deliveries`).set(tenant.auth).expect(200)).body.data[0];

      await dispatcher.runOnce();
      let d = await delivery();
      expect(d).toMatchObject({
        status: 'pending',
        attempts: 1,
        response_status: 500,
        error: 'the endpoint answered HTTP 500',
      });
      let wait = Date.parse(d.next_attempt_at) - Date.parse(d.last_attempt_at);
      expect(wait).toBeGreaterThanOrEqual(27_000);
      expect(wait).toBeLessThanOrEqual(33_000);
      await dispatcher.runOnce(); // not due yet
      expect(receiver.on(hook.path)).toHaveLength(1);

      t.clock.advance(wait);
      await dispatcher.runOnce();
      d = await delivery();
      expect(d.attempts).toBe(2);
      wait = Date.parse(d.next_attempt_at) - Date.parse(d.last_attempt_at);
      expect(wait).toBeGreaterThanOrEqual(108_000);
      expect(wait).toBeLessThanOrEqual(132_000);

      t.clock.advance(wait);
      await dispatcher.runOnce();
      d = await delivery();
      expect(d).toMatchObject({ status: 'failed', attempts: 3, next_attempt_at: null });
      expect(receiver.on(hook.path)).toHaveLength(3);
      expect(new Set(receiver.on(hook.path).map((r) => r.headers['webhook-id'])).size).toBe(1);

      // Redeliver: pending again now, with fresh attempts; the same webhook-id.
      receiver.statusFor.delete(hook.path);
      const again = await t.api
        .post(`/api/v1/webhooks/${hook.id}/deliveries/${d.id}/redeliver`)
        .set(tenant.auth)
        .expect(200);
      expect(again.body.data).toMatchObject({ status: 'pending', attempts: 0 });
      await dispatcher.runOnce();
      expect(await delivery()).toMatchObject({ status: 'succeeded', attempts: 1 });
      expect(new Set(receiver.on(hook.path).map((r) => r.headers['webhook-id'])).size).toBe(1);
    });

    it('may deliver out of order (a retried event after a later one), as documented; the change feed keeps the order', async () => {
      const tenant = await t.tenant();
      const hook = await subscribe(tenant, ['post.created', 'post.deleted']);
      receiver.statusFor.set(hook.path, 500);
      const created = (await post(tenant, 'out-of-order').expect(201)).body.data;
      await dispatcher.runOnce(); // post.created fails: retried in about 30 s
      receiver.statusFor.delete(hook.path);
      await t.api.delete(`/api/v1/posts/${created.id}`).set(tenant.auth).expect(200);
      await dispatcher.runOnce(); // post.deleted goes at once
      t.clock.advance(40_000);
      await dispatcher.runOnce(); // then the retry of post.created
      t.clock.set(new Date());
      const types = (path: string) => receiver.on(path).map((r) => JSON.parse(r.body).type as string);
      expect(types(hook.path)).toEqual(['post.created', 'post.deleted', 'post.created']);
      await changeFeedCaughtUp(t, tenant.orgId);
      const feed = (await t.api.get('/api/v1/changes').set(tenant.auth).expect(200)).body;
      expect(feed.data.map((e: { type: string }) => e.type)).toEqual(['post.created', 'post.deleted']);
      const paths = t.document['paths'] as Record<string, Record<string, { description: string }>>;
      for (const [path, method] of [['/api/v1/webhooks', 'post'], ['/api/organizations/{organizationId}/webhooks', 'post']] as const) {
        expect(paths[path]![method]!.description).toContain('Deliveries to one endpoint may arrive out of order');
        expect(paths[path]![method]!.description).toContain('`GET /api/v1/changes`');
      }
    });

    it('disables the endpoint on 410 Gone', async () => {
      const tenant = await t.tenant();
      const hook = await subscribe(tenant, ['post.created']);
      receiver.statusFor.set(hook.path, 410);
      await post(tenant, 'gone').expect(201);
      await dispatcher.runOnce();
      expect(
        (await t.api.get(`/api/v1/webhooks/${hook.id}`).set(tenant.auth).expect(200)).body.data.enabled,
      ).toBe(false);
      const [d] = (await t.api.get(`/api/v1/webhooks/${hook.id}/deliveries`).set(tenant.auth).expect(200))
        .body.data;
      expect(d).toMatchObject({ status: 'failed', response_status: 410 });
      // Disabled: later events are not delivered to it.
      await post(tenant, 'gone-2').expect(201);
      await dispatcher.runOnce();
      expect(receiver.on(hook.path)).toHaveLength(1);
    });

    it('sends nothing already queued to a disabled endpoint: the deliveries stay pending and resume when it is enabled again', async () => {
      const tenant = await t.tenant();
      const hook = await subscribe(tenant, ['post.created']);
      const pending = () =>
        t.query<{ status: string; attempts: number; next_attempt_at: Date; lease_until: Date | null }>(
          `SELECT d.status, d.attempts, d.next_attempt_at, d.lease_until
             FROM webhook_deliveries d JOIN outbox_events e ON e.organization_id = d.organization_id AND e.id = d.event_id
            WHERE d.organization_id = $1 AND d.endpoint_id = $2 ORDER BY e.seq`,
          [tenant.orgId, hook.id],
        );
      // A delivery queued for a retry: the receiver answers 500 first.
      receiver.statusFor.set(hook.path, 500);
      await post(tenant, 'queued-1').expect(201);
      await dispatcher.runOnce();
      expect(receiver.on(hook.path)).toHaveLength(1);
      const [queued] = await pending();
      expect(queued).toMatchObject({ status: 'pending', attempts: 1, lease_until: null });

      // Disabled by an admin (PATCH); the retry comes due: nothing is sent, the row is untouched.
      await t.api.patch(`/api/v1/webhooks/${hook.id}`).set(tenant.auth).send({ enabled: false }).expect(200);
      await post(tenant, 'queued-2').expect(201); // not fanned out to a disabled endpoint
      t.clock.advance(10 * 60 * 1000);
      await dispatcher.runOnce();
      await dispatcher.runOnce();
      expect(receiver.on(hook.path)).toHaveLength(1);
      expect(await pending()).toEqual([queued]);

      // Enabled again: the queued retry goes at once.
      receiver.statusFor.delete(hook.path);
      await t.api.patch(`/api/v1/webhooks/${hook.id}`).set(tenant.auth).send({ enabled: true }).expect(200);
      await dispatcher.runOnce();
      expect(receiver.on(hook.path)).toHaveLength(2);
      expect(await pending()).toEqual([expect.objectContaining({ status: 'succeeded', attempts: 2 })]);

      // Disabled by a 410: a retry queued before it is not sent either.
      receiver.statusFor.set(hook.path, 500);
      await post(tenant, 'queued-3').expect(201);
      await dispatcher.runOnce(); // 500: queued for a retry
      receiver.statusFor.set(hook.path, 410);
      await post(tenant, 'queued-4').expect(201);
      await dispatcher.runOnce(); // 410: the endpoint is disabled
      expect(receiver.on(hook.path)).toHaveLength(4);
      expect(
        (await t.api.get(`/api/v1/webhooks/${hook.id}`).set(tenant.auth).expect(200)).body.data.enabled,
      ).toBe(false);
      const before = await pending();
      expect(before.map((d) => [d.status, d.attempts])).toEqual([
        ['succeeded', 2],
        ['pending', 1],
        ['failed', 1],
      ]);
      t.clock.advance(10 * 60 * 1000);
      await dispatcher.runOnce();
      expect(receiver.on(hook.path)).toHaveLength(4);
      expect(await pending()).toEqual(before);
      receiver.statusFor.delete(hook.path);
      t.clock.set(new Date());
    });

    it('does not follow redirects', async () => {
      const tenant = await t.tenant();
      const hook = await subscribe(tenant, ['post.created']);
      receiver.redirectFor.set(hook.path, '/redirect-target');
      await post(tenant, 'redirected').expect(201);
      await dispatcher.runOnce();
      expect(receiver.on('/redirect-target')).toHaveLength(0);
      const [d] = (await t.api.get(`/api/v1/webhooks/${hook.id}/deliveries`).set(tenant.auth).expect(200))
        .body.data;
      expect(d).toMatchObject({
        status: 'pending',
        response_status: 302,
        error: 'redirects are not followed',
      });
    });

    it('signs with both secrets for 24 h after a rotation, then with the new one only', async () => {
      const tenant = await t.tenant();
      const hook = await subscribe(tenant, ['post.created']);
      const rotated = (
        await t.api.post(`/api/v1/webhooks/${hook.id}/rotate-secret`).set(tenant.auth).expect(200)
      ).body.data;
      expect(rotated).toEqual({ id: hook.id, secret: expect.stringMatching(/^whsec_/) });
      expect(rotated.secret).not.toBe(hook.secret);
      await post(tenant, 'rotated').expect(201);
      await dispatcher.runOnce();
      const [first] = receiver.on(hook.path);
      expect(String(first!.headers['webhook-signature']).split(' ')).toHaveLength(2);
      for (const secret of [hook.secret, rotated.secret]) {
        expect(() =>
          new Webhook(secret).verify(first!.body, first!.headers as Record<string, string>),
        ).not.toThrow();
      }
      t.clock.advance(24 * 3600 * 1000 + 1000);
      await post(tenant, 'rotated-later').expect(201);
      await dispatcher.runOnce();
      const second = receiver.on(hook.path)[1]!;
      expect(String(second.headers['webhook-signature']).split(' ')).toHaveLength(1);
      expect(() =>
        new Webhook(hook.secret).verify(second.body, second.headers as Record<string, string>),
      ).toThrow();
      t.clock.set(new Date());
    });

    it('pings one endpoint', async () => {
      const tenant = await t.tenant();
      const hook = await subscribe(tenant, ['booking.created']);
      const other = await subscribe(tenant, ['*']);
      const ping = await t.api.post(`/api/v1/webhooks/${hook.id}/ping`).set(tenant.auth).expect(200);
      expect(ping.body.data).toMatchObject({ event_type: 'webhook.ping', status: 'pending', attempts: 0 });
      await dispatcher.runOnce();
      expect(JSON.parse(receiver.on(hook.path)[0]!.body)).toMatchObject({
        type: 'webhook.ping',
        data: { id: hook.id },
      });
      expect(receiver.on(other.path)).toHaveLength(0);
    });
  });

  describe('URLs with credentials or tokens', () => {
    it('are masked in every answer and in the ping event; the full URL is used for delivery only', async () => {
      const tenant = await t.tenant();
      const port = new URL(receiver.base).port;
      const url = `http://hook-user:hook-pass@127.0.0.1:${port}/secret-path-token?token=abc123`;
      const masked = `http://127.0.0.1:${port}/secret-…?…`;
      const created = await t.api.post('/api/v1/webhooks').set(tenant.auth).send({ url, events: ['post.created'] }).expect(201);
      const id = created.body.data.id as string;
      const answers = [
        created.body.data,
        (await t.api.get(`/api/v1/webhooks/${id}`).set(tenant.auth).expect(200)).body.data,
        (await t.api.get('/api/v1/webhooks').set(tenant.auth).expect(200)).body.data[0],
        (await t.api.patch(`/api/v1/webhooks/${id}`).set(tenant.auth).send({ url, description: 'tokens' }).expect(200)).body.data,
      ];
      for (const answer of answers) expect(answer.url).toBe(masked);
      const ping = await t.api.post(`/api/v1/webhooks/${id}/ping`).set(tenant.auth).expect(200);
      expect(JSON.stringify(ping.body)).not.toContain('abc123');

      const [stored] = await t.query<{ url: string }>('SELECT url FROM webhook_endpoints WHERE id = $1', [id]);
      expect(stored!.url).toBe(url);
      const events = await t.query<{ data: unknown }>("SELECT data FROM outbox_events WHERE organization_id = $1 AND type = 'webhook.ping'", [tenant.orgId]);
      expect(events.map((e) => e.data)).toEqual([{ id, url: masked }]);
      await changeFeedCaughtUp(t, tenant.orgId);
      const feed = (await t.api.get('/api/v1/changes').set(tenant.auth).expect(200)).body;
      expect(feed.data.map((e: { data: unknown }) => e.data)).toEqual([{ id, url: masked }]);

      await dispatcher.runOnce();
      const [delivered] = receiver.on('/secret-path-token?token=abc123');
      expect(delivered!.headers['authorization']).toBe(`Basic ${Buffer.from('hook-user:hook-pass').toString('base64')}`);
      expect(JSON.parse(delivered!.body)).toMatchObject({ type: 'webhook.ping', data: { id, url: masked } });
      const log = (await t.api.get(`/api/v1/webhooks/${id}/deliveries`).set(tenant.auth).expect(200)).body;
      // The log holds what the endpoint answered (this receiver echoes its path), and nothing of the URL besides.
      expect(log.data[0].response_body).toBe('ok /secret-path-token?token=abc123');
      expect(JSON.stringify({ ...log.data[0], response_body: null })).not.toMatch(/abc123|hook-pass|secret-path/);
    });

    it('ping events recorded before masking are masked by a migration', async () => {
      const tenant = await t.tenant();
      const id = '0192f0e0-0000-7000-8000-00000000feed';
      const full = { id, url: 'https://user:pass@hooks.example.com/T000/B000/XXXX?token=abc' };
      await t.query(
        `INSERT INTO outbox_events (organization_id, id, type, data, created_at, fanned_out)
         VALUES ($1, gen_random_uuid(), 'webhook.ping', $2, now(), true), ($1, gen_random_uuid(), 'post.created', $2, now(), true)`,
        [tenant.orgId, JSON.stringify(full)],
      );
      const Migration = webhooksMigrations.find((m) => m.name === 'WebhooksMaskPingUrls1764340000000')!;
      const runner = t.dataSource.createQueryRunner();
      try {
        await (new Migration() as MigrationInterface).up(runner);
      } finally {
        await runner.release();
      }
      const rows = await t.query<{ type: string; data: unknown }>('SELECT type, data FROM outbox_events WHERE organization_id = $1 ORDER BY type', [tenant.orgId]);
      expect(rows).toEqual([
        { type: 'post.created', data: full },
        { type: 'webhook.ping', data: { id, url: 'https://hooks.example.com/T000/B0…?…' } },
      ]);
    });
  });

  describe('private addresses', () => {
    it('refuses them at subscription and again at delivery', async () => {
      const strict = await createTestApp({ config: { webhookDispatcher: false } });
      try {
        const s = await strict.tenant();
        for (const url of [
          'http://127.0.0.1:9/x',
          'http://localhost/x',
          'http://10.0.0.1/x',
          'http://[::1]/x',
          'http://[::ffff:7f00:1]/x',
        ]) {
          const res = await strict.api
            .post('/api/v1/webhooks')
            .set(s.auth)
            .send({ url, events: ['*'] })
            .expect(400);
          expect(res.body.errors).toEqual([
            { field: 'url', message: 'must not point to a loopback or private address' },
          ]);
        }
        // An endpoint that was accepted earlier (say its name resolved elsewhere then) still gets nothing now.
        const id = '0192f0e0-0000-7000-8000-00000000beef';
        await strict.query(
          `INSERT INTO webhook_endpoints (id, organization_id, url, events, enabled, secret, created_at, updated_at)
           VALUES ($1, $2, $3, ARRAY['*'], true, 'whsec_${Buffer.alloc(32, 7).toString('base64')}', now(), now())`,
          [id, s.orgId, `${receiver.base}/private`],
        );
        await strict.api.post('/api/v1/posts').set(s.auth).send({ title: 'p', slug: 'p' }).expect(201);
        await strict.app.get(WebhookDispatcher).runOnce();
        expect(receiver.on('/private')).toHaveLength(0);
        const [d] = (await strict.api.get(`/api/v1/webhooks/${id}/deliveries`).set(s.auth).expect(200)).body
          .data;
        expect(d).toMatchObject({
          status: 'pending',
          response_status: null,
          error: 'the endpoint address is private or loopback',
        });
      } finally {
        await strict.close();
      }
    });
  });

  describe('the change feed', () => {
    const page = (tenant: Tenant, after?: string, limit = 100) =>
      t.api
        .get(`/api/v1/changes?limit=${limit}${after ? `&after=${encodeURIComponent(after)}` : ''}`)
        .set(tenant.auth)
        .expect(200);

    it('pages in order with a cursor, filters by scope and refuses malformed cursors', async () => {
      const tenant = await t.tenant();
      for (const slug of ['c1', 'c2', 'c3']) await post(tenant, slug).expect(201);
      await changeFeedCaughtUp(t, tenant.orgId);
      const first = (await page(tenant, undefined, 2)).body;
      expect(first.data.map((e: { data: { slug: string } }) => e.data.slug)).toEqual(['c1', 'c2']);
      expect(first.meta.hasMore).toBe(true);
      const second = (await page(tenant, first.meta.next_cursor, 2)).body;
      expect(second.data.map((e: { data: { slug: string } }) => e.data.slug)).toEqual(['c3']);
      expect(second.meta.hasMore).toBe(false);
      const third = (await page(tenant, second.meta.next_cursor, 2)).body;
      expect(third).toEqual({ data: [], meta: { next_cursor: second.meta.next_cursor, hasMore: false } });
      const bookingsOnly = await t.identity.createApiKey({
        organizationId: tenant.orgId,
        scopes: ['bookings:read'],
      });
      const hidden = await t.api
        .get('/api/v1/changes')
        .set({ Authorization: `Bearer ${bookingsOnly.key}` })
        .expect(200);
      expect(hidden.body.data).toEqual([]);
      for (const cursor of ['nope!', Buffer.from('1.2.3').toString('base64url'), 'x'.repeat(65)]) {
        const bad = await t.api.get(`/api/v1/changes?after=${cursor}`).set(tenant.auth).expect(400);
        expect(bad.body.code).toBe('validation_failed');
      }
    });

    it('orders by transaction id as a number, not as text (transaction 99 before 100)', async () => {
      const tenant = await t.tenant();
      for (const [tx, slug] of [
        ['100', 'tx-100'],
        ['99', 'tx-99'],
        ['10', 'tx-10'],
        ['9', 'tx-9'],
      ] as const) {
        // Transaction ids far below any still running: visible at once.
        await t.query(
          `INSERT INTO outbox_events (organization_id, id, type, data, created_at, tx_id)
           VALUES ($1, gen_random_uuid(), 'post.created', $2, now(), $3::xid8)`,
          [tenant.orgId, JSON.stringify({ slug }), tx],
        );
      }
      const slugs: string[] = [];
      let cursor: string | undefined;
      for (let i = 0; i < 4; i++) {
        const body = (await page(tenant, cursor, 1)).body;
        slugs.push(...body.data.map((e: { data: { slug: string } }) => e.data.slug));
        cursor = body.meta.next_cursor;
      }
      expect(slugs).toEqual(['tx-9', 'tx-10', 'tx-99', 'tx-100']);
    });

    it('never shows an event behind a cursor already given out, however transactions commit', async () => {
      const tenant = await t.tenant();
      const outbox = t.app.get(Outbox);
      // As many open transactions as the pool spares (20 connections, some left for the reader)
      const runners = await Promise.all(Array.from({ length: 14 }, () => t.dataSource.createQueryRunner()));
      // 14 open transactions, each with one event: transaction ids are handed out in this order…
      for (const [i, runner] of runners.entries()) {
        await runner.startTransaction();
        await outbox.record(runner.manager, {
          type: 'post.created',
          organizationId: tenant.orgId,
          data: { id: `e${i}` },
          occurredAt: new Date(),
        });
      }
      // … and they end in another: every third rolls back, the others commit in a scrambled order,
      // while a reader follows the feed after every end.
      const order = runners.map((_, i) => i).sort((x, y) => ((x * 5) % 17) - ((y * 5) % 17));
      const seen: string[] = [];
      let cursor: string | undefined;
      const follow = async () => {
        for (;;) {
          const body = (await page(tenant, cursor, 7)).body;
          seen.push(...body.data.map((e: { data: { id: string } }) => e.data.id));
          cursor = body.meta.next_cursor ?? cursor;
          if (!body.meta.hasMore) return;
        }
      };
      for (const i of order) {
        if (i % 3 === 0) await runners[i]!.rollbackTransaction();
        else await runners[i]!.commitTransaction();
        await runners[i]!.release();
        await follow();
      }
      // Every one has ended; another worker's transaction may still hold the horizon back a moment.
      await changeFeedCaughtUp(t, tenant.orgId);
      await follow();
      const committed = runners
        .map((_, i) => i)
        .filter((i) => i % 3 !== 0)
        .map((i) => `e${i}`);
      expect(seen).toHaveLength(committed.length);
      expect([...seen].sort()).toEqual([...committed].sort());
    });

    it('60 concurrent writers through the API while a reader follows: no gap, no duplicate', async () => {
      const tenant = await t.tenant();
      const seen: string[] = [];
      let cursor: string | undefined;
      let writing = true;
      const writers = Promise.all(
        Array.from({ length: 60 }, (_, i) => post(tenant, `w${i}`).expect(201)),
      ).finally(() => (writing = false));
      while (writing || seen.length < 60) {
        const body = (await page(tenant, cursor, 10)).body;
        seen.push(...body.data.map((e: { data: { slug: string } }) => e.data.slug));
        cursor = body.meta.next_cursor ?? cursor;
        if (!writing && !body.meta.hasMore && seen.length >= 60) break;
        // Nothing new while the writers are done: wait for the horizon rather than ask again at once.
        if (!writing && body.data.length === 0) await changeFeedCaughtUp(t, tenant.orgId);
      }
      await writers;
      expect(seen).toHaveLength(60);
      expect(new Set(seen).size).toBe(60);
    });
  });

  describe('announced once per change, never for a failed one', () => {
    it('posts: created, updated, published, deleted; nothing for a refused create', async () => {
      const tenant = await t.tenant();
      const created = (await post(tenant, 'once').expect(201)).body.data;
      await post(tenant, 'once').expect(409); // slug taken: no event
      await t.api
        .patch(`/api/v1/posts/${created.id}`)
        .set(tenant.auth)
        .send({ status: 'published' })
        .expect(200);
      await t.api.patch(`/api/v1/posts/${created.id}`).set(tenant.auth).send({ title: 'again' }).expect(200);
      await t.api.delete(`/api/v1/posts/${created.id}`).set(tenant.auth).expect(200);
      await t.api.delete(`/api/v1/posts/${created.id}`).set(tenant.auth).expect(404);
      const events = await t.query<{ type: string; data: { id: string; deleted?: boolean } }>(
        'SELECT type, data FROM outbox_events WHERE organization_id = $1 ORDER BY seq',
        [tenant.orgId],
      );
      expect(events.map((e) => e.type)).toEqual([
        'post.created',
        'post.updated',
        'post.published',
        'post.updated',
        'post.deleted',
      ]);
      expect(events[4]!.data).toEqual({ id: created.id, deleted: true });
    });
  });
});
