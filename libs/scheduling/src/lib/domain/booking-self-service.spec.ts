import { DomainError, secretHash } from '@almanac/shared/domain';
import type { BookingStatus } from './booking-status';
import {
  assertAttendeeMayCancel,
  assertAttendeeMayReschedule,
  AttendeePolicy,
  attendeeRights,
  issueManageToken,
  MANAGE_TOKEN_PATTERN,
  OPEN_ATTENDEE_POLICY,
  rescheduledSpan,
} from './booking-self-service';

const START = new Date('2027-03-28T10:00:00.000Z');
const at = (iso: string) => new Date(iso);
const booking = (status: BookingStatus = 'PENDING') => ({ status, startTime: START });
const policy = (overrides: Partial<AttendeePolicy> = {}): AttendeePolicy => ({ ...OPEN_ATTENDEE_POLICY, ...overrides });

const outcome = (fn: () => unknown): string => {
  try {
    return String(fn() ?? 'ok');
  } catch (error) {
    return error instanceof DomainError ? error.code : 'not a domain error';
  }
};

describe('attendee self-service rules', () => {
  it('issues bkt_ tokens of 32 base62 characters, different each time, with their SHA-256', () => {
    const one = issueManageToken();
    const two = issueManageToken();
    expect(one.token).toMatch(MANAGE_TOKEN_PATTERN);
    expect(one.token).not.toBe(two.token);
    expect(one.hash).toBe(secretHash(one.token));
    for (const bad of ['bkt_short', `BKT_${'a'.repeat(32)}`, `bkt_${'a'.repeat(31)}-`, `bkt_${'a'.repeat(33)}`, `x${one.token}`]) {
      expect([bad, MANAGE_TOKEN_PATTERN.test(bad)]).toEqual([bad, false]);
    }
  });

  it.each([
    // now, notice minutes, may cancel
    ['2027-03-28T09:00:00.000Z', 60, 'cancel'],
    ['2027-03-28T09:00:00.001Z', 60, 'notice_period_passed'],
    ['2027-03-28T10:00:00.000Z', 0, 'cancel'],
    ['2027-03-28T10:00:00.001Z', 0, 'notice_period_passed'],
    ['2027-03-27T22:00:00.000Z', 720, 'cancel'],
    ['2027-03-27T22:00:00.001Z', 720, 'notice_period_passed'],
    ['2026-03-28T10:00:00.000Z', 525_600, 'cancel'],
    ['2026-03-28T10:00:00.001Z', 525_600, 'notice_period_passed'],
  ])('at %s with %i minutes of notice, cancelling: %s', (now, minutes, expected) => {
    const p = policy({ cancelNoticeMinutes: minutes });
    expect(outcome(() => assertAttendeeMayCancel(booking(), p, at(now)))).toBe(expected);
    expect(attendeeRights(booking(), p, at(now)).canCancel).toBe(expected === 'cancel');
    expect(attendeeRights(booking(), p, at(now)).cancellableUntil).toEqual(new Date(START.getTime() - minutes * 60_000));
  });

  it.each([
    ['2027-03-27T10:00:00.000Z', 1440, 'ok'],
    ['2027-03-27T10:00:00.001Z', 1440, 'notice_period_passed'],
  ])('at %s with %i minutes of notice, rescheduling: %s', (now, minutes, expected) => {
    const p = policy({ rescheduleNoticeMinutes: minutes });
    expect(outcome(() => assertAttendeeMayReschedule(booking(), p, at(now)))).toBe(expected);
    expect(attendeeRights(booking(), p, at(now)).canReschedule).toBe(expected === 'ok');
  });

  it.each([
    ['PENDING', 'cancel', 'ok'],
    ['CONFIRMED', 'cancel', 'ok'],
    ['CANCELLED', 'already_cancelled', 'invalid_transition'],
    ['COMPLETED', 'invalid_transition', 'invalid_transition'],
    ['NO_SHOW', 'invalid_transition', 'invalid_transition'],
  ] as const)('a %s booking: cancel %s, reschedule %s', (status, cancel, reschedule) => {
    const now = at('2027-03-01T00:00:00Z');
    expect(outcome(() => assertAttendeeMayCancel(booking(status), OPEN_ATTENDEE_POLICY, now))).toBe(cancel);
    expect(outcome(() => assertAttendeeMayReschedule(booking(status), OPEN_ATTENDEE_POLICY, now))).toBe(reschedule);
    const rights = attendeeRights(booking(status), OPEN_ATTENDEE_POLICY, now);
    const active = status === 'PENDING' || status === 'CONFIRMED';
    expect(rights).toEqual({
      canCancel: active,
      canReschedule: active,
      cancellableUntil: active ? START : null,
      reschedulableUntil: active ? START : null,
    });
  });

  it('refuses what the event type forbids with 403, and says so in the rights', () => {
    const now = at('2027-03-01T00:00:00Z');
    const closed = policy({ attendeeCanCancel: false, attendeeCanReschedule: false });
    expect(outcome(() => assertAttendeeMayCancel(booking(), closed, now))).toBe('forbidden');
    expect(outcome(() => assertAttendeeMayReschedule(booking(), closed, now))).toBe('forbidden');
    expect(attendeeRights(booking(), closed, now)).toEqual({ canCancel: false, canReschedule: false, cancellableUntil: null, reschedulableUntil: null });
    // An already cancelled booking is answered as it is, whatever the type says.
    expect(outcome(() => assertAttendeeMayCancel(booking('CANCELLED'), closed, now))).toBe('already_cancelled');
  });

  it('keeps the booking length on a move', () => {
    const span = rescheduledSpan({ startTime: START, endTime: new Date(START.getTime() + 50 * 60_000) }, at('2027-04-01T08:00:00Z'));
    expect(span).toEqual({ startTime: at('2027-04-01T08:00:00Z'), endTime: at('2027-04-01T08:50:00Z') });
  });
});
