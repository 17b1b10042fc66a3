import 'reflect-metadata';
import { AppConfig } from '@almanac/shared';
import { createTestDatabase } from '@almanac/shared/testing';
import { DataSource } from 'typeorm';
import type { ClaimedDelivery } from '../domain/webhook';
import { WebhookRepository } from './webhook.repository';

/**
 * The dispatchers' claims on the real database: fair across organizations, within the caps on
 * attempts in flight (on every instance together), and passing over endpoints that keep timing out.
 */
describe('claiming due webhook deliveries', () => {
  let database: Awaited<ReturnType<typeof createTestDatabase>>;
  let dataSource: DataSource;
  const repository = new WebhookRepository(new AppConfig());
  const now = new Date('2030-01-01T12:00:00.000Z');
  const at = (seconds: number) => new Date(now.getTime() + seconds * 1000);
  const lease = at(60);
  const caps = { endpoint: 3, timingOut: 1, organization: 5 };

  beforeAll(async () => {
    database = await createTestDatabase();
    dataSource = await new DataSource({ type: 'postgres', url: database.url, extra: { max: 24 } }).initialize();
  });
  // Each case on its own rows: a claim takes whatever is due.
  // Each test makes its own organizations; the earlier ones stay (the append-only audit log refuses a
  // TRUNCATE of organizations), without endpoints or deliveries they hold nothing to claim.
  beforeEach(() => dataSource.query('TRUNCATE webhook_deliveries, webhook_endpoints, outbox_events CASCADE'));
  afterAll(async () => {
    await dataSource.destroy();
    await database.drop();
  });

  const query = <T>(sql: string, params: unknown[] = []) => dataSource.query<T[]>(sql, params);

  async function organization(): Promise<string> {
    const [row] = await query<{ id: string }>("INSERT INTO organizations (id, name) VALUES (gen_random_uuid(), 'Org') RETURNING id");
    return row!.id;
  }

  async function endpoint(orgId: string): Promise<string> {
    const [row] = await query<{ id: string }>(
      `INSERT INTO webhook_endpoints (organization_id, id, url, events, secret, created_at, updated_at)
       VALUES ($1, gen_random_uuid(), 'https://example.com/hook', ARRAY['*'], 'whsec_x', $2, $2) RETURNING id`,
      [orgId, now],
    );
    return row!.id;
  }

  /** `count` pending deliveries to the endpoint, each of its own event, due at `due`. */
  async function deliveries(orgId: string, endpointId: string, count: number, due: Date): Promise<void> {
    await query(
      `WITH events AS (
         INSERT INTO outbox_events (organization_id, id, type, data, created_at, fanned_out)
         SELECT $1, gen_random_uuid(), 'post.created', '{}', $4, true FROM generate_series(1, $3)
         RETURNING organization_id, id, type
       )
       INSERT INTO webhook_deliveries (organization_id, id, endpoint_id, event_id, event_type, status, attempts, next_attempt_at, created_at)
       SELECT organization_id, gen_random_uuid(), $2, id, type, 'pending', 0, $4, $4 FROM events`,
      [orgId, endpointId, count, due],
    );
  }

  const claim = (limit: number, when = now, claimLease = lease) =>
    dataSource.transaction((em) => repository.claimDue(em, when, claimLease, limit, caps));

  const inFlight = (orgId: string) =>
    query<{ endpoint_id: string; n: number }>(
      'SELECT endpoint_id, count(*)::int AS n FROM webhook_deliveries WHERE organization_id = $1 AND lease_until >= $2 GROUP BY endpoint_id',
      [orgId, now],
    );

  /** Ends the attempts of these claims as `outcome` says (a 200 unless told). */
  async function record(
    claimed: ClaimedDelivery[],
    outcome: Partial<Parameters<WebhookRepository['recordAttempt']>[2]> = {},
    ended = now,
  ): Promise<void> {
    for (const delivery of claimed) {
      await repository.recordAttempt(
        dataSource.manager,
        delivery,
        { status: 'succeeded', nextAttemptAt: null, responseStatus: 200, responseBody: 'ok', error: null, gone: false, timeouts: null, ...outcome },
        ended,
      );
    }
  }

  it("takes every organization's earliest due delivery before anyone's second, within the caps", async () => {
    const a = await organization();
    const aEndpoints: string[] = [];
    for (let i = 0; i < 24; i++) {
      const id = await endpoint(a);
      aEndpoints.push(id);
      await deliveries(a, id, 20, at(-600));
    }
    const b = await organization();
    const bEndpoint = await endpoint(b);
    // B's one delivery is due after all 480 of A's.
    await deliveries(b, bEndpoint, 1, at(-1));

    const claimed = await claim(64);
    expect(claimed.filter((d) => d.organizationId === b)).toHaveLength(1);
    expect(claimed.filter((d) => d.organizationId === a)).toHaveLength(caps.organization);
    for (const { n } of await inFlight(a)) expect(n).toBeLessThanOrEqual(caps.endpoint);
    expect(claimed.every((d) => d.attempts === 1 && d.lease.getTime() === lease.getTime())).toBe(true);

    // While A's attempts are in flight, A gets nothing more; once they end, the next ones.
    expect(await claim(64)).toEqual([]);
    await record(claimed);
    const next = await claim(64);
    expect(next.map((d) => d.organizationId)).toEqual(Array(caps.organization).fill(a));
    await record(next);
  });

  it('holds the caps across instances: 16 claims at once, each in its own transaction, never pass them', async () => {
    const a = await organization();
    for (let i = 0; i < 4; i++) await deliveries(a, await endpoint(a), 10, at(-60));
    const c = await organization();
    await deliveries(c, await endpoint(c), 10, at(-60));

    const claims = await Promise.all(Array.from({ length: 16 }, () => claim(50)));
    const all = claims.flat();
    expect(new Set(all.map((d) => d.deliveryId)).size).toBe(all.length);
    const aFlight = await inFlight(a);
    expect(aFlight.reduce((sum, e) => sum + e.n, 0)).toBe(caps.organization);
    for (const { n } of aFlight) expect(n).toBeLessThanOrEqual(caps.endpoint);
    expect(await inFlight(c)).toEqual([expect.objectContaining({ n: caps.endpoint })]);
    await record(all);
  });

  it('counts only leases that have not ended: a delivery whose instance died is claimed again', async () => {
    const o = await organization();
    await deliveries(o, await endpoint(o), 3, at(-60));
    const first = await claim(10, now, at(30));
    expect(first).toHaveLength(3);
    expect(await claim(10, at(10))).toEqual([]);
    // Its instance never recorded the attempts; the leases end.
    const again = await claim(10, at(31), at(91));
    expect(again.map((d) => [d.deliveryId, d.attempts]).sort()).toEqual(first.map((d) => [d.deliveryId, 2]).sort());
    // The first instance's late record is ignored: the lease is no longer its own.
    await record(first);
    const [row] = await query<{ n: number }>("SELECT count(*)::int AS n FROM webhook_deliveries WHERE organization_id = $1 AND status = 'pending'", [o]);
    expect(row!.n).toBe(3);
  });

  it('pauses an endpoint that times out, then sends one attempt at a time, until any answer restores it', async () => {
    const o = await organization();
    const e = await endpoint(o);
    await deliveries(o, e, 12, at(-60));
    const endpointRow = async () =>
      (await query<{ consecutive_timeouts: number; paused_until: Date | null; enabled: boolean }>(
        'SELECT consecutive_timeouts, paused_until, enabled FROM webhook_endpoints WHERE id = $1',
        [e],
      ))[0]!;

    // Three attempts side by side all time out: one timeout in a row, a 10 s pause.
    const three = await claim(10);
    expect(three).toHaveLength(caps.endpoint);
    const retry = { status: 'pending' as const, nextAttemptAt: at(30), responseStatus: null, responseBody: null, error: 'the endpoint did not answer within 10 seconds' };
    await record(three, { ...retry, timeouts: { count: 1, pausedUntil: at(10) } });
    expect(await endpointRow()).toEqual({ consecutive_timeouts: 1, paused_until: at(10), enabled: true });
    expect(await claim(10, at(5))).toEqual([]);

    // After the pause: one probe at a time, though nine are due.
    const probe = await claim(10, at(11));
    expect(probe).toHaveLength(1);
    expect(probe[0]!.endpoint.timeoutsAtClaim).toBe(1);
    expect(await claim(10, at(11))).toEqual([]);
    await record(probe, { ...retry, timeouts: { count: 2, pausedUntil: at(31) } }, at(21));
    expect(await endpointRow()).toMatchObject({ consecutive_timeouts: 2, paused_until: at(31) });
    expect(await claim(10, at(30))).toEqual([]);

    // The next probe gets an answer (a 500 is an answer): the endpoint takes its full share again.
    const answered = await claim(10, at(32));
    expect(answered).toHaveLength(1);
    await record(answered, { status: 'pending', nextAttemptAt: at(300), responseStatus: 500, responseBody: 'oops', error: 'the endpoint answered HTTP 500' }, at(33));
    expect(await endpointRow()).toEqual({ consecutive_timeouts: 0, paused_until: null, enabled: true });
    const full = await claim(10, at(34));
    expect(full).toHaveLength(caps.endpoint);

    // A 410 Gone disables it in the same statement.
    await record(full.slice(0, 1), { status: 'failed', responseStatus: 410, responseBody: '', error: 'the endpoint answered HTTP 410', gone: true }, at(35));
    expect(await endpointRow()).toMatchObject({ enabled: false });
    await record(full.slice(1), {}, at(35));
    expect(await claim(10, at(40))).toEqual([]);
  });
});
