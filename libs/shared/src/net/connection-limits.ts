import type { Server, ServerOptions } from 'node:http';
import type { Socket } from 'node:net';
import { peerKey, TrustedProxies } from './client-address';

/** What one client may hold of the HTTP server, whoever it is (a server exposed without a proxy in front). */
export interface ConnectionLimits {
  /** Connections one client (an IPv4 address, an IPv6 /64) may hold open at once; 0: no cap. Trusted proxies carry everyone's: exempt. */
  readonly maxConnectionsPerClient: number;
  readonly trustedProxies: TrustedProxies;
  /** A request's headers must have arrived within this (ms). */
  readonly headersTimeoutMs: number;
  /** A request, headers and body, must have arrived within this (ms); then 408 and the connection is closed. */
  readonly requestTimeoutMs: number;
}

/**
 * Node's own options for the timeouts. Node checks them on a timer (every 30 s by default, which
 * would let a slow request live up to 30 s past its limit): here every quarter of the shorter one.
 */
export function serverTimeouts(limits: ConnectionLimits): ServerOptions {
  // 0 turns a timeout off; Node wants the headers' no later than the whole request's.
  const requestTimeout = limits.requestTimeoutMs;
  const headersTimeout = requestTimeout > 0 ? Math.min(limits.headersTimeoutMs, requestTimeout) : limits.headersTimeoutMs;
  const shortest = Math.min(...[headersTimeout, requestTimeout, 4_000].filter((ms) => ms > 0));
  return { requestTimeout, headersTimeout, connectionsCheckingInterval: Math.max(100, Math.floor(shortest / 4)) };
}

/** How often at most a warning says how many connections were refused meanwhile. */
const REFUSAL_REPORT_MS = 60_000;

/**
 * Caps the connections each client holds open: one over the cap is closed as soon as it is accepted,
 * before a byte is read, so slow or idle connections of one client cannot use up the process's
 * descriptors. `report` hears of refusals at most once a minute (a flood must not flood the log).
 */
export function capConnectionsPerClient(server: Server, limits: ConnectionLimits, report: (refused: number) => void): void {
  const max = limits.maxConnectionsPerClient;
  if (max <= 0) return;
  const open = new Map<string, number>();
  let refused = 0;
  let reportedAt = 0;
  server.on('connection', (socket: Socket) => {
    if (limits.trustedProxies.includes(socket.remoteAddress)) return;
    const client = peerKey(socket.remoteAddress);
    const count = open.get(client) ?? 0;
    if (count >= max) {
      socket.destroy();
      refused += 1;
      const now = Date.now();
      if (now - reportedAt >= REFUSAL_REPORT_MS) {
        report(refused);
        refused = 0;
        reportedAt = now;
      }
      return;
    }
    open.set(client, count + 1);
    socket.once('close', () => {
      const left = (open.get(client) ?? 1) - 1;
      if (left > 0) open.set(client, left);
      else open.delete(client);
    });
  });
}
