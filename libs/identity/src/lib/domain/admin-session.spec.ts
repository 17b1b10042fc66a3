import { isSessionActive, needsTouch, SESSION_ABSOLUTE_MS, SESSION_IDLE_MS, sessionExpiry } from './admin-session';

const created = new Date('2026-01-01T00:00:00.000Z');
const at = (ms: number) => new Date(created.getTime() + ms);
const HOUR = 3_600_000;

describe('admin session lifetime', () => {
  it.each([
    ['just signed in', 0, 0, true],
    ['used 11 h 59 min ago', 0, 12 * HOUR - 60_000, true],
    ['idle exactly 12 h', 0, SESSION_IDLE_MS, false],
    ['busy, 6 days 23 h after sign-in', 6 * 24 * HOUR + 22 * HOUR, 6 * 24 * HOUR + 23 * HOUR, true],
    ['busy, 7 days after sign-in', SESSION_ABSOLUTE_MS - HOUR, SESSION_ABSOLUTE_MS, false],
  ])('%s → active: %s', (_name, lastSeenOffset, nowOffset, active) => {
    const session = { createdAt: created, lastSeenAt: at(lastSeenOffset), expiresAt: sessionExpiry(created) };
    expect(isSessionActive(session, at(nowOffset))).toBe(active);
  });

  it('writes last use at most once a minute', () => {
    const session = { createdAt: created, lastSeenAt: created, expiresAt: sessionExpiry(created) };
    expect(needsTouch(session, at(59_999))).toBe(false);
    expect(needsTouch(session, at(60_000))).toBe(true);
  });
});
