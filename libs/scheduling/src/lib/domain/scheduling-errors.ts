import { DomainError } from '@almanac/shared/domain';
import type { BlockingRecord } from './blocked-time';
import { CandidateConflict, conflictMember } from './booking-candidates';
import type { SlotUnavailableReason } from './slots';

/**
 * 409 `booking_overlap`: the blocked time overlaps a PENDING or CONFIRMED booking of the schedule
 * (`booking_id`) or a published event on it (`event_id`). Without a record the constraint fired
 * and the record that held the time was gone before it could be named.
 */
export class BookingOverlapError extends DomainError {
  constructor(readonly holder?: BlockingRecord) {
    super(
      'booking_overlap',
      holder?.kind === 'event'
        ? 'The time overlaps a published event on the same schedule.'
        : 'The time overlaps a PENDING or CONFIRMED booking on the same schedule.',
      [
        {
          field: 'start_time',
          message:
            holder?.kind === 'event'
              ? 'overlaps a published event of this schedule'
              : 'overlaps another PENDING or CONFIRMED booking of this schedule',
        },
      ],
      holder && { [`${holder.kind}_id`]: holder.id },
    );
  }
}

export class ScheduleInUseError extends DomainError {
  constructor() {
    super(
      'schedule_in_use',
      'The schedule has PENDING or CONFIRMED bookings; cancel or complete them first.',
    );
  }
}

const SLOT_UNAVAILABLE_DETAIL: Record<SlotUnavailableReason, string> = {
  outside_availability: 'The time is not inside one window of the schedule availability.',
  minimum_notice: "The start is sooner than the event type's minimum notice allows.",
  booking_window: "The start is further ahead than the event type's booking window allows.",
  not_a_slot: "The start is inside a window but not one of the event type's slots there (off its grid, or the slot would cross the window's end).",
  booked: 'A PENDING or CONFIRMED booking of the schedule holds the time.',
  reserved: 'An unexpired reservation holds the time.',
  event: 'A published event of the schedule holds the time.',
  daily_limit: 'The event type has reached its daily limit of bookings on this schedule that day.',
  weekly_limit: 'The event type has reached its weekly limit of bookings on this schedule that week.',
  monthly_limit: 'The event type has reached its monthly limit of bookings on this schedule that month.',
  duration_limit: "The booking would take the event type past its limit of booked minutes on this schedule that day or week.",
  schedule_limit: 'The schedule has reached one of its limits of bookings or booked minutes that day or week.',
};

/**
 * 409 `slot_unavailable` with a `reason` member saying which rule the time breaks, and for a time
 * something holds, the record (`booking_id`, `reservation_id` or `event_id`).
 */
export class SlotUnavailableError extends DomainError {
  constructor(
    readonly reason: SlotUnavailableReason,
    holder?: BlockingRecord,
  ) {
    super('slot_unavailable', SLOT_UNAVAILABLE_DETAIL[reason], undefined, {
      reason,
      ...(holder && { [`${holder.kind}_id`]: holder.id }),
    });
  }
}

/**
 * The answer to a booking (create or reschedule) whose time is held: a booking or an event is 409
 * `booking_overlap` (naming it), a reservation 409 `slot_unavailable` with reason `reserved`.
 */
export function bookingConflict(holder: BlockingRecord | null): Error {
  if (holder?.kind === 'reservation') return new SlotUnavailableError('reserved', holder);
  return new BookingOverlapError(holder ?? undefined);
}

const REASON_OF_KIND = { booking: 'booked', reservation: 'reserved', event: 'event' } as const;

/** The answer to a reservation whose time is held: 409 `slot_unavailable` naming the holder. */
export function reservationConflict(holder: BlockingRecord | null): SlotUnavailableError {
  return new SlotUnavailableError(REASON_OF_KIND[holder?.kind ?? 'booking'], holder ?? undefined);
}

/**
 * 409 `recurrence_conflict`: occurrences of a series break a rule, so nothing was created. `conflicts`
 * names every one of them (not only the first), each with its reason.
 */
export class RecurrenceConflictError extends DomainError {
  constructor(readonly conflicts: readonly CandidateConflict[]) {
    super(
      'recurrence_conflict',
      `${conflicts.length} occurrence(s) of the series cannot be booked; none was created.`,
      undefined,
      { conflicts: conflicts.map(conflictMember) },
    );
  }
}

/** Scheduling's own error codes and their HTTP statuses (registered by SchedulingModule). */
export const SCHEDULING_ERROR_CODES = {
  booking_overlap: 409,
  schedule_in_use: 409,
  slot_unavailable: 409,
  notice_period_passed: 409,
  reservation_expired: 409,
  reservation_mismatch: 409,
  recurrence_conflict: 409,
} as const;
