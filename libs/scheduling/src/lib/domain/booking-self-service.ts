import { DomainError, ForbiddenError, secretHash, secretToken, secretTokenPattern } from '@almanac/shared/domain';
import type { Booking } from './booking';
import { assertReschedulable, isActiveBookingStatus, planCancellation } from './booking-status';

export const MAX_CANCELLATION_REASON = 500;
export const MAX_NOTICE_MINUTES = 525_600;

/**
 * What an event type lets the attendees of its bookings do themselves, read from the type when they
 * ask (a change of the type applies to bookings already made).
 */
export interface AttendeePolicy {
  readonly attendeeCanCancel: boolean;
  readonly attendeeCanReschedule: boolean;
  /** Minutes before the start after which the attendee may no longer cancel. */
  readonly cancelNoticeMinutes: number;
  /** Minutes before the (current) start after which the attendee may no longer move the booking. */
  readonly rescheduleNoticeMinutes: number;
}

/** A new event type's policy, and that of a booking without one (no type forbids anything). */
export const OPEN_ATTENDEE_POLICY: AttendeePolicy = {
  attendeeCanCancel: true,
  attendeeCanReschedule: true,
  cancelNoticeMinutes: 0,
  rescheduleNoticeMinutes: 0,
};

/**
 * The secret that lets a booking's attendee see, cancel and reschedule it without a key: `bkt_` and
 * 32 base62 characters. Only its SHA-256 is stored; the token is shown once, in the answer that made it.
 */
export const MANAGE_TOKEN_PATTERN = secretTokenPattern('bkt_', 32);

/** A new manage token and what is stored of it. Every booking a client creates gets one from here. */
export function issueManageToken(): { token: string; hash: string } {
  const token = `bkt_${secretToken(32)}`;
  return { token, hash: secretHash(token) };
}

/** A booking as its manage token opens it, with its event type (if it still has one) as it is now. */
export interface ManagedBooking {
  readonly booking: Booking;
  readonly eventType: ({ id: string; title: string; duration: number } & AttendeePolicy) | null;
}

/** What the attendee may do now, as the public view tells it. */
export interface AttendeeRights {
  readonly canCancel: boolean;
  readonly canReschedule: boolean;
  /** The start minus the cancel notice; null when the status or the type forbids cancelling. */
  readonly cancellableUntil: Date | null;
  /** The start minus the reschedule notice; null when the status or the type forbids moving. */
  readonly reschedulableUntil: Date | null;
}

const MINUTE = 60_000;

function deadline(start: Date, noticeMinutes: number): Date {
  return new Date(start.getTime() - noticeMinutes * MINUTE);
}

/**
 * The rights of the attendee over a booking at `now`. A deadline is inclusive: at exactly the start
 * minus the notice the attendee still may, one millisecond later no longer.
 */
export function attendeeRights(booking: Pick<Booking, 'status' | 'startTime'>, policy: AttendeePolicy, now: Date): AttendeeRights {
  const active = isActiveBookingStatus(booking.status);
  const cancellableUntil = active && policy.attendeeCanCancel ? deadline(booking.startTime, policy.cancelNoticeMinutes) : null;
  const reschedulableUntil =
    active && policy.attendeeCanReschedule ? deadline(booking.startTime, policy.rescheduleNoticeMinutes) : null;
  return {
    canCancel: cancellableUntil !== null && now.getTime() <= cancellableUntil.getTime(),
    canReschedule: reschedulableUntil !== null && now.getTime() <= reschedulableUntil.getTime(),
    cancellableUntil,
    reschedulableUntil,
  };
}

/** 409 `notice_period_passed`: the attendee asks later than the event type's notice allows. */
export class NoticePeriodPassedError extends DomainError {
  constructor(action: 'cancel' | 'reschedule', until: Date) {
    super(
      'notice_period_passed',
      `This booking could be ${action === 'cancel' ? 'cancelled' : 'rescheduled'} by its attendee until ${until.toISOString()}; ask the organizer.`,
    );
  }
}

/**
 * Whether the attendee may cancel the booking now: 'already_cancelled' when there is nothing to do
 * (the answer is the booking as it is); otherwise throws 409 `invalid_transition` for a booking that
 * took place or was missed, 403 `forbidden` when the type does not let attendees cancel, 409
 * `notice_period_passed` after the deadline.
 */
export function assertAttendeeMayCancel(
  booking: Pick<Booking, 'status' | 'startTime'>,
  policy: AttendeePolicy,
  now: Date,
): 'cancel' | 'already_cancelled' {
  if (planCancellation(booking.status) === 'already_cancelled') return 'already_cancelled';
  if (!policy.attendeeCanCancel) throw new ForbiddenError('The event type of this booking does not let its attendee cancel it.');
  const until = deadline(booking.startTime, policy.cancelNoticeMinutes);
  if (now.getTime() > until.getTime()) throw new NoticePeriodPassedError('cancel', until);
  return 'cancel';
}

/**
 * Throws unless the attendee may move the booking now: 403 `forbidden` when the type does not let
 * attendees move it, 409 `invalid_transition` unless it is PENDING or CONFIRMED (a cancelled booking's
 * token never moves it), 409 `notice_period_passed` after its current start minus the notice.
 */
export function assertAttendeeMayReschedule(
  booking: Pick<Booking, 'status' | 'startTime'>,
  policy: AttendeePolicy,
  now: Date,
): void {
  if (!policy.attendeeCanReschedule) {
    throw new ForbiddenError('The event type of this booking does not let its attendee reschedule it.');
  }
  assertReschedulable(booking.status);
  const until = deadline(booking.startTime, policy.rescheduleNoticeMinutes);
  if (now.getTime() > until.getTime()) throw new NoticePeriodPassedError('reschedule', until);
}

/** The new time of an attendee's move: the same length as the booking has now. */
export function rescheduledSpan(booking: Pick<Booking, 'startTime' | 'endTime'>, startTime: Date): { startTime: Date; endTime: Date } {
  return { startTime, endTime: new Date(startTime.getTime() + booking.endTime.getTime() - booking.startTime.getTime()) };
}
