import { createTestApp, TestApp } from '../support/test-app';
import { ProbeModule } from './support/probe.module';

describe('rate limiting per API key (e2e)', () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await createTestApp({ config: { rateLimitPerMinute: 3 }, extraModules: [ProbeModule] });
  });
  afterAll(async () => {
    await t.close();
  });

  it('counts down RateLimit-Remaining, then answers 429 with Retry-After until the window ends', async () => {
    const a = await t.tenant();
    const remaining: string[] = [];
    for (let i = 0; i < 3; i++) {
      const res = await t.api.get('/api/v1/api-keys/current').set(a.auth).expect(200);
      expect(res.headers['ratelimit-limit']).toBe('3');
      expect(res.headers['ratelimit-reset']).toBe(String(60 - 10 * i));
      remaining.push(res.headers['ratelimit-remaining']!);
      t.clock.advance(10_000);
    }
    expect(remaining).toEqual(['2', '1', '0']);

    const refused = await t.api.get('/api/v1/api-keys/current').set(a.auth).expect(429);
    expect(refused.body).toMatchObject({ status: 429, code: 'rate_limited' });
    expect(refused.headers['retry-after']).toBe('30'); // the window opened 30 s ago
    expect(refused.headers['ratelimit-remaining']).toBe('0');
    expect(refused.headers['ratelimit-reset']).toBe('30');
    // Every operation shares the key's budget, also one that then fails on its scope.
    await t.api.get('/api/v1/probe/scoped').set(a.auth).expect(429);

    t.clock.advance(29_000);
    const stillRefused = await t.api.get('/api/v1/api-keys/current').set(a.auth).expect(429);
    expect(stillRefused.headers['retry-after']).toBe('1');
    t.clock.advance(1_000);
    const again = await t.api.get('/api/v1/api-keys/current').set(a.auth).expect(200);
    expect(again.headers['ratelimit-remaining']).toBe('2');
    expect(again.headers['ratelimit-reset']).toBe('60');
  });

  it('keeps a separate budget per key', async () => {
    const a = await t.tenant();
    const b = await t.tenant();
    for (let i = 0; i < 3; i++) await t.api.get('/api/v1/api-keys/current').set(a.auth).expect(200);
    await t.api.get('/api/v1/api-keys/current').set(a.auth).expect(429);
    const other = await t.api.get('/api/v1/api-keys/current').set(b.auth).expect(200);
    expect(other.headers['ratelimit-remaining']).toBe('2');
  });

  it('sends the headers on errors after authentication too, and not on 401', async () => {
    const a = await t.tenant({ scopes: ['events:read'] });
    const forbidden = await t.api.get('/api/v1/probe/scoped').set(a.auth).expect(403);
    expect(forbidden.headers['ratelimit-remaining']).toBe('2');
    const unauthorized = await t.api.get('/api/v1/api-keys/current').expect(401);
    expect(unauthorized.headers['ratelimit-limit']).toBeUndefined();
  });

  it('documents the RateLimit headers on /api/v1 responses and Retry-After on 429', () => {
    const op = (t.document['paths'] as any)['/api/v1/api-keys/current'].get;
    expect(Object.keys(op.responses['200'].headers)).toEqual(['RateLimit-Limit', 'RateLimit-Remaining', 'RateLimit-Reset', 'RateLimit-Policy', 'RateLimit']);
    expect(op.responses['429'].headers['Retry-After']).toMatchObject({ schema: { type: 'integer' } });
  });

  it('sends no RateLimit headers on what the body parser refuses before the key is checked, as documented', async () => {
    const a = await t.tenant();
    const schedules = (t.document['paths'] as any)['/api/v1/schedules'].post;
    const parserAnswers = [
      await t.api.post('/api/v1/schedules').set(a.auth).set('Content-Type', 'application/json').send('{"name":').expect(400),
      await t.api.post('/api/v1/schedules').set(a.auth).set('Content-Type', 'text/plain').send('name=x').expect(415),
      await t.api.post('/api/v1/schedules').set(a.auth).set('Content-Type', 'application/json').send(JSON.stringify({ name: 'x'.repeat(1_100_000) })).expect(413),
    ];
    for (const answer of parserAnswers) expect([answer.status, answer.headers['ratelimit-limit']]).toEqual([answer.status, undefined]);
    expect(Object.keys(schedules.responses['413'].headers ?? {})).not.toContain('RateLimit-Limit');
    expect(Object.keys(schedules.responses['415'].headers ?? {})).not.toContain('RateLimit-Limit');
    // A body the validators refuse got past the key guard: it carries them, and the 400 documents them.
    const invalid = await t.api.post('/api/v1/schedules').set(a.auth).send({ name: 5 }).expect(400);
    expect(invalid.headers['ratelimit-limit']).toBe('3');
    expect(Object.keys(schedules.responses['400'].headers)).toContain('RateLimit-Limit');
  });
});

describe('rate limiting with the default limit (e2e)', () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(async () => {
    await t.close();
  });

  it('allows 600 requests a minute by default', async () => {
    expect(t.config.rateLimitPerMinute).toBe(600);
    const a = await t.tenant();
    const res = await t.api.get('/api/v1/api-keys/current').set(a.auth).expect(200);
    expect(res.headers['ratelimit-limit']).toBe('600');
    expect(res.headers['ratelimit-remaining']).toBe('599');
  });
});
