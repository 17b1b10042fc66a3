import { DEFAULT_EVENT_TYPE_LOCATION, LocationType } from './location-type';
import type { BookingRules } from './booking-rules';

/** An event type: what it is, and the booking rules it gives its bookings (`BookingRules`). */
export interface EventType extends BookingRules {
  readonly id: string;
  readonly organizationId: string;
  readonly title: string;
  readonly slug: string;
  readonly description: string | null;
  readonly locationType: LocationType;
  readonly locationDetails: string | null;
  readonly color: string | null;
  readonly requiresApproval: boolean;
  readonly isActive: boolean;
  readonly createdAt: Date;
  readonly updatedAt: Date;
}

export const EVENT_TYPE_MIN_DURATION = 1;
export const EVENT_TYPE_MAX_DURATION = 1440;
/** `#RGB` or `#RRGGBB`. */
export const HEX_COLOR_PATTERN = /^#(?:[0-9a-fA-F]{3}|[0-9a-fA-F]{6})$/;


/** What a client may set on an event type (create: title and duration required; PATCH: any of them). */
export interface EventTypeInput {
  title: string;
  duration: number;
  slug?: string;
  description?: string | null;
  locationType?: LocationType;
  locationDetails?: string | null;
  color?: string | null;
  requiresApproval?: boolean;
  isActive?: boolean;
  bufferBefore?: number;
  bufferAfter?: number;
  minimumNotice?: number;
  slotInterval?: number | null;
  bookingWindowDays?: number | null;
  maxBookingsPerDay?: number | null;
}

/**
 * A new event type with its defaults: location video, no approval, active;
 * description, location details and colour null; buffers and notice 0; interval, window of days and
 * daily limit null.
 */
export function newEventType(
  identity: { id: string; organizationId: string; slug: string },
  input: EventTypeInput,
  now: Date,
): EventType {
  return {
    ...identity,
    title: input.title,
    description: input.description ?? null,
    duration: input.duration,
    locationType: input.locationType ?? DEFAULT_EVENT_TYPE_LOCATION,
    locationDetails: input.locationDetails ?? null,
    color: input.color ?? null,
    requiresApproval: input.requiresApproval ?? false,
    isActive: input.isActive ?? true,
    bufferBefore: input.bufferBefore ?? 0,
    bufferAfter: input.bufferAfter ?? 0,
    minimumNotice: input.minimumNotice ?? 0,
    slotInterval: input.slotInterval ?? null,
    bookingWindowDays: input.bookingWindowDays ?? null,
    maxBookingsPerDay: input.maxBookingsPerDay ?? null,
    createdAt: now,
    updatedAt: now,
  };
}
