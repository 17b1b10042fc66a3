import { BOOKING_FIELDS, type Booking } from '../domain/booking';
import type { EventType } from '../domain/event-type';
import type { Schedule } from '../domain/schedule';
import type { BookingResponse, CancelledBookingResponse } from './dto/booking.dto';
import type { EventTypeResponse } from './dto/event-type.dto';
import type { ScheduleResponse } from './dto/schedule.dto';

export function toScheduleResponse(s: Schedule): ScheduleResponse {
  return {
    id: s.id,
    name: s.name,
    timezone: s.timezone,
    availability: s.availability === null ? null : s.availability.map((r) => ({ days: [...r.days], start: r.start, end: r.end })),
    date_overrides: s.dateOverrides.map((o) => ({
      date: o.date,
      intervals: o.intervals.map((i) => ({ start: i.start, end: i.end })),
    })),
    created_at: s.createdAt.toISOString(),
    updated_at: s.updatedAt.toISOString(),
  };
}

export function toEventTypeResponse(e: EventType): EventTypeResponse {
  return {
    id: e.id,
    title: e.title,
    slug: e.slug,
    description: e.description,
    duration: e.duration,
    location_type: e.locationType,
    location_details: e.locationDetails,
    color: e.color,
    requires_approval: e.requiresApproval,
    is_active: e.isActive,
    buffer_before: e.bufferBefore,
    buffer_after: e.bufferAfter,
    minimum_notice: e.minimumNotice,
    slot_interval: e.slotInterval,
    booking_window_days: e.bookingWindowDays,
    max_bookings_per_day: e.maxBookingsPerDay,
    created_at: e.createdAt.toISOString(),
    updated_at: e.updatedAt.toISOString(),
  };
}

export function toBookingResponse(b: Booking): BookingResponse {
  return BOOKING_FIELDS.represent(b);
}

export function toCancelledBookingResponse(b: Booking): CancelledBookingResponse {
  return { ...toBookingResponse(b), cancelled: true };
}

/** The bodies of the single-record GETs (and PATCH answers): what their ETags are taken of. */
export const scheduleBody = (s: Schedule): { data: ScheduleResponse } => ({ data: toScheduleResponse(s) });
export const eventTypeBody = (e: EventType): { data: EventTypeResponse } => ({ data: toEventTypeResponse(e) });
export const bookingBody = (b: Booking): { data: BookingResponse } => ({ data: toBookingResponse(b) });
