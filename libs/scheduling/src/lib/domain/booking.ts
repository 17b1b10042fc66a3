import type { BookingMetadata } from './booking-metadata';
import type { BookingStatus } from './booking-status';
import type { LocationType } from './location-type';

export interface Booking {
  readonly id: string;
  readonly organizationId: string;
  readonly scheduleId: string;
  readonly eventTypeId: string | null;
  readonly startTime: Date;
  readonly endTime: Date;
  readonly timezone: string;
  readonly status: BookingStatus;
  readonly title: string;
  readonly location: string | null;
  readonly locationType: LocationType | null;
  readonly attendeeName: string;
  /** Null only for bookings imported from an external calendar whose event names no e-mail. */
  readonly attendeeEmail: string | null;
  readonly attendeePhone: string | null;
  readonly attendeeTimezone: string | null;
  readonly attendeeNotes: string | null;
  readonly metadata: BookingMetadata;
  readonly createdAt: Date;
  readonly updatedAt: Date;
  readonly cancelledAt: Date | null;
}

/** Title of a booking created without one: its event type's title, else this. */
export const DEFAULT_BOOKING_TITLE = 'Booking';

export function defaultBookingTitle(eventTypeTitle: string | null | undefined): string {
  return eventTypeTitle ?? DEFAULT_BOOKING_TITLE;
}

/** Instants a booking may start or end at: what ISO 8601 can write as YYYY (UTC). */
export const EARLIEST_INSTANT = new Date('0001-01-01T00:00:00.000Z');
export const LATEST_INSTANT = new Date('9999-12-31T23:59:59.999Z');

export function isSupportedInstant(instant: Date): boolean {
  const ms = instant.getTime();
  return Number.isFinite(ms) && ms >= EARLIEST_INSTANT.getTime() && ms <= LATEST_INSTANT.getTime();
}

/** Start and end a booking can have: supported instants, the end strictly after the start. */
export function isBookableSpan(start: Date, end: Date): boolean {
  return isSupportedInstant(start) && isSupportedInstant(end) && end.getTime() > start.getTime();
}
