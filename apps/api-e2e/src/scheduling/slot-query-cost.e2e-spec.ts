import { createTestApp, Tenant, TestApp } from '../support/test-app';
import { createEventType, createSchedule } from './scheduling-helpers';

/**
 * A slots query's work grows with its range (the largest, 62 days, costs ~0.3 s of CPU): it costs
 * its key one rate-limit unit per day, where a cheap read costs one, and the RateLimit headers say so.
 */
describe('slots queries weighed in the rate limit (e2e)', () => {
  let t: TestApp;
  let a: Tenant;
  let query: string;

  beforeAll(async () => {
    t = await createTestApp({ config: { rateLimitPerMinute: 100 } });
    a = await t.tenant();
    const scheduleId = await createSchedule(t, a);
    const eventTypeId = await createEventType(t, a);
    query = `/api/v1/slots?event_type_id=${eventTypeId}&schedule_id=${scheduleId}`;
    // The fixtures above spent 3 units of this window: start the test with a fresh one.
    t.clock.advance(60_000);
  });
  afterAll(() => t.close());

  const remaining = (res: { headers: Record<string, string> }) => [res.headers['ratelimit-remaining'], res.headers['ratelimit']];

  it('costs a unit per day of the range, refuses what costs more than is left, and keeps the headers consistent', async () => {
    const largest = await t.api.get(`${query}&start=2027-01-01&end=2027-03-04`).set(a.auth).expect(200);
    expect(largest.headers['ratelimit-limit']).toBe('100');
    expect(largest.headers['ratelimit-policy']).toBe('"per-key";q=100;w=60');
    expect(remaining(largest)).toEqual(['38', '"per-key";r=38;t=60']);

    // 38 units left: another 62-day query is refused (and not counted) …
    t.clock.advance(20_000);
    const refused = await t.api.get(`${query}&start=2027-01-01&end=2027-03-04`).set(a.auth).expect(429);
    expect(refused.body).toMatchObject({ code: 'rate_limited', detail: expect.stringContaining('38 left') });
    expect(refused.headers['retry-after']).toBe('40');
    expect(remaining(refused)).toEqual(['38', '"per-key";r=38;t=40']);

    // … while cheaper ones go on: one day, the default 7 days, a plain read, an invalid query (1).
    expect(remaining(await t.api.get(`${query}&start=2027-01-01&end=2027-01-02`).set(a.auth).expect(200))).toEqual(['37', '"per-key";r=37;t=40']);
    expect(remaining(await t.api.get(query).set(a.auth).expect(200))[0]).toBe('30');
    expect(remaining(await t.api.get('/api/v1/schedules').set(a.auth).expect(200))[0]).toBe('29');
    expect(remaining(await t.api.get(`${query}&start=soon`).set(a.auth).expect(400))[0]).toBe('28');
    expect(remaining(await t.api.get(`${query}&start=2027-01-01T00:00:00Z&end=2027-01-29T00:00:00Z`).set(a.auth).expect(200))[0]).toBe('0');
    await t.api.get('/api/v1/schedules').set(a.auth).expect(429);

    // The next window: the whole quota again.
    t.clock.advance(40_000);
    expect(remaining(await t.api.get(`${query}&start=2027-01-01&end=2027-03-04`).set(a.auth).expect(200))[0]).toBe('38');
  });

  it('says the cost in the OpenAPI document', () => {
    const operation = (t.document['paths'] as any)['/api/v1/slots'].get;
    expect(operation['x-rate-limit-cost']).toBe('1 unit per day of [start, end), a started day counting: 1 to 62');
    expect(operation.description).toContain('1 unit per day of the range');
    expect(operation.responses['200'].headers['RateLimit-Limit'].description).toContain('x-rate-limit-cost');
    // Every other operation costs one unit: none else carries the extension.
    const costly = Object.entries(t.document['paths'] as Record<string, Record<string, any>>).flatMap(([path, item]) =>
      Object.entries(item)
        .filter(([, op]) => op && typeof op === 'object' && 'x-rate-limit-cost' in op)
        .map(([method]) => `${method} ${path}`),
    );
    expect(costly).toEqual(['get /api/v1/slots']);
  });
});
