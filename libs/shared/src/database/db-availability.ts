import { pgErrorOf } from './pg-errors';

/** Seconds a client is asked to wait before retrying while the database is unreachable. */
export const DATABASE_RETRY_AFTER_SECONDS = 5;

const CONNECTION_CODES = new Set(['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'EPIPE', 'ENOTFOUND', 'EHOSTUNREACH', 'EAI_AGAIN']);
const CONNECTION_MESSAGES = [
  'Connection terminated',
  'connection terminated',
  'timeout exceeded when trying to connect',
  'Client has encountered a connection error',
  'Connection ended unexpectedly',
  'the database system is',
];

/**
 * True when a failure says the database could not be reached or went away (refused connections,
 * an admin shutdown, crash recovery, a pool that cannot connect), as opposed to a query it refused.
 * Such failures are the service's state, not the request's fault: 503 with Retry-After.
 */
export function isDatabaseUnavailable(error: unknown): boolean {
  const { code } = pgErrorOf(error);
  if (code !== undefined) {
    // 08: connection exception; 57P01–57P03: admin/crash shutdown, cannot connect now; 53300: too many connections.
    if (code.startsWith('08') || code === '57P01' || code === '57P02' || code === '57P03' || code === '53300') return true;
    if (CONNECTION_CODES.has(code)) return true;
  }
  const message = error instanceof Error ? error.message : typeof error === 'string' ? error : '';
  const driverMessage = (error as { driverError?: { message?: unknown } })?.driverError?.message;
  return [message, typeof driverMessage === 'string' ? driverMessage : ''].some((text) => CONNECTION_MESSAGES.some((m) => text.includes(m)));
}
