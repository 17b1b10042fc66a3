import type { User, UserRole } from './user';

export type { UserRole } from './user';

/** An admin session ends after 12 hours without use, and 7 days after sign-in in any case. */
export const SESSION_IDLE_MS = 12 * 60 * 60 * 1000;
export const SESSION_ABSOLUTE_MS = 7 * 24 * 60 * 60 * 1000;
/** `last_seen_at` is written at most this often, so a busy admin does not cost a write per request. */
export const SESSION_TOUCH_INTERVAL_MS = 60 * 1000;

/** Who is signed in: what `@AdminSession()` gives a handler. */
export interface AdminSessionInfo {
  readonly userId: string;
  readonly organizationId: string;
  readonly role: UserRole;
  readonly email: string;
  readonly name: string;
}

export interface SessionTimes {
  readonly createdAt: Date;
  readonly lastSeenAt: Date;
  readonly expiresAt: Date;
}

/** A stored admin session: the token is kept only as its SHA-256. */
export interface AdminSessionRecord extends SessionTimes {
  readonly id: string;
  readonly organizationId: string;
  readonly userId: string;
}

/** A new session of a user signed in at `now`. */
export function newAdminSession(id: string, user: User, now: Date): AdminSessionRecord {
  return { id, organizationId: user.organizationId, userId: user.id, createdAt: now, lastSeenAt: now, expiresAt: sessionExpiry(now) };
}

/** Who is signed in, as the handlers see it. */
export function sessionInfoOf(user: User): AdminSessionInfo {
  return { userId: user.id, organizationId: user.organizationId, role: user.role, email: user.email, name: user.name };
}

/** A session last seen at or before this instant has been idle too long at `now`. */
export function idleSince(now: Date): Date {
  return new Date(now.getTime() - SESSION_IDLE_MS);
}

export function sessionExpiry(createdAt: Date): Date {
  return new Date(createdAt.getTime() + SESSION_ABSOLUTE_MS);
}

export function isSessionActive(session: SessionTimes, now: Date): boolean {
  const t = now.getTime();
  return t < session.expiresAt.getTime() && t < session.lastSeenAt.getTime() + SESSION_IDLE_MS;
}

export function needsTouch(session: SessionTimes, now: Date): boolean {
  return now.getTime() - session.lastSeenAt.getTime() >= SESSION_TOUCH_INTERVAL_MS;
}
