import type { DomainEvent } from '@almanac/shared/domain';
import { BOOKING_FIELDS, type Booking, type BookingEventType } from './booking';
import type { BookingStatus } from './booking-status';

/*
 * What scheduling announces through the outbox, built in this one place: each event's `data` is the
 * record as its single GET shows it (the same representation as the API's answers).
 */

/** A booking event; a status move carries the status before it. */
export function bookingChanged(type: BookingEventType, booking: Booking, occurredAt: Date, previousStatus?: BookingStatus): DomainEvent {
  const event: DomainEvent = { type, organizationId: booking.organizationId, data: BOOKING_FIELDS.represent(booking), occurredAt };
  if (previousStatus !== undefined) event.previousStatus = previousStatus;
  return event;
}
