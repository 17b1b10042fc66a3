import { request as httpRequest } from 'node:http';
import { connect, type AddressInfo } from 'node:net';
import { createTestApp, Tenant, TestApp } from '../support/test-app';

/** Sends raw bytes (not re-encoded by a client library) and reads the problem back. */
function rawPost(t: TestApp, path: string, headers: Record<string, string>, body: Buffer): Promise<{ status: number; body: any }> {
  const { port } = t.server.address() as AddressInfo;
  return new Promise((resolve, reject) => {
    const req = httpRequest({ host: '127.0.0.1', port, path, method: 'POST', headers: { ...headers, 'Content-Length': body.length }, agent: false }, (res) => {
      let text = '';
      res.on('data', (chunk: Buffer) => (text += chunk.toString()));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body: text ? JSON.parse(text) : undefined }));
    });
    req.on('error', reject);
    req.end(body);
  });
}

/** Plain bad input that used to answer 500 or be silently changed (issue 12, items 5 and 6). */
describe('bad input is refused, never a 500 and never silently altered (e2e)', () => {
  let t: TestApp;
  let a: Tenant;

  beforeAll(async () => {
    t = await createTestApp();
    await new Promise<void>((resolve) => t.server.listen(0, '127.0.0.1', resolve));
    a = await t.tenant();
  });
  afterAll(() => t.close());

  it('refuses an event on 9999-12-31 without end_time (its day would end in year 10000), on POST and PATCH', async () => {
    const created = await t.api.post('/api/v1/events').set(a.auth).send({ title: 'Last day', start_date: '9999-12-31' }).expect(400);
    expect(created.body).toMatchObject({ code: 'validation_failed', errors: [{ field: 'end_time', message: 'is required on the last day of 9999' }] });
    const event = await t.api.post('/api/v1/events').set(a.auth).send({ title: 'Soon', start_date: '2030-01-01' }).expect(201);
    const patched = await t.api.patch(`/api/v1/events/${event.body.data.id}`).set(a.auth).send({ start_date: '9999-12-31' }).expect(400);
    expect(patched.body.code).toBe('validation_failed');
    const ok = await t.api
      .post('/api/v1/events')
      .set(a.auth)
      .send({ title: 'Last hour', start_date: '9999-12-31', start_time: '22:00', end_time: '23:00' })
      .expect(201);
    expect(ok.body.data.start_date).toBe('9999-12-31');
  });

  it('refuses a published_at before year 1 or after 9999 in UTC, and stores nothing', async () => {
    for (const published_at of ['0001-01-01T00:30:00+01:00', '0000-06-01T00:00:00Z', '-000001-01-01T00:00:00Z', '9999-12-31T23:00:00-05:00']) {
      const res = await t.api.post('/api/v1/posts').set(a.auth).send({ title: 'Ancient', slug: 'ancient', published_at }).expect(400);
      expect(res.body.errors).toEqual([expect.objectContaining({ field: 'published_at' })]);
    }
    const [{ count }] = await t.query<{ count: string }>(`SELECT count(*) FROM posts WHERE organization_id = $1`, [a.orgId]);
    expect(count).toBe('0');
  });

  it('answers 404 for a path id with malformed percent-encoding, without echoing it', async () => {
    for (const id of ['%E0%A4%A', '%', '%zz', '%C0%AF<script>']) {
      const res = await t.api.get(`/api/v1/bookings/${id}`).set(a.auth).expect(404);
      expect(res.body.code).toBe('not_found');
      expect(JSON.stringify(res.body)).not.toContain(id.slice(0, 3));
    }
  });

  it('honours Idempotency-Key on an upper-case path, as the same request as the lower-case one', async () => {
    const body = { name: 'Upper' };
    // The document names lower-case paths; Express routes ignore case.
    const first = await t.raw().post('/API/V1/SCHEDULES').set(a.auth).set('Idempotency-Key', 'upper-1').send(body).expect(201);
    const again = await t.api.post('/api/v1/schedules').set(a.auth).set('Idempotency-Key', 'upper-1').send(body).expect(201);
    expect(again.headers['idempotent-replayed']).toBe('true');
    expect(again.body.data.id).toBe(first.body.data.id);
    const rows = await t.query(`SELECT 1 FROM schedules WHERE organization_id = $1 AND name = 'Upper'`, [a.orgId]);
    expect(rows).toHaveLength(1);
  });

  it('refuses invalid UTF-8 and lone surrogates instead of storing U+FFFD', async () => {
    const headers = { ...a.auth, 'Content-Type': 'application/json' };
    const invalid = Buffer.concat([Buffer.from('{"name":"bad '), Buffer.from([0xc3, 0x28]), Buffer.from('"}')]);
    const res1 = await rawPost(t, '/api/v1/schedules', headers, invalid);
    expect(res1.status).toBe(400);
    expect(res1.body.code).toBe('invalid_json');
    for (const escape of ['\\ud800', '\\udc00x', 'a\\ud83d']) {
      const res = await rawPost(t, '/api/v1/schedules', headers, Buffer.from(`{"name":"x${escape}"}`));
      expect(res.status).toBe(400);
      expect(res.body).toMatchObject({ code: 'validation_failed', errors: [{ field: 'name', message: 'must not contain unpaired surrogates' }] });
    }
    // A proper pair (an emoji) is fine.
    const emoji = await rawPost(t, '/api/v1/schedules', headers, Buffer.from('{"name":"x\\ud83d\\ude00"}'));
    expect(emoji.status).toBe(201);
    const latin1 = await rawPost(t, '/api/v1/schedules', { ...headers, 'Content-Type': 'application/json; charset=utf-16' }, Buffer.from('{"name":"x"}'));
    expect(latin1.status).toBe(415);
    const rows = await t.query<{ name: string }>(`SELECT name FROM schedules WHERE organization_id = $1 AND name LIKE 'x%' OR name LIKE 'bad%'`, [a.orgId]);
    expect(rows.map((r) => r.name)).toEqual(['x😀']);
  });
});

/** Raw bytes on a socket, the whole answer back (the server closes the connection). */
function rawExchange(t: TestApp, bytes: string): Promise<string> {
  const { port } = t.server.address() as AddressInfo;
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1', () => socket.write(bytes));
    let answer = '';
    socket.on('data', (chunk) => (answer += chunk.toString()));
    socket.on('end', () => resolve(answer));
    socket.on('error', reject);
  });
}

describe('requests the HTTP parser refuses (e2e)', () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await createTestApp();
    await new Promise<void>((resolve) => t.server.listen(0, '127.0.0.1', resolve));
  });
  afterAll(() => t.close());

  it.each([
    ['a control character in a header value', 'GET /health/live HTTP/1.1\r\nHost: x\r\nIdempotency-Key: a\x1bb\r\n\r\n', 400],
    ['a malformed request line', 'GET /health/live HTTP/9\r\n\r\n', 400],
    ['headers over the size limit', `GET /health/live HTTP/1.1\r\nHost: x\r\nX-Big: ${'a'.repeat(20_000)}\r\n\r\n`, 431],
  ])('answers %s with a problem and a request id', async (_name, bytes, status) => {
    const answer = await rawExchange(t, bytes);
    const [head, body] = answer.split('\r\n\r\n');
    expect(head).toMatch(new RegExp(`^HTTP/1.1 ${status} `));
    expect(head).toContain('Content-Type: application/problem+json');
    expect(head).toMatch(/X-Request-Id: [0-9a-f-]{36}/);
    expect(JSON.parse(body!)).toMatchObject({ status, code: 'validation_failed', request_id: expect.any(String) });
    // The server goes on serving.
    await t.api.get('/health/live').expect(200);
  });
});

describe('generated slugs under concurrency (e2e)', () => {
  let t: TestApp;
  let a: Tenant;

  beforeAll(async () => {
    t = await createTestApp();
    a = await t.tenant();
  });
  afterAll(() => t.close());

  it.each(['categories', 'tags'])('20 parallel %s creates without a slug all succeed, with distinct slugs', async (resource) => {
    const answers = await Promise.all(
      Array.from({ length: 20 }, () => t.api.post(`/api/v1/posts/${resource}`).set(a.auth).send({ name: 'Same Name' })),
    );
    expect(answers.map((r) => r.status)).toEqual(Array(20).fill(201));
    const slugs = answers.map((r) => r.body.data.slug as string);
    expect(new Set(slugs).size).toBe(20);
    expect(slugs).toContain('same-name');
    const table = resource === 'tags' ? 'post_tags' : 'post_categories';
    const rows = await t.query(`SELECT slug FROM ${table} WHERE organization_id = $1`, [a.orgId]);
    expect(rows).toHaveLength(20);
  });
});
