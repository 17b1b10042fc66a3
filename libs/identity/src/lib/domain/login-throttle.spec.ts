import { LOGIN_WINDOW_MS, loginEmailKey, loginThrottle } from './login-throttle';

const now = new Date('2026-01-01T12:00:00.000Z');
const ago = (ms: number) => new Date(now.getTime() - ms);

describe('loginThrottle', () => {
  it.each([
    [0, true],
    [9, true],
    [10, false],
    [25, false],
  ])('with %i recent failures allows another attempt: %s', (count, allowed) => {
    const failures = Array.from({ length: count }, (_, i) => ago((i + 1) * 1000));
    expect(loginThrottle(failures, now).allowed).toBe(allowed);
  });

  it('ignores failures older than 15 minutes', () => {
    const failures = [...Array.from({ length: 9 }, () => ago(1000)), ago(LOGIN_WINDOW_MS), ago(LOGIN_WINDOW_MS + 1)];
    expect(loginThrottle(failures, now)).toEqual({ allowed: true });
  });

  it('says when enough failures will have aged out for one more attempt', () => {
    // 12 failures, one a minute: 3 must leave the window, the third oldest (10 min ago) leaves in 5 min.
    const failures = Array.from({ length: 12 }, (_, i) => ago((12 - i) * 60_000));
    expect(loginThrottle(failures, now)).toEqual({ allowed: false, retryAfterSeconds: 5 * 60 });
  });

  it('never asks to wait less than a second', () => {
    const failures = [ago(LOGIN_WINDOW_MS - 1), ...Array.from({ length: 9 }, () => ago(10))];
    expect(loginThrottle(failures, now)).toEqual({ allowed: false, retryAfterSeconds: 1 });
  });

  it('matches e-mails case-insensitively', () => {
    expect(loginEmailKey('  Ada@Example.COM ')).toBe('ada@example.com');
  });
});
