import { DomainError } from '@almanac/shared/domain';
import {
  assertReschedulable,
  assertStatusChange,
  BOOKING_STATUSES,
  BOOKING_TRANSITIONS,
  BookingStatus,
  planCancellation,
} from './booking-status';

/** The moves Update Booking may make, written out independently of the table under test. */
const ALLOWED = new Set([
  'PENDING>CONFIRMED',
  'PENDING>CANCELLED',
  'CONFIRMED>COMPLETED',
  'CONFIRMED>CANCELLED',
  'CONFIRMED>NO_SHOW',
]);

const pairs: [BookingStatus, BookingStatus, boolean][] = BOOKING_STATUSES.flatMap((from) =>
  BOOKING_STATUSES.map((to): [BookingStatus, BookingStatus, boolean] => [
    from,
    to,
    ALLOWED.has(`${from}>${to}`),
  ]),
);

function codeOf(fn: () => void): string | null {
  try {
    fn();
    return null;
  } catch (error) {
    if (error instanceof DomainError) return error.code;
    throw error;
  }
}

describe('BOOKING_TRANSITIONS', () => {
  it('covers all 25 (from, to) pairs and exactly five of them are moves', () => {
    expect(pairs).toHaveLength(25);
    expect(pairs.filter(([, , ok]) => ok)).toHaveLength(5);
    expect(Object.keys(BOOKING_TRANSITIONS).sort()).toEqual([...BOOKING_STATUSES].sort());
  });

  it.each(pairs)('%s -> %s allowed: %s', (from, to, allowed) => {
    expect(BOOKING_TRANSITIONS[from].includes(to)).toBe(allowed);
    expect(codeOf(() => assertStatusChange(from, to))).toBe(allowed ? null : 'invalid_transition');
  });
});

describe('planCancellation (DELETE)', () => {
  it.each([
    ['PENDING', 'cancel'],
    ['CONFIRMED', 'cancel'],
    ['CANCELLED', 'already_cancelled'],
  ] as const)('%s -> %s', (status, plan) => {
    expect(planCancellation(status)).toBe(plan);
  });

  it.each(['COMPLETED', 'NO_SHOW'] as const)('refuses %s with invalid_transition', (status) => {
    expect(codeOf(() => planCancellation(status))).toBe('invalid_transition');
  });
});

describe('assertReschedulable', () => {
  it.each([
    ['PENDING', null],
    ['CONFIRMED', null],
    ['CANCELLED', 'invalid_transition'],
    ['COMPLETED', 'invalid_transition'],
    ['NO_SHOW', 'invalid_transition'],
  ] as const)('%s -> %s', (status, code) => {
    expect(codeOf(() => assertReschedulable(status))).toBe(code);
  });
});
