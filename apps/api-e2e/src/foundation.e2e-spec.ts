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

  it('makes up a request id when none or a malformed one is sent', async () => {
    const none = await t.api.get('/health/live').expect(200);
    expect(none.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
    const bad = await t.api.get('/nope').set('X-Request-Id', 'has spaces and <html>').expect(404);
    expect(bad.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
    expect(bad.body.request_id).toBe(bad.headers['x-request-id']);
  });

  it('sends helmet security headers', async () => {
    const res = await t.api.get('/health/live').expect(200);
    expect(res.headers['x-content-type-options']).toBe('nosniff');
    expect(res.headers['content-security-policy']).toContain("default-src 'self'");
    expect(res.headers['x-powered-by']).toBeUndefined();
  });

  it('answers bad bodies on an authenticated /api/v1 POST with problems, before anything runs', async () => {
    const a = await t.tenant();
    const malformed = await t.api.post('/api/v1/schedules').set(a.auth).set('Content-Type', 'application/json').send('{"name": "x",}').expect(400);
    expect(malformed.body.code).toBe('invalid_json');
    const text = await t.api.post('/api/v1/schedules').set(a.auth).set('Content-Type', 'text/plain').send('name=x').expect(415);
    expect(text.body.code).toBe('unsupported_media_type');
    const big = await t.api.post('/api/v1/schedules').set(a.auth).set('Content-Type', 'application/json').send(JSON.stringify({ name: 'x'.repeat(2 * 1024 * 1024) })).expect(413);
    expect(big.body.code).toBe('payload_too_large');
    const nul = await t.api.post('/api/v1/schedules').set(a.auth).send({ name: 'a\u0000b' }).expect(400);
    expect(nul.body.errors).toEqual([expect.objectContaining({ field: 'name' })]);
    expect(await t.query('SELECT 1 FROM schedules WHERE organization_id = $1', [a.orgId])).toHaveLength(0);
  });

  it('refuses NUL characters in the query string, naming the parameter, and in body and query together', async () => {
    const a = await t.tenant();
    const query = await t.api.get('/api/v1/bookings?attendee_email=a%00b&limit=5').set(a.auth).expect(400);
    expect(query.body.code).toBe('validation_failed');
    expect(query.body.errors).toEqual([expect.objectContaining({ field: 'attendee_email' })]);
    const both = await t.api.post('/api/v1/schedules?x=%00').set(a.auth).send({ name: 'a\u0000b' }).expect(400);
    expect(both.body.errors.map((e: { field: string }) => e.field)).toEqual(['x', 'name']);
    // An encoded percent sign followed by 00 is not a NUL.
    await t.api.get('/api/v1/bookings?attendee_email=a%2500b').set(a.auth).expect(200);
    expect(await t.query('SELECT 1 FROM schedules WHERE organization_id = $1', [a.orgId])).toHaveLength(0);
  });

  it('refuses __proto__, constructor and prototype keys anywhere in a body, naming the object that holds them', async () => {
    const a = await t.tenant();
    const send = (path: string, json: string) => t.api.post(path).set(a.auth).set('Content-Type', 'application/json').send(json);
    const top = await send('/api/v1/schedules', '{"name": "x", "__proto__": {"admin": true}}').expect(400);
    expect(top.body.errors).toEqual([{ field: 'body', message: 'key "__proto__" is reserved' }]);
    const nested = await send('/api/v1/posts', '{"title": "t", "content": [{"type": "paragraph", "text": "x", "constructor": "y"}]}').expect(400);
    expect(nested.body.errors).toEqual([{ field: 'content[0]', message: 'key "constructor" is reserved' }]);
    const deep = await send('/api/v1/events', '{"title": "t", "details": {"a": {"prototype": 1}}}').expect(400);
    expect(deep.body.errors).toEqual([{ field: 'details.a', message: 'key "prototype" is reserved' }]);
    // Ordinary keys that merely contain the words pass the body check.
    await send('/api/v1/schedules', '{"name": "__proto__ constructor"}').expect(201);
    expect(await t.query('SELECT name FROM schedules WHERE organization_id = $1', [a.orgId])).toEqual([{ name: '__proto__ constructor' }]);
    expect(await t.query('SELECT 1 FROM posts WHERE organization_id = $1', [a.orgId])).toHaveLength(0);
  });

  it('answers JSON with an exact Content-Length and the JSON media type, and HEAD without a body', async () => {
    const a = await t.tenant();
    const res = await t.api.get('/api/v1/schedules').set(a.auth).expect(200);
    expect(res.headers['content-type']).toBe('application/json; charset=utf-8');
    expect(Number(res.headers['content-length'])).toBe(Buffer.byteLength(res.text));
    expect(res.headers['x-request-id']).toBeDefined();
    expect(res.headers['x-content-type-options']).toBe('nosniff');
    const created = await t.api.post('/api/v1/schedules').set(a.auth).send({ name: 'Ünïcødé ✓' }).expect(201);
    expect(Number(created.headers['content-length'])).toBe(Buffer.byteLength(created.text));
    expect(created.body.data.name).toBe('Ünïcødé ✓');
    const after = await t.api.get('/api/v1/schedules').set(a.auth).expect(200);
    const head = await t.raw().head('/api/v1/schedules').set(a.auth).expect(200);
    expect(head.headers['content-length']).toBe(after.headers['content-length']);
    expect(head.text).toBeUndefined();
  });

  it('documents every error response as a problem, and each operation with its security scheme', () => {
    const paths = t.document['paths'] as Record<string, Record<string, any>>;
    let operations = 0;
    for (const [path, item] of Object.entries(paths)) {
      for (const [method, op] of Object.entries(item)) {
        if (!['get', 'post', 'put', 'patch', 'delete'].includes(method)) continue;
        operations += 1;
        for (const [status, response] of Object.entries(op.responses as Record<string, any>)) {
          if (Number(status) >= 400) {
            expect([`${method} ${path} ${status}`, Object.keys(response.content ?? {})]).toEqual([`${method} ${path} ${status}`, ['application/problem+json']]);
          }
        }
        if (path.startsWith('/api/v1/')) expect([path, op.security]).toEqual([path, [{ bearer: [] }]]);
        if (path.startsWith('/api/auth/session') || path.startsWith('/api/auth/logout')) expect(op.security).toEqual([{ session: [] }]);
      }
    }
    expect(operations).toBeGreaterThan(5);
  });
});
