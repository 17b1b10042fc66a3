import { createTestApp, TestApp } from './support/test-app';

describe('foundation (e2e)', () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(async () => {
    await t.close();
  });

  it('answers health checks', async () => {
    const live = await t.api.get('/health/live').expect(200);
    expect(live.body).toEqual({ status: 'ok' });
    const ready = await t.api.get('/health/ready').expect(200);
    expect(ready.body).toEqual({ status: 'ok' });
    expect(ready.headers['x-request-id']).toMatch(/.+/);
  });

  it('echoes a well-formed X-Request-Id into the header and problem body', async () => {
    const res = await t.api.get('/nope').set('X-Request-Id', 'req-123').expect(404);
    expect(res.headers['x-request-id']).toBe('req-123');
    expect(res.body).toMatchObject({ status: 404, code: 'not_found', request_id: 'req-123' });
  });

  it('serves the OpenAPI document with both security schemes and the problem schema', async () => {
    const res = await t.raw().get('/docs/openapi.json').expect(200);
    expect(res.body.components.securitySchemes).toHaveProperty('bearer');
    expect(res.body.components.securitySchemes).toHaveProperty('session');
    expect(res.body.components.schemas).toHaveProperty('Problem');
    const ui = await t.raw().get('/docs').expect(200);
    expect(ui.text).toContain('swagger');
  });

  it('answers malformed JSON with 400 invalid_json', async () => {
    const res = await t.api.post('/health/live').set('Content-Type', 'application/json').send('{"a":').expect(400);
    expect(res.body).toMatchObject({ code: 'invalid_json', status: 400 });
    expect(res.headers['content-type']).toMatch(/^application\/problem\+json/);
  });

  it('answers a non-JSON body with 415', async () => {
    const res = await t.api.post('/health/live').set('Content-Type', 'text/plain').send('hello').expect(415);
    expect(res.body.code).toBe('unsupported_media_type');
  });

  it('answers a 2 MiB body with 413', async () => {
    const big = JSON.stringify({ text: 'x'.repeat(2 * 1024 * 1024) });
    const res = await t.api.post('/health/live').set('Content-Type', 'application/json').send(big).expect(413);
    expect(res.body.code).toBe('payload_too_large');
  });

  it('answers an unknown route with a 404 problem', async () => {
    const res = await t.api.get('/api/v1/unknown-thing').expect(404);
    expect(res.body).toMatchObject({ type: expect.stringContaining('not_found'), title: 'Not Found', status: 404, code: 'not_found' });
  });
});
