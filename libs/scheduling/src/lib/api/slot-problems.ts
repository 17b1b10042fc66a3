import { applyDecorators } from '@nestjs/common';
import { ApiExtraModels, ApiPropertyOptional, ApiResponse, getSchemaPath } from '@nestjs/swagger';
import { Problem } from '@almanac/shared';
import { SLOT_UNAVAILABLE_REASONS, SlotUnavailableReason } from '../domain/slots';
import { OccurrenceConflict } from './dto/booking.dto';

/** The problem of a booking write's 409: `reason` is there for `slot_unavailable` alone. */
export class BookingConflictProblem extends Problem {
  @ApiPropertyOptional({
    enum: SLOT_UNAVAILABLE_REASONS,
    description:
      "slot_unavailable only, the first that applies of: minimum_notice, booking_window (too far ahead), outside_availability (not inside one window of the schedule), daily_limit (the event type's max_bookings_per_day reached that local date), weekly_limit (its max_bookings_per_week that week, from Monday), monthly_limit (its max_bookings_per_month that calendar month), duration_limit (its max_booked_minutes_per_day or _per_week would be passed), schedule_limit (one of the schedule's own limits, over all its bookings); periods are local to the schedule time zone",
  })
  readonly reason?: SlotUnavailableReason;

  @ApiPropertyOptional({
    type: [OccurrenceConflict],
    description:
      'recurrence_conflict only: every occurrence of the series that cannot be booked (not only the first), by index; nothing was created',
  })
  readonly conflicts?: OccurrenceConflict[];
}

/**
 * 409 of a booking write: `booking_overlap`, `invalid_transition`, `notice_period_passed`, or `slot_unavailable` whose
 * problem carries a `reason` member (the reasons: docs/contract/scheduling.md).
 */
export function ApiBookingConflict(): MethodDecorator {
  return applyDecorators(
    ApiExtraModels(BookingConflictProblem),
    ApiResponse({
      status: 409,
      description:
        'Conflict: booking_overlap (the blocked time, buffers included, overlaps another booking), invalid_transition, notice_period_passed (an attendee past the event type\'s notice), slot_unavailable with a reason, or (a create with recurrence) recurrence_conflict with conflicts',
      content: { 'application/problem+json': { schema: { $ref: getSchemaPath(BookingConflictProblem) } } },
    }),
  );
}
