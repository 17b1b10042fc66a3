import { WebhookDispatcher } from '@almanac/webhooks';
import { createTestApp, Tenant, TestApp } from '../support/test-app';
import { Receiver } from '../webhooks/receiver';

const TOKEN = 'metrics-token-for-tests';
const auth = { Authorization: `Bearer ${TOKEN}` };

/** The value of one sample line (`name{labels} value`), or undefined when the scrape has no such line. */
function sample(text: string, series: string): number | undefined {
  const line = text.split('\n').find((l) => l.startsWith(`${series} `));
  return line === undefined ? undefined : Number(line.slice(series.length + 1));
}

describe('GET /metrics without METRICS_TOKEN (e2e)', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ config: { webhookDispatcher: false } });
  });
  afterAll(() => t.close());

  it('does not exist: 404, whatever the credentials', async () => {
    const res = await t.api.get('/metrics').set(auth).expect(404);
    expect(res.body).toMatchObject({ status: 404, code: 'not_found' });
  });
});

describe('GET /metrics with METRICS_TOKEN (e2e)', () => {
  let t: TestApp;
  let a: Tenant;
  const receiver = new Receiver();
  const scrape = async () => (await t.api.get('/metrics').set(auth).expect(200)).text;

  beforeAll(async () => {
    await receiver.start();
    t = await createTestApp({ config: { metricsToken: TOKEN, webhookDispatcher: false, webhookAllowPrivateHosts: true } });
    a = await t.tenant();
  });
  afterAll(async () => {
    await t.close();
    await receiver.stop();
  });

  it('answers 401 problems without the token or with another one', async () => {
    const none = await t.api.get('/metrics').expect(401);
    expect(none.body).toMatchObject({ status: 401, code: 'unauthorized' });
    expect(none.headers['www-authenticate']).toMatch(/^Bearer/);
    await t.api.get('/metrics').set({ Authorization: 'Bearer nope' }).expect(401);
    await t.api.get('/metrics').set({ Authorization: `Bearer ${TOKEN}x` }).expect(401);
    // An API key is not the metrics token.
    await t.api.get('/metrics').set(a.auth).expect(401);
  });

  it('serves the Prometheus text format with the runtime default metrics', async () => {
    const res = await t.api.get('/metrics').set(auth).expect(200);
    expect(res.headers['content-type']).toMatch(/^text\/plain;.*version=0\.0\.4/);
    expect(res.text).toContain('# TYPE process_cpu_user_seconds_total counter');
    expect(res.text).toContain('# TYPE nodejs_heap_size_used_bytes gauge');
  });

  it('counts and times requests by route template, never by raw path or id', async () => {
    const schedule = (await t.api.post('/api/v1/schedules').set(a.auth).send({ name: 'Metrics' }).expect(201)).body.data;
    for (let i = 0; i < 3; i++) await t.api.get(`/api/v1/schedules/${schedule.id}`).set(a.auth).expect(200);
    await t.api.get('/api/v1/schedules/not-a-uuid').set(a.auth).expect(404);
    await t.raw().get(`/no/such/path/${schedule.id}`).expect(404);
    // Refused by the body parser, before any route ran: still labelled with its template.
    await t.raw().post('/api/v1/schedules').set(a.auth).set('Content-Type', 'text/plain').send('x').expect(415);

    const text = await scrape();
    expect(sample(text, 'http_requests_total{method="GET",route="/api/v1/schedules/:id",status="200"}')).toBe(3);
    expect(sample(text, 'http_requests_total{method="GET",route="/api/v1/schedules/:id",status="404"}')).toBe(1);
    expect(sample(text, 'http_requests_total{method="POST",route="/api/v1/schedules",status="201"}')).toBe(1);
    expect(sample(text, 'http_requests_total{method="POST",route="/api/v1/schedules",status="415"}')).toBe(1);
    expect(sample(text, 'http_requests_total{method="GET",route="unmatched",status="404"}')).toBe(1);
    expect(sample(text, 'http_request_duration_seconds_count{method="GET",route="/api/v1/schedules/:id"}')).toBe(4);
    expect(sample(text, 'http_request_duration_seconds_bucket{le="+Inf",method="GET",route="/api/v1/schedules/:id"}')).toBe(4);
    expect(text).not.toContain(schedule.id);
    expect(text).not.toContain('not-a-uuid');
    expect(text).not.toContain('/no/such');
  });

  it("reports the pool's connections by state", async () => {
    const text = await scrape();
    for (const state of ['idle', 'active', 'waiting']) {
      expect(sample(text, `almanac_db_pool_connections{state="${state}"}`)).toEqual(expect.any(Number));
    }
    // This scrape's own database reading holds none once it has answered.
    expect(sample(text, 'almanac_db_pool_connections{state="waiting"}')).toBe(0);
  });

  it('reads the outbox backlog and the deliveries by status from the database, and observes the delivery lag', async () => {
    const dispatcher = t.app.get(WebhookDispatcher);
    const hook = (await t.api.post('/api/v1/webhooks').set(a.auth).send({ url: `${receiver.base}/hook`, events: ['*'] }).expect(201)).body.data;
    const schedule = (await t.api.post('/api/v1/schedules').set(a.auth).send({ name: 'Deliveries' }).expect(201)).body.data;
    await dispatcher.runOnce();
    for (const hour of ['10', '11']) {
      await t.api
        .post('/api/v1/bookings')
        .set(a.auth)
        .send({ schedule_id: schedule.id, start_time: `2027-03-01T${hour}:00:00Z`, end_time: `2027-03-01T${hour}:30:00Z`, attendee: { name: 'Ada', email: 'ada@example.com' } })
        .expect(201);
    }
    let text = await scrape();
    expect(sample(text, 'almanac_outbox_undelivered_events')).toBe(2);
    expect(sample(text, 'almanac_webhook_deliveries{status="pending"}')).toBe(0);
    expect(sample(text, 'almanac_webhook_delivery_lag_seconds_count')).toBe(0);

    // Fanned out and delivered: the backlog is gone, two deliveries succeeded, two lags observed.
    await dispatcher.runOnce();
    await dispatcher.runOnce();
    expect(receiver.received).toHaveLength(2);
    await t.api.post(`/api/v1/webhooks/${hook.id}/ping`).set(a.auth).expect(200);
    text = await scrape();
    expect(sample(text, 'almanac_outbox_undelivered_events')).toBe(0);
    expect(sample(text, 'almanac_webhook_deliveries{status="pending"}')).toBe(1);
    expect(sample(text, 'almanac_webhook_deliveries{status="succeeded"}')).toBe(2);
    expect(sample(text, 'almanac_webhook_deliveries{status="failed"}')).toBe(0);
    expect(sample(text, 'almanac_webhook_delivery_lag_seconds_count')).toBe(2);

    // A delivery that fails for good is counted as failed, and observes no lag.
    await t.query("UPDATE webhook_deliveries SET status = 'failed', next_attempt_at = NULL WHERE status = 'pending'");
    text = await scrape();
    expect(sample(text, 'almanac_webhook_deliveries{status="pending"}')).toBe(0);
    expect(sample(text, 'almanac_webhook_deliveries{status="failed"}')).toBe(1);
    expect(sample(text, 'almanac_webhook_delivery_lag_seconds_count')).toBe(2);
  });

  it('answers without the database gauges, and at once, while their tables cannot be read; they come back after', async () => {
    // A statement that waits for a lock stands for a database that stops answering.
    const runner = t.dataSource.createQueryRunner();
    await runner.connect();
    await runner.startTransaction();
    await runner.query('LOCK TABLE webhook_deliveries IN ACCESS EXCLUSIVE MODE');
    try {
      const [first, second] = await Promise.all([scrape(), scrape()]);
      for (const text of [first, second]) {
        expect(text).toContain('# TYPE almanac_webhook_deliveries gauge');
        expect(sample(text, 'almanac_webhook_deliveries{status="pending"}')).toBeUndefined();
        expect(sample(text, 'almanac_outbox_undelivered_events')).toBeUndefined();
        // Everything that needs no database is still there.
        expect(sample(text, 'almanac_db_pool_connections{state="idle"}')).toEqual(expect.any(Number));
      }
    } finally {
      await runner.rollbackTransaction();
      await runner.release();
    }
    const deadline = Date.now() + 10_000;
    let text = await scrape();
    while (sample(text, 'almanac_webhook_deliveries{status="pending"}') === undefined && Date.now() < deadline) text = await scrape();
    expect(sample(text, 'almanac_webhook_deliveries{status="pending"}')).toBe(0);
  });
});
