import { createServer, Server } from 'node:http';
import { AddressInfo } from 'node:net';
import { FEED_FETCH_DEFAULTS, FetchFailedError, isPublicAddress, safeFetchText, safePost } from './safe-fetch';

describe('isPublicAddress', () => {
  it.each([
    ['127.0.0.1', false],
    ['10.1.2.3', false],
    ['172.16.0.1', false],
    ['192.168.1.1', false],
    ['169.254.169.254', false],
    ['100.64.0.1', false],
    ['0.0.0.0', false],
    ['::1', false],
    ['fc00::1', false],
    ['fe80::1', false],
    ['::ffff:127.0.0.1', false],
    ['::7f00:1', false],
    ['::127.0.0.1', false],
    ['::a00:1', false],
    ['::808:808', false],
    ['64:ff9b::7f00:1', false],
    ['2002:7f00:1::', false],
    ['2001::1', false],
    ['8.8.8.8', true],
    ['2606:4700:4700::1111', true],
  ])('%s → %s', (address, expected) => expect(isPublicAddress(address)).toBe(expected));
});

describe('safeFetchText against a loopback server', () => {
  let server: Server;
  let base: string;
  let redirects = 0;

  beforeAll(async () => {
    server = createServer((req, res) => {
      if (req.url === '/feed') return void res.end('BEGIN:VCALENDAR\r\nEND:VCALENDAR\r\n');
      if (req.url === '/loop') {
        redirects++;
        return void res.writeHead(302, { Location: '/loop' }).end();
      }
      if (req.url === '/hop') return void res.writeHead(301, { Location: '/feed' }).end();
      if (req.url?.startsWith('/bad-location')) return void res.writeHead(302, { Location: 'http://[::1' }).end();
      if (req.url === '/big') {
        res.write('x'.repeat(1024 * 1024));
        res.write('x'.repeat(1024 * 1024));
        return void res.end();
      }
      if (req.url === '/hang') return; // never answers
      res.writeHead(500).end('boom');
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  });

  const allowed = { ...FEED_FETCH_DEFAULTS, allowPrivateHosts: true };

  it('refuses loopback unless private hosts are allowed', async () => {
    await expect(safeFetchText(`${base}/feed`, { ...FEED_FETCH_DEFAULTS, allowPrivateHosts: false })).rejects.toThrow(
      FetchFailedError,
    );
    await expect(safeFetchText(`http://localhost:${new URL(base).port}/feed`, { ...FEED_FETCH_DEFAULTS, allowPrivateHosts: false })).rejects.toThrow(
      /private/,
    );
    await expect(safeFetchText(`${base}/feed`, allowed)).resolves.toContain('BEGIN:VCALENDAR');
  });

  it('follows up to three redirects and no more', async () => {
    await expect(safeFetchText(`${base}/hop`, allowed)).resolves.toContain('VCALENDAR');
    await expect(safeFetchText(`${base}/loop`, allowed)).rejects.toThrow(/redirected more than 3/);
    expect(redirects).toBe(4);
  });

  it('answers a malformed redirect Location with a FetchFailedError that quotes neither address', async () => {
    const failure = safeFetchText(`${base}/bad-location?token=secret-token`, allowed);
    await expect(failure).rejects.toThrow(FetchFailedError);
    await expect(failure).rejects.toThrow('the feed redirected to an invalid address');
    await expect(failure).rejects.not.toThrow(/secret-token|\[::1/);
  });

  it('caps the size', async () => {
    await expect(safeFetchText(`${base}/big`, { ...allowed, maxBytes: 1024 * 1024 })).rejects.toThrow(/larger than/);
  });

  it('times out, and says that it did (a hanging end, not a refusal)', async () => {
    await expect(safeFetchText(`${base}/hang`, { ...allowed, timeoutMs: 200 })).rejects.toThrow(/did not answer/);
    await expect(safePost(`${base}/hang`, '{}', {}, { ...allowed, timeoutMs: 200 })).rejects.toMatchObject({ timedOut: true });
    await expect(safePost('http://127.0.0.1:1/hook', '{}', {}, allowed)).rejects.toMatchObject({ timedOut: false });
  });

  it('fails on HTTP errors and refused connections', async () => {
    await expect(safeFetchText(`${base}/error`, allowed)).rejects.toThrow(/HTTP 500/);
    await expect(safeFetchText('http://127.0.0.1:1/feed', allowed)).rejects.toThrow(/could not be reached/);
    await expect(safeFetchText('ftp://example.com/feed', allowed)).rejects.toThrow(/http\(s\)/);
  });
});
