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
 * SQLSTATEs of a database that cannot be reached or is going away: connection exceptions (class 08)
 * but a protocol violation (08P01, which is a statement the server refused: one with more than
 * 65,535 parameters, say), shutdowns and a server that cannot take connections now (57P01–57P03),
 * and one that has no connection left (53300).
 */
const UNAVAILABLE_STATES = new Set(['08000', '08001', '08003', '08004', '08006', '08007', '57P01', '57P02', '57P03', '53300']);

/**
 * True when a failure says the database could not be reached or went away (refused connections,
 * an admin shutdown, crash recovery, a pool that cannot connect), as opposed to a statement it
 * refused. Such failures are the service's state, not the request's fault: 503 with Retry-After.
 * A refused statement is a bug of ours, whatever its SQLSTATE: 500.
 */
export function isDatabaseUnavailable(error: unknown): boolean {
  const { code } = pgErrorOf(error);
  if (code !== undefined && CONNECTION_CODES.has(code)) return true;
  // A SQLSTATE is the server's own word on what happened.
  if (code !== undefined && /^[0-9A-Z]{5}$/.test(code)) return UNAVAILABLE_STATES.has(code);
  const message = error instanceof Error ? error.message : typeof error === 'string' ? error : '';
  const driverMessage = (error as { driverError?: { message?: unknown } })?.driverError?.message;
  return [message, typeof driverMessage === 'string' ? driverMessage : ''].some((text) => CONNECTION_MESSAGES.some((m) => text.includes(m)));
}
