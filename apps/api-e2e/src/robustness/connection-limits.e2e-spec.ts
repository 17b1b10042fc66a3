import { TrustedProxies } from '@almanac/shared';
import { connect, type Socket } from 'node:net';
import type { AddressInfo } from 'node:net';
import { createTestApp, TestApp } from '../support/test-app';

/** A raw TCP connection from a chosen loopback address, with everything it received and whether it closed. */
interface Raw {
  socket: Socket;
  received: () => string;
  closed: Promise<void>;
}

/** Every connection the tests opened, destroyed after each suite (an app does not close while they hang). */
const opened: Socket[] = [];

async function open(t: TestApp, localAddress: string): Promise<Raw> {
  const { port } = t.server.address() as AddressInfo;
  const socket = connect({ host: '127.0.0.1', port, localAddress });
  opened.push(socket);
  let text = '';
  socket.on('data', (chunk: Buffer) => (text += chunk.toString('latin1')));
  socket.on('error', () => undefined);
  const closed = new Promise<void>((resolve) => socket.once('close', () => resolve()));
  await new Promise<void>((resolve, reject) => {
    socket.once('connect', resolve);
    socket.once('error', reject);
  });
  return { socket, received: () => text, closed };
}

/** Resolves when `promise` does; fails the test if that takes longer than `ms` (a deadline, not a measurement). */
function within<T>(promise: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout;
  const deadline = new Promise<never>((_, reject) => (timer = setTimeout(() => reject(new Error(`${what}: not within ${ms} ms`)), ms)));
  return Promise.race([promise, deadline]).finally(() => clearTimeout(timer));
}

/** Sends the rest of a GET and waits for the whole answer (Connection: close). */
async function finishGet(raw: Raw): Promise<string> {
  raw.socket.write('Connection: close\r\n\r\n');
  await within(raw.closed, 10_000, 'the answer');
  return raw.received();
}

const GET_START = 'GET /health/live HTTP/1.1\r\nHost: localhost\r\n';

/** `npm start` exposed on its own: one client cannot hold every descriptor, nor keep a request open for minutes. */
describe('connection limits (e2e)', () => {
  describe('per client', () => {
    let t: TestApp;
    const held: Raw[] = [];

    beforeAll(async () => {
      t = await createTestApp({ config: { maxConnectionsPerClient: 5, trustedProxies: TrustedProxies.parse('127.0.0.9') } });
      await new Promise<void>((resolve) => t.server.listen(0, '127.0.0.1', resolve));
    });
    afterAll(async () => {
      for (const socket of opened.splice(0)) socket.destroy();
      await t.close();
    });

    it('closes the connection one over the cap at once, and keeps the others serving', async () => {
      // Five slow requests from 127.0.0.1: their headers never finish arriving.
      for (let i = 0; i < 5; i++) {
        const raw = await open(t, '127.0.0.1');
        raw.socket.write(GET_START);
        held.push(raw);
      }
      const extra = await open(t, '127.0.0.1');
      await within(extra.closed, 10_000, 'the sixth connection closed');
      expect(extra.received()).toBe('');

      // Another client is not affected …
      const other = await open(t, '127.0.0.2');
      other.socket.write(GET_START);
      expect(await finishGet(other)).toMatch(/^HTTP\/1\.1 200 OK\r\n/);
      // … and the five held connections still serve their request.
      const first = held.shift()!;
      expect(await finishGet(first)).toMatch(/^HTTP\/1\.1 200 OK\r\n/);

      // With one of the five closed, 127.0.0.1 may open one more.
      const again = await open(t, '127.0.0.1');
      again.socket.write(GET_START);
      expect(await finishGet(again)).toMatch(/^HTTP\/1\.1 200 OK\r\n/);
    });

    it('does not cap a trusted proxy, which carries every user’s connections', async () => {
      const proxied = await Promise.all(Array.from({ length: 8 }, () => open(t, '127.0.0.9')));
      for (const raw of proxied) raw.socket.write(GET_START);
      const answers = await Promise.all(proxied.map(finishGet));
      expect(answers.every((answer) => answer.startsWith('HTTP/1.1 200 OK\r\n'))).toBe(true);
    });
  });

  describe('request timeouts', () => {
    let t: TestApp;

    beforeAll(async () => {
      t = await createTestApp({ config: { httpHeadersTimeoutMs: 500, httpRequestTimeoutMs: 1_000 } });
      await new Promise<void>((resolve) => t.server.listen(0, '127.0.0.1', resolve));
    });
    afterAll(async () => {
      for (const socket of opened.splice(0)) socket.destroy();
      await t.close();
    });

    it('cuts a body that trickles in past the request timeout with 408 (a problem) and closes the connection', async () => {
      const raw = await open(t, '127.0.0.1');
      raw.socket.write('POST /api/v1/schedules HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\nContent-Length: 100000\r\n\r\n{"name":"');
      // Well under the default 300 s of Node, well over the 1 s configured here.
      await within(raw.closed, 15_000, 'the slow body cut');
      expect(raw.received()).toMatch(/^HTTP\/1\.1 408 Request Timeout\r\n/);
      expect(raw.received()).toContain('Content-Type: application/problem+json');
    });

    it('cuts headers that never finish with 408 too', async () => {
      const raw = await open(t, '127.0.0.1');
      raw.socket.write(GET_START);
      await within(raw.closed, 15_000, 'the slow headers cut');
      expect(raw.received()).toMatch(/^HTTP\/1\.1 408 Request Timeout\r\n/);
    });

    it('leaves a request that arrives in time alone', async () => {
      const raw = await open(t, '127.0.0.1');
      raw.socket.write(GET_START);
      expect(await finishGet(raw)).toMatch(/^HTTP\/1\.1 200 OK\r\n/);
    });
  });
});
