import { createServer, IncomingMessage, Server } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface Received {
  path: string;
  headers: IncomingMessage['headers'];
  body: string;
}

/**
 * A real webhook receiver on loopback: records every request, answers with the status set for its
 * path (200 by default), and lets a test await the n-th request instead of sleeping.
 */
export class Receiver {
  private server!: Server;
  readonly received: Received[] = [];
  readonly statusFor = new Map<string, number>();
  readonly redirectFor = new Map<string, string>();
  private waiters: Array<{ count: number; resolve: () => void }> = [];
  base = '';

  async start(): Promise<void> {
    this.server = createServer((req, res) => {
      let body = '';
      req.on('data', (chunk: Buffer) => (body += chunk.toString()));
      req.on('end', () => {
        const path = req.url ?? '/';
        this.received.push({ path, headers: req.headers, body });
        const redirect = this.redirectFor.get(path);
        if (redirect) res.writeHead(302, { Location: redirect }).end();
        else
          res.writeHead(this.statusFor.get(path) ?? 200, { 'Content-Type': 'text/plain' }).end(`ok ${path}`);
        this.waiters = this.waiters.filter((w) =>
          this.received.length >= w.count ? (w.resolve(), false) : true,
        );
      });
    });
    await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', resolve));
    this.base = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
  }

  /** Resolves once `count` requests have arrived in all (rejects after `ms`). */
  waitFor(count: number, ms = 30_000): Promise<void> {
    if (this.received.length >= count) return Promise.resolve();
    return new Promise((resolve, reject) => {
      const timer = setTimeout(
        () => reject(new Error(`only ${this.received.length} of ${count} deliveries arrived`)),
        ms,
      );
      this.waiters.push({ count, resolve: () => (clearTimeout(timer), resolve()) });
    });
  }

  on(path: string): Received[] {
    return this.received.filter((r) => r.path === path);
  }

  async stop(): Promise<void> {
    this.server.closeAllConnections();
    await new Promise((resolve) => this.server.close(resolve));
  }
}
