import type { EventTypeLimits } from './booking-limits';

/**
 * The booking rules an event type gives its bookings (minutes unless said otherwise): what slots
 * offer and what a booking must fit, its limits over periods included.
 */
export interface BookingRules extends EventTypeLimits {
  /** Minutes. */
  readonly duration: number;
  readonly bufferBefore: number;
  readonly bufferAfter: number;
  readonly minimumNotice: number;
  /** Minutes between candidate starts; null: the duration (slots step by at least MIN_SLOT_INTERVAL). */
  readonly slotInterval: number | null;
  /** null: unlimited. */
  readonly bookingWindowDays: number | null;
}

export const MAX_BUFFER = 720;
export const MAX_MINIMUM_NOTICE = 525_600;
export const MIN_SLOT_INTERVAL = 5;
export const MAX_SLOT_INTERVAL = 1440;
export const MAX_BOOKING_WINDOW_DAYS = 3650;
export const MAX_BOOKINGS_PER_DAY = 1000;
