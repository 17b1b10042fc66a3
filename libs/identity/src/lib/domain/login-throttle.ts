/** More than 10 failed logins for one e-mail within 15 minutes: the e-mail is refused until they age out. */
export const LOGIN_MAX_FAILURES = 10;

export const LOGIN_WINDOW_MS = 15 * 60 * 1000;

/**
 * A client over its limit of failed sign-ins may still try the e-mails that signed in from it within
 * this long: only those, and each at most LOGIN_MAX_FAILURES times per window, so the passwords it can
 * make the server hash stay bounded by real sign-ins, never by the e-mails an attacker makes up.
 */
export const LOGIN_KNOWN_CLIENT_MS = 30 * 24 * 60 * 60 * 1000;

/** E-mails are matched case-insensitively, as the unique index on users does. */
export function loginEmailKey(email: string): string {
  return email.trim().toLowerCase();
}

/**
 * Given the failures inside the window (oldest first), whether another attempt may be verified, and
 * if not, in how many seconds enough failures will have aged out for one more attempt.
 */
export function loginThrottle(
  failureTimes: readonly Date[],
  now: Date,
  maxFailures: number = LOGIN_MAX_FAILURES,
): { allowed: true } | { allowed: false; retryAfterSeconds: number } {
  const windowStart = now.getTime() - LOGIN_WINDOW_MS;
  const recent = failureTimes.filter((t) => t.getTime() > windowStart).sort((a, b) => a.getTime() - b.getTime());
  if (recent.length < maxFailures) return { allowed: true };
  // One more attempt is allowed once all but (maxFailures - 1) of them have left the window.
  const freeing = recent[recent.length - maxFailures]!;
  const waitMs = freeing.getTime() + LOGIN_WINDOW_MS - now.getTime();
  return { allowed: false, retryAfterSeconds: Math.max(1, Math.ceil(waitMs / 1000)) };
}
