import type { LocationType } from './location-type';

export interface EventType {
  readonly id: string;
  readonly organizationId: string;
  readonly title: string;
  readonly slug: string;
  readonly description: string | null;
  readonly duration: number;
  readonly locationType: LocationType;
  readonly locationDetails: string | null;
  readonly color: string | null;
  readonly requiresApproval: boolean;
  readonly isActive: boolean;
  /** Booking rules (minutes unless said otherwise), api-decisions §12. */
  readonly bufferBefore: number;
  readonly bufferAfter: number;
  readonly minimumNotice: number;
  /** null: the duration. */
  readonly slotInterval: number | null;
  /** null: unlimited. */
  readonly bookingWindowDays: number | null;
  /** null: no limit. */
  readonly maxBookingsPerDay: number | null;
  readonly createdAt: Date;
  readonly updatedAt: Date;
}

export const EVENT_TYPE_MIN_DURATION = 1;
export const EVENT_TYPE_MAX_DURATION = 1440;
/** `#RGB` or `#RRGGBB`. */
export const HEX_COLOR_PATTERN = /^#(?:[0-9a-fA-F]{3}|[0-9a-fA-F]{6})$/;

export const MAX_BUFFER = 720;
export const MAX_MINIMUM_NOTICE = 525_600;
export const MIN_SLOT_INTERVAL = 5;
export const MAX_SLOT_INTERVAL = 1440;
export const MAX_BOOKING_WINDOW_DAYS = 3650;
export const MAX_BOOKINGS_PER_DAY = 1000;
