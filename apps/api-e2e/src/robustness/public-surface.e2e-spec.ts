import { Controller, Get, Module } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import { InjectDataSource } from '@nestjs/typeorm';
import { connect, type AddressInfo } from 'node:net';
import { gzipSync } from 'node:zlib';
import { DataSource } from 'typeorm';
import { createTestApp, TestApp } from '../support/test-app';

const SQL_TEXT = "SELECT password_hash FROM users WHERE email = 'boss@example.com'";

/** Routes under /public/v1 that fail the way a bug would, so the answer to a fault can be checked. */
@ApiExcludeController()
@Controller('public/v1/probe')
class FailingPublicController {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  @Get('crash')
  crash(): never {
    throw new Error(`crashed while running ${SQL_TEXT} at /srv/almanac/dist/handler.js:12:7`);
  }

  @Get('sql')
  async sql(): Promise<never> {
    await this.dataSource.query(`${SQL_TEXT} AND no_such_column = $1`, ['secret-parameter']);
    throw new Error('unreachable');
  }
}

@Module({ controllers: [FailingPublicController] })
class FailingPublicModule {}

interface Answer {
  status: number;
  headers: Record<string, string>;
  body: string;
}

/** Sends the request line exactly as given (no client library normalises it) and reads the answer. */
function sendRaw(t: TestApp, head: string, body: Buffer = Buffer.alloc(0)): Promise<Answer> {
  const { port } = t.server.address() as AddressInfo;
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1', () => {
      socket.write(`${head}\r\nHost: localhost\r\nConnection: close\r\n${body.length ? `Content-Length: ${body.length}\r\n` : ''}\r\n`);
      socket.write(body);
    });
    const chunks: Buffer[] = [];
    socket.on('data', (chunk: Buffer) => chunks.push(chunk));
    socket.on('error', reject);
    socket.on('close', () => {
      const text = Buffer.concat(chunks).toString('utf8');
      const [top = '', ...rest] = text.split('\r\n\r\n');
      const [statusLine = '', ...headerLines] = top.split('\r\n');
      const headers = Object.fromEntries(headerLines.map((line) => [line.slice(0, line.indexOf(':')).toLowerCase(), line.slice(line.indexOf(':') + 1).trim()]));
      resolve({ status: Number(statusLine.split(' ')[1]), headers, body: rest.join('\r\n\r\n') });
    });
  });
}

/** What no answer of the public surface may ever carry. */
const LEAKS = [/SELECT/i, /password/i, /secret-parameter/, /QueryFailed/, /no_such_column/, /\bat \S+:\d+:\d+/, /node_modules/, /\/srv\//];

/**
 * The public surface is hostile ground: anyone may send anything, without a key. Whatever comes, the
 * answer is a problem (never 5xx for bad input), carries CORS for any origin, counts against the
 * sender's budget, and shows no stack, SQL or driver text, also when the fault is ours.
 */
describe('hostile requests to /public/v1 (e2e)', () => {
  let t: TestApp;
  let counted = 0;

  const expectSafe = (answer: Answer, what: string) => {
    expect({ what, cors: answer.headers['access-control-allow-origin'] }).toEqual({ what, cors: '*' });
    expect(answer.headers['access-control-allow-credentials']).toBeUndefined();
    if (answer.status >= 400) {
      expect({ what, type: answer.headers['content-type'] }).toEqual({ what, type: expect.stringMatching(/^application\/problem\+json/) });
      const problem = JSON.parse(answer.body) as Record<string, unknown>;
      expect(Object.keys(problem).sort()).toEqual(expect.arrayContaining(['code', 'detail', 'request_id', 'status', 'title', 'type']));
    }
    for (const leak of LEAKS) expect({ what, leaks: leak.test(answer.body) }).toEqual({ what, leaks: false });
  };

  beforeAll(async () => {
    t = await createTestApp({ config: { publicRateLimitPerMinute: 100_000, webhookDispatcher: false }, extraModules: [FailingPublicModule] });
    await new Promise<void>((resolve) => t.server.listen(0, '127.0.0.1', resolve));
  });
  afterAll(() => t.close());

  it('answers our own faults as 500 internal with CORS, never with their message, stack or SQL', async () => {
    for (const path of ['/public/v1/probe/crash', '/public/v1/probe/sql']) {
      const answer = await sendRaw(t, `GET ${path} HTTP/1.1`);
      counted += 1;
      expect(answer.status).toBe(500);
      expect(JSON.parse(answer.body)).toMatchObject({ status: 500, code: 'internal', detail: 'An internal error occurred.' });
      expectSafe(answer, path);
    }
  });

  it.each([
    ['a huge token', `/public/v1/previews/${'a'.repeat(8_000)}`],
    ['a NUL in the token', '/public/v1/previews/abc%00def'],
    ['a NUL in the query', '/public/v1/posts.atom?key=alm_pub_%00'],
    ['SQL in the token', "/public/v1/previews/'%20OR%201=1%20--"],
    ['SQL in the key', "/public/v1/posts.atom?key=alm_pub_'%3BDROP%20TABLE%20api_keys--"],
    ['a traversal', '/public/v1/previews/..%2F..%2F..%2Fetc%2Fpasswd'],
    ['malformed percent-encoding', '/public/v1/previews/%E0%A4%A'],
    ['a lone percent', '/public/v1/previews/%'],
    ['markup', '/public/v1/previews/%3Cscript%3Ealert(1)%3C%2Fscript%3E'],
    ['emoji and right-to-left text', '/public/v1/previews/%F0%9F%92%A5%E2%80%AEabc'],
    ['an invalid UTF-8 sequence', '/public/v1/previews/%C0%AF%FF'],
    ['a thousand keys', `/public/v1/posts.atom?${'key=x&'.repeat(1_000)}`],
    ['nested query brackets', `/public/v1/posts.atom?${'key['.repeat(50)}=1`],
    ['a booking route that does not exist yet', '/public/v1/bookings/bkt_x/cancel'],
    ['an absolute-form target', 'http://evil.example/public/v1/previews/x'],
    ['an upper-case path', '/PUBLIC/V1/PREVIEWS/x'],
    ['the bare prefix', '/public/v1'],
  ])('answers %s with a 4xx problem, CORS and nothing leaked', async (what, target) => {
    for (const method of ['GET', 'HEAD', 'DELETE', 'PUT', 'PATCH']) {
      const answer = await sendRaw(t, `${method} ${target} HTTP/1.1`);
      counted += 1;
      expect({ what, method, status: answer.status }).toEqual({ what, method, status: expect.any(Number) });
      expect(answer.status).toBeGreaterThanOrEqual(400);
      expect(answer.status).toBeLessThan(500);
      if (method !== 'HEAD') expectSafe(answer, `${method} ${what}`);
      else expect(answer.headers['access-control-allow-origin']).toBe('*');
    }
  });

  it.each<[string, Record<string, string>, Buffer, number]>([
    ['not JSON', { 'Content-Type': 'text/plain' }, Buffer.from('hello'), 415],
    ['broken JSON', { 'Content-Type': 'application/json' }, Buffer.from('{"reason":'), 400],
    ['a NUL in a string', { 'Content-Type': 'application/json' }, Buffer.from('{"reason":"a\\u0000b"}'), 400],
    ['nesting 100 deep', { 'Content-Type': 'application/json' }, Buffer.from(`${'['.repeat(100)}${']'.repeat(100)}`), 400],
    ['a reserved key', { 'Content-Type': 'application/json' }, Buffer.from('{"__proto__":{"admin":true}}'), 400],
    ['over 1 MiB', { 'Content-Type': 'application/json' }, Buffer.from(JSON.stringify({ reason: 'x'.repeat(1_100_000) })), 413],
    ['a gzip bomb', { 'Content-Type': 'application/json', 'Content-Encoding': 'gzip' }, gzipSync(Buffer.from(`{"reason":"${' '.repeat(20_000_000)}"}`)), 413],
    ['an unknown coding', { 'Content-Type': 'application/json', 'Content-Encoding': 'compress' }, Buffer.from('{}'), 415],
  ])('answers a POST with %s as a problem with CORS', async (what, headers, body, status) => {
    const head = `POST /public/v1/bookings/bkt_x/cancel HTTP/1.1\r\n${Object.entries(headers).map(([name, value]) => `${name}: ${value}`).join('\r\n')}`;
    const answer = await sendRaw(t, head, body);
    counted += 1;
    expect({ what, status: answer.status }).toEqual({ what, status });
    expectSafe(answer, what);
  });

  it('counted every one of those requests against the sender, whatever its spelling', async () => {
    const rows = await t.query<{ total: string }>(`SELECT (SELECT sum(c) FROM unnest(counts) c)::text AS total FROM public_rate_limits`);
    expect(rows).toEqual([{ total: String(counted) }]);
    await t.raw().get('/health/ready').expect(200);
  });
});
