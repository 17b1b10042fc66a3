import { applyDecorators } from '@nestjs/common';
import { ApiExtraModels, ApiPropertyOptional, ApiResponse, getSchemaPath } from '@nestjs/swagger';
import { Problem } from '@almanac/shared';
import { SLOT_UNAVAILABLE_REASONS, SlotUnavailableReason } from '../domain/slots';
import { OccurrenceConflict } from './dto/booking.dto';

const REASONS_DOC =
  "minimum_notice, booking_window (too far ahead), outside_availability (not inside one window of the schedule), not_a_slot (a reservation only: inside a window but off its slot grid, or crossing the window's end), booked (a PENDING or CONFIRMED booking holds the time, buffers on both sides counted: booking_id), reserved (an unexpired reservation holds it: reservation_id), event (a published event on the schedule holds it: event_id), daily_limit (the event type's max_bookings_per_day reached that local date), weekly_limit (its max_bookings_per_week that week, from Monday), monthly_limit (its max_bookings_per_month that calendar month), duration_limit (its max_booked_minutes_per_day or _per_week would be passed) or schedule_limit (one of the schedule's own limits, over all its bookings); unexpired reservations count toward every limit like bookings; periods are local to the schedule time zone. When several apply, the first in this order";

/** The problem of a 409 on a slot: `reason` for `slot_unavailable`, and the record holding the time when one does. */
export class SlotConflictProblem extends Problem {
  @ApiPropertyOptional({ enum: SLOT_UNAVAILABLE_REASONS, description: `slot_unavailable only: ${REASONS_DOC}` })
  readonly reason?: SlotUnavailableReason;

  @ApiPropertyOptional({ format: 'uuid', description: 'The PENDING or CONFIRMED booking holding the time (booking_overlap, or reason booked)' })
  readonly booking_id?: string;

  @ApiPropertyOptional({ format: 'uuid', description: 'The unexpired reservation holding the time (reason reserved)' })
  readonly reservation_id?: string;

  @ApiPropertyOptional({ format: 'uuid', description: 'The published event holding the time (booking_overlap, or reason event)' })
  readonly event_id?: string;

  @ApiPropertyOptional({
    type: [OccurrenceConflict],
    description:
      'recurrence_conflict only: every occurrence of the series that cannot be booked (not only the first), by index; nothing was created',
  })
  readonly conflicts?: OccurrenceConflict[];
}

function conflict(description: string): MethodDecorator {
  return applyDecorators(
    ApiExtraModels(SlotConflictProblem),
    ApiResponse({
      status: 409,
      description,
      content: { 'application/problem+json': { schema: { $ref: getSchemaPath(SlotConflictProblem) } } },
    }),
  );
}

/**
 * 409 of a booking write: `booking_overlap` (naming the booking or event holding the time),
 * `invalid_transition`, `notice_period_passed`, `slot_unavailable` with a `reason` member (the reasons:
 * docs/contract/scheduling.md), and for a create naming a reservation `reservation_mismatch` or
 * `reservation_expired`.
 */
export function ApiBookingConflict(): MethodDecorator {
  return conflict(
    'Conflict: booking_overlap (the blocked time, buffers included, overlaps another PENDING or CONFIRMED booking, booking_id, or a published event of the schedule, event_id), invalid_transition, notice_period_passed (an attendee past the event type\'s notice), slot_unavailable with a reason (reserved with reservation_id when an unexpired reservation holds the time), for a create that names a reservation: reservation_mismatch (its schedule, event type, start or end differ from the booking\'s; errors[] names them) or reservation_expired (unknown, expired, released or already consumed), or (a create with recurrence) recurrence_conflict with conflicts',
  );
}

/** 409 of a reservation: `slot_unavailable` with the reason the start is not a slot offered now. */
export function ApiReservationConflict(): MethodDecorator {
  return conflict('Conflict: slot_unavailable with the reason the start is not a slot GET /api/v1/slots offers now, and the record holding the time for booked, reserved and event');
}
