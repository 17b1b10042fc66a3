import { canTransition, DomainError, InvalidTransitionError, TransitionTable } from '@almanac/shared/domain';

export const BOOKING_STATUSES = ['PENDING', 'CONFIRMED', 'CANCELLED', 'COMPLETED', 'NO_SHOW'] as const;
export type BookingStatus = (typeof BOOKING_STATUSES)[number];

/** Statuses that hold the booked time: only these take part in the no-overlap rule. */
export const ACTIVE_BOOKING_STATUSES: readonly BookingStatus[] = ['PENDING', 'CONFIRMED'];

export function isActiveBookingStatus(status: BookingStatus): boolean {
  return ACTIVE_BOOKING_STATUSES.includes(status);
}

/**
 * The moves Update Booking may make, and nothing else: setting the current status
 * again is not in the table either, so it is refused like any other move.
 */
export const BOOKING_TRANSITIONS: TransitionTable<BookingStatus> = {
  PENDING: ['CONFIRMED', 'CANCELLED'],
  CONFIRMED: ['COMPLETED', 'CANCELLED', 'NO_SHOW'],
  CANCELLED: [],
  COMPLETED: [],
  NO_SHOW: [],
};

/** Throws `invalid_transition` unless Update Booking may move a booking from `from` to `to`. */
export function assertStatusChange(from: BookingStatus, to: BookingStatus): void {
  if (!canTransition(BOOKING_TRANSITIONS, from, to)) throw new InvalidTransitionError('booking', from, to);
}

/**
 * What Cancel Booking (DELETE) does from a status: PENDING and CONFIRMED are cancelled; an already
 * cancelled booking is left as it is (DELETE is idempotent); a booking that took place (COMPLETED) or
 * was missed (NO_SHOW) is history and cannot be cancelled.
 */
export function planCancellation(status: BookingStatus): 'cancel' | 'already_cancelled' {
  if (status === 'CANCELLED') return 'already_cancelled';
  if (isActiveBookingStatus(status)) return 'cancel';
  throw new InvalidTransitionError('booking', status, 'CANCELLED');
}

/** Only bookings that still hold their time may move to another time. */
export function assertReschedulable(status: BookingStatus): void {
  if (!isActiveBookingStatus(status)) {
    throw new DomainError(
      'invalid_transition',
      `A ${status} booking cannot be rescheduled; only PENDING or CONFIRMED bookings can.`,
    );
  }
}
