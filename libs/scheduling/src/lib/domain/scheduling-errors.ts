import { DomainError } from '@almanac/shared/domain';
import { CandidateConflict, conflictMember } from './booking-candidates';
import type { SlotUnavailableReason } from './slots';

export class BookingOverlapError extends DomainError {
  constructor() {
    super('booking_overlap', 'The time overlaps a PENDING or CONFIRMED booking on the same schedule.', [
      { field: 'start_time', message: 'overlaps another PENDING or CONFIRMED booking of this schedule' },
    ]);
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
  daily_limit: 'The event type has reached its daily limit of bookings on this schedule that day.',
  weekly_limit: 'The event type has reached its weekly limit of bookings on this schedule that week.',
  monthly_limit: 'The event type has reached its monthly limit of bookings on this schedule that month.',
  duration_limit: "The booking would take the event type past its limit of booked minutes on this schedule that day or week.",
  schedule_limit: 'The schedule has reached one of its limits of bookings or booked minutes that day or week.',
};

/** 409 `slot_unavailable` with a `reason` member saying which rule the time breaks. */
export class SlotUnavailableError extends DomainError {
  constructor(readonly reason: SlotUnavailableReason) {
    super('slot_unavailable', SLOT_UNAVAILABLE_DETAIL[reason], undefined, { reason });
  }
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
  recurrence_conflict: 409,
} as const;
