import { BOOKING_FIELDS, type Booking } from '../domain/booking';
import { CandidateConflict, conflictMember } from '../domain/booking-candidates';
import type { BookingSeries, Recurrence } from '../domain/recurrence';
import { EVENT_TYPE_FIELDS, type EventType } from '../domain/event-type';
import { SCHEDULE_FIELDS, type Schedule } from '../domain/schedule';
import type {
  BookingResponse,
  BookingSeriesResponse,
  CancelledBookingResponse,
  CreatedBookingSeriesResponse,
  RecurrenceResponse,
} from './dto/booking.dto';
import type { EventTypeResponse } from './dto/event-type.dto';
import type { ScheduleResponse } from './dto/schedule.dto';

export function toScheduleResponse(s: Schedule): ScheduleResponse {
  return SCHEDULE_FIELDS.represent(s);
}

export function toEventTypeResponse(e: EventType): EventTypeResponse {
  return EVENT_TYPE_FIELDS.represent(e);
}

export function toBookingResponse(b: Booking): BookingResponse {
  return BOOKING_FIELDS.represent(b);
}

export function toCancelledBookingResponse(b: Booking): CancelledBookingResponse {
  return { ...toBookingResponse(b), cancelled: true };
}

export function toRecurrenceResponse(r: Recurrence): RecurrenceResponse {
  return { frequency: r.frequency, interval: r.interval, count: r.count };
}

export function toCreatedSeriesResponse(
  series: BookingSeries,
  bookings: readonly { booking: Booking; manageToken: string }[],
  skipped: readonly CandidateConflict[],
): CreatedBookingSeriesResponse {
  return {
    series_id: series.id,
    recurrence: toRecurrenceResponse(series.recurrence),
    bookings: bookings.map((b) => ({ ...toBookingResponse(b.booking), manage_token: b.manageToken })),
    skipped: skipped.map(conflictMember),
  };
}

export function toSeriesResponse(series: BookingSeries, bookings: readonly Booking[]): BookingSeriesResponse {
  return { id: series.id, recurrence: toRecurrenceResponse(series.recurrence), bookings: bookings.map(toBookingResponse) };
}

/** The bodies of the single-record GETs (and PATCH answers): what their ETags are taken of. */
export const scheduleBody = (s: Schedule): { data: ScheduleResponse } => ({ data: toScheduleResponse(s) });
export const eventTypeBody = (e: EventType): { data: EventTypeResponse } => ({ data: toEventTypeResponse(e) });
export const bookingBody = (b: Booking): { data: BookingResponse } => ({ data: toBookingResponse(b) });
