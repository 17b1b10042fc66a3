import { freePort } from '@almanac/shared';
import { createTestDatabase } from '@almanac/shared/testing';
import { request } from 'node:http';
import { gzipSync } from 'node:zlib';
import { ensureBuilt, httpRequest, Running, runBuilt } from '../identity/support/built-app';

const MAIN = 'dist/apps/api/src/main.js';

/** Sends raw bytes as a JSON body; resolves with the status and the parsed problem. */
function send(url: string, method: string, body: Buffer, gzip: boolean): Promise<{ status: number; body: any }> {
  const payload = gzip ? gzipSync(body) : body;
  return new Promise((resolve, reject) => {
    const headers: Record<string, string | number> = { 'Content-Type': 'application/json', 'Content-Length': payload.length };
    if (gzip) headers['Content-Encoding'] = 'gzip';
    const req = request(url, { method, headers, agent: false }, (res) => {
      let text = '';
      res.on('data', (chunk: Buffer) => (text += chunk.toString()));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body: text ? JSON.parse(text) : undefined }));
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end(payload);
  });
}

const nestedArrays = (depth: number) => Buffer.from('['.repeat(depth) + ']'.repeat(depth));
const nestedObjects = (depth: number) => Buffer.from('{"a":'.repeat(depth) + '1' + '}'.repeat(depth));

/**
 * Bodies nested deeper than 64 levels are refused at parse time, by a real server
 * process: a stack overflow there would kill the process, not just fail a request.
 */
describe('hostile bodies against the built server process (e2e)', () => {
  let server: Running;
  let base: string;
  let drop: () => Promise<void>;

  beforeAll(async () => {
    await ensureBuilt();
    const database = await createTestDatabase();
    drop = database.drop;
    const port = await freePort();
    base = `http://127.0.0.1:${port}`;
    server = runBuilt(MAIN, [], { DATABASE_URL: database.url, PORT: String(port), LOG_LEVEL: 'silent' });
    await server.waitFor(/Almanac listening/);
  }, 300_000);

  afterAll(async () => {
    server.child.kill('SIGTERM');
    await server.exited;
    await drop();
  });

  const routes: Array<[string, string]> = [
    ['POST', '/no/such/path'],
    ['POST', '/api/auth/login'],
    ['POST', '/api/v1/bookings'],
    ['PATCH', '/api/v1/posts/0192f0e0-0000-7000-8000-000000000000'],
  ];

  it.each([65, 2_000, 100_000])('refuses arrays nested %i deep, plain and gzipped, on every route, and keeps serving', async (depth) => {
    for (const [method, path] of routes) {
      for (const gzip of [false, true]) {
        const answer = await send(base + path, method, nestedArrays(depth), gzip);
        expect({ path, gzip, status: answer.status, code: answer.body?.code }).toEqual({ path, gzip, status: 400, code: 'validation_failed' });
        expect(answer.body.errors).toEqual([{ field: '[0]'.repeat(64), message: 'must not nest deeper than 64 levels' }]);
      }
    }
    expect((await httpRequest(`${base}/health/ready`)).status).toBe(200);
    expect(server.child.exitCode).toBeNull();
  });

  it('names where an object nests too deep, and accepts 64 levels', async () => {
    const deep = await send(`${base}/api/auth/login`, 'POST', nestedObjects(65), false);
    expect(deep.status).toBe(400);
    expect(deep.body.errors).toEqual([{ field: 'a'.concat('.a'.repeat(63)), message: 'must not nest deeper than 64 levels' }]);
    // 64 levels pass the body check and reach the login validation (an object without email/password).
    const fine = await send(`${base}/api/auth/login`, 'POST', nestedObjects(63), false);
    expect(fine.status).toBe(400);
    expect(JSON.stringify(fine.body.errors)).not.toContain('nest deeper');
  });

  it('answers 400 for an 800 KB array body with at most 100 errors', async () => {
    const body = Buffer.from(JSON.stringify(Array.from({ length: 75_000 }, () => 'x\u0000')));
    const answer = await send(`${base}/api/auth/login`, 'POST', body, false);
    expect(answer.status).toBe(400);
    expect(answer.body.errors).toHaveLength(100);
    expect(answer.body.errors[99]).toEqual({ field: '[99]', message: 'must not contain NUL characters' });
    expect((await httpRequest(`${base}/health/ready`)).status).toBe(200);
  });

  it('answers a body that is not an object with one error, however long it is', async () => {
    // 99,999 items and the array itself: 100,000 values, the most a body may hold.
    for (const body of [Array.from({ length: 99_999 }, (_, i) => i), 'text', 42, null]) {
      const answer = await send(`${base}/api/auth/login`, 'POST', Buffer.from(JSON.stringify(body)), false);
      expect(answer.status).toBe(400);
      expect(answer.body.errors).toEqual([{ field: 'body', message: 'must be a JSON object' }]);
    }
    const over = await send(`${base}/api/auth/login`, 'POST', Buffer.from(JSON.stringify(new Array(100_000).fill(0))), true);
    expect(over.status).toBe(400);
    expect(over.body.errors).toEqual([{ field: 'body', message: 'must not hold more than 100000 values in all' }]);
  });
});
