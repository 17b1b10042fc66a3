import type { AttendeeView } from '../application/booking-self-service.service';
import type { AttendeeBookingResponse } from './dto/public-booking.dto';

/** The attendee's view of their booking: a whitelist without e-mail, phone, notes or metadata. */
export function toAttendeeBookingResponse({ booking: b, eventType, rights }: AttendeeView): AttendeeBookingResponse {
  return {
    id: b.id,
    status: b.status,
    start_time: b.startTime.toISOString(),
    end_time: b.endTime.toISOString(),
    timezone: b.timezone,
    title: b.title,
    location: b.location,
    location_type: b.locationType,
    attendee_name: b.attendeeName,
    event_type: eventType && { id: eventType.id, title: eventType.title, duration: eventType.duration },
    can_cancel: rights.canCancel,
    can_reschedule: rights.canReschedule,
    cancellable_until: rights.cancellableUntil?.toISOString() ?? null,
    reschedulable_until: rights.reschedulableUntil?.toISOString() ?? null,
  };
}
