/** An admin session ends after 12 hours without use, and 7 days after sign-in in any case. */
export const SESSION_IDLE_MS = 12 * 60 * 60 * 1000;
export const SESSION_ABSOLUTE_MS = 7 * 24 * 60 * 60 * 1000;
/** `last_seen_at` is written at most this often, so a busy admin does not cost a write per request. */
export const SESSION_TOUCH_INTERVAL_MS = 60 * 1000;

export type UserRole = 'admin' | 'author';

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
