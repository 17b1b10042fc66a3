import { isSupportedInstant } from '@almanac/shared/domain';
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
  /** Minutes kept free around it: its event type's buffers when it was made (0 without one). */
  readonly bufferBefore: number;
  readonly bufferAfter: number;
  readonly createdAt: Date;
  readonly updatedAt: Date;
  readonly cancelledAt: Date | null;
}

/** Title of a booking created without one: its event type's title, else this. */
export const DEFAULT_BOOKING_TITLE = 'Booking';

export function defaultBookingTitle(eventTypeTitle: string | null | undefined): string {
  return eventTypeTitle ?? DEFAULT_BOOKING_TITLE;
}

/** Start and end a booking can have: supported instants, the end strictly after the start. */
export function isBookableSpan(start: Date, end: Date): boolean {
  return isSupportedInstant(start) && isSupportedInstant(end) && end.getTime() > start.getTime();
}
