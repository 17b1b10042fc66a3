import { MAX_IN_FLIGHT_PER_ENDPOINT, MAX_IN_FLIGHT_PER_ORGANIZATION } from '@almanac/webhooks';
import { createServer, Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Socket } from 'node:net';
import { createTestApp, Tenant, TestApp } from '../support/test-app';
import { Receiver } from './receiver';

/** Polls `probe` until it holds; fails after `ms` (a deadline, not a wait). */
async function eventually(probe: () => Promise<boolean>, ms: number, what: string): Promise<void> {
  const deadline = Date.now() + ms;
  while (!(await probe())) {
    if (Date.now() > deadline) throw new Error(`${what}: not within ${ms} ms`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/**
 * One organization whose endpoints hang (they take the request and never answer) must not delay
 * another organization's deliveries: the dispatcher runs a pool of attempts refilled as each ends,
 * caps the attempts in flight per endpoint and per organization, and pauses endpoints that time out.
 * Real loopback receivers and the app's own dispatcher loop.
 */
describe('one organization cannot stall the others’ webhooks (e2e)', () => {
  let t: TestApp;
  const healthy = new Receiver();
  let hanging: Server;
  let hangingBase: string;
  const sockets = new Set<Socket>();
  let requestsToHanging = 0;

  beforeAll(async () => {
    await healthy.start();
    hanging = createServer(() => void (requestsToHanging += 1)); // never answers
    hanging.on('connection', (socket) => {
      sockets.add(socket);
      socket.on('close', () => sockets.delete(socket));
    });
    await new Promise<void>((resolve) => hanging.listen(0, '127.0.0.1', resolve));
    hangingBase = `http://127.0.0.1:${(hanging.address() as AddressInfo).port}`;
    t = await createTestApp({
      config: { webhookAllowPrivateHosts: true, webhookDispatcher: true, webhookPollMs: 50, rateLimitPerMinute: 0 },
    });
  });
  afterAll(async () => {
    // Cut the hanging requests, so the dispatcher's attempts end before the app closes.
    for (const socket of sockets) socket.destroy();
    hanging.close();
    await t.close();
    await healthy.stop();
  });

  const subscribe = (tenant: Tenant, url: string) =>
    t.api.post('/api/v1/webhooks').set(tenant.auth).send({ url, events: ['post.created'] }).expect(201);
  const count = async (sql: string, params: unknown[]) => Number((await t.query<{ n: string }>(sql, params))[0]!.n);

  it('24 hanging endpoints with 480 queued deliveries: another organization’s healthy endpoint still receives at once', async () => {
    const a = await t.tenant();
    for (let i = 0; i < 24; i++) await subscribe(a, `${hangingBase}/a-${i}`);
    await Promise.all(Array.from({ length: 20 }, (_, i) => t.api.post('/api/v1/posts').set(a.auth).send({ title: `a${i}`, slug: `a-${i}` }).expect(201)));
    // A's backlog is queued before B writes, so B's delivery is due after all of A's.
    await eventually(async () => (await count('SELECT count(*) AS n FROM webhook_deliveries WHERE organization_id = $1', [a.orgId])) === 480, 30_000, "A's deliveries queued");
    await eventually(async () => requestsToHanging > 0, 30_000, "A's first attempts under way");

    const b = await t.tenant();
    await subscribe(b, `${healthy.base}/b`);
    const created = (await t.api.post('/api/v1/posts').set(b.auth).send({ title: 'b', slug: 'b' }).expect(201)).body.data;
    // The bench measures the time (target: 3 s); here a deadline generous for a loaded machine, far
    // below what a dispatcher that waits for A's attempts (10 s each, rounds of them) would take.
    await eventually(async () => healthy.on('/b').length > 0, 20_000, "B's delivery");
    expect(JSON.parse(healthy.on('/b')[0]!.body)).toMatchObject({ type: 'post.created', data: { id: created.id } });

    // A never held more than its share: at most so many attempts in flight, per endpoint and in all.
    const now = t.clock.now();
    const perEndpoint = await t.query<{ n: number }>(
      'SELECT count(*)::int AS n FROM webhook_deliveries WHERE organization_id = $1 AND lease_until >= $2 GROUP BY endpoint_id',
      [a.orgId, now],
    );
    expect(perEndpoint.reduce((sum, e) => sum + e.n, 0)).toBeLessThanOrEqual(MAX_IN_FLIGHT_PER_ORGANIZATION);
    for (const { n } of perEndpoint) expect(n).toBeLessThanOrEqual(MAX_IN_FLIGHT_PER_ENDPOINT);
    expect(requestsToHanging).toBeLessThanOrEqual(MAX_IN_FLIGHT_PER_ORGANIZATION);

    // Their attempts time out (10 s): each endpoint that timed out is paused, nothing more goes to it,
    // and its deliveries wait with their attempts unspent.
    await eventually(
      async () => (await count('SELECT count(*) AS n FROM webhook_endpoints WHERE organization_id = $1 AND consecutive_timeouts > 0', [a.orgId])) > 0,
      40_000,
      "A's endpoints paused after their timeouts",
    );
    await eventually(
      async () => (await count('SELECT count(*) AS n FROM webhook_deliveries WHERE organization_id = $1 AND lease_until >= $2', [a.orgId, now])) === 0,
      20_000,
      "A's attempts ended",
    );
    const tried = await count('SELECT count(*) AS n FROM webhook_deliveries WHERE organization_id = $1 AND attempts > 0', [a.orgId]);
    const paused = await t.query<{ consecutive_timeouts: number; paused_until: Date }>(
      'SELECT consecutive_timeouts, paused_until FROM webhook_endpoints WHERE organization_id = $1 AND consecutive_timeouts > 0',
      [a.orgId],
    );
    for (const endpoint of paused) {
      expect(endpoint.consecutive_timeouts).toBe(1);
      expect(endpoint.paused_until.getTime()).toBe(now.getTime() + 10_000);
    }
    // The test's clock stands still, so the pauses never end: A's next claims take nothing more.
    const second = (await t.api.post('/api/v1/posts').set(b.auth).send({ title: 'b2', slug: 'b2' }).expect(201)).body.data;
    await eventually(async () => healthy.on('/b').length > 1, 20_000, "B's second delivery");
    expect(JSON.parse(healthy.on('/b')[1]!.body)).toMatchObject({ data: { id: second.id } });
    expect(await count('SELECT count(*) AS n FROM webhook_deliveries WHERE organization_id = $1 AND attempts > 0', [a.orgId])).toBe(tried);
  }, 120_000);
});
