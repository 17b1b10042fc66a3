import { field, recordFields } from '@almanac/shared/domain';
import { DEFAULT_EVENT_TYPE_LOCATION, LocationType } from './location-type';
import type { BookingRules } from './booking-rules';
import { AttendeePolicy, OPEN_ATTENDEE_POLICY } from './booking-self-service';

/**
 * An event type: what it is, the booking rules it gives its bookings (`BookingRules`), and what it
 * lets their attendees do themselves (`AttendeePolicy`).
 */
export interface EventType extends BookingRules, AttendeePolicy {
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

/** Every field of an event type, in the order its representation lists them. */
export const EVENT_TYPE_FIELDS = recordFields<EventType>()({
  id: field.value,
  organizationId: field.hidden(field.value),
  title: field.value,
  slug: field.value,
  description: field.value,
  duration: field.value,
  locationType: field.value,
  locationDetails: field.value,
  color: field.value,
  requiresApproval: field.value,
  isActive: field.value,
  bufferBefore: field.value,
  bufferAfter: field.value,
  minimumNotice: field.value,
  slotInterval: field.value,
  bookingWindowDays: field.value,
  maxBookingsPerDay: field.value,
  maxBookingsPerWeek: field.value,
  maxBookingsPerMonth: field.value,
  maxBookedMinutesPerDay: field.value,
  maxBookedMinutesPerWeek: field.value,
  attendeeCanCancel: field.value,
  attendeeCanReschedule: field.value,
  cancelNoticeMinutes: field.value,
  rescheduleNoticeMinutes: field.value,
  createdAt: field.instant,
  updatedAt: field.instant,
});

/** Set by the server: the identity and the timestamps. */
type ServerSetEventTypeField = 'id' | 'organizationId' | 'createdAt' | 'updatedAt';

export const EVENT_TYPE_MIN_DURATION = 1;
export const EVENT_TYPE_MAX_DURATION = 1440;
/** `#RGB` or `#RRGGBB`. */
export const HEX_COLOR_PATTERN = /^#(?:[0-9a-fA-F]{3}|[0-9a-fA-F]{6})$/;


/** What a client may set on an event type (create: title and duration required; PATCH: any of them). */
export type EventTypeInput = Pick<EventType, 'title' | 'duration'> &
  Partial<Omit<EventType, ServerSetEventTypeField | 'title' | 'duration'>>;

/** What a PATCH writes. */
export type EventTypeChanges = Partial<Omit<EventType, ServerSetEventTypeField>> & { updatedAt: Date };

/**
 * A new event type with its defaults: location video, no approval, active;
 * description, location details and colour null; buffers and notice 0; interval, window of days and
 * every limit null; attendees may cancel and reschedule up to the start.
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
    maxBookingsPerWeek: input.maxBookingsPerWeek ?? null,
    maxBookingsPerMonth: input.maxBookingsPerMonth ?? null,
    maxBookedMinutesPerDay: input.maxBookedMinutesPerDay ?? null,
    maxBookedMinutesPerWeek: input.maxBookedMinutesPerWeek ?? null,
    attendeeCanCancel: input.attendeeCanCancel ?? OPEN_ATTENDEE_POLICY.attendeeCanCancel,
    attendeeCanReschedule: input.attendeeCanReschedule ?? OPEN_ATTENDEE_POLICY.attendeeCanReschedule,
    cancelNoticeMinutes: input.cancelNoticeMinutes ?? OPEN_ATTENDEE_POLICY.cancelNoticeMinutes,
    rescheduleNoticeMinutes: input.rescheduleNoticeMinutes ?? OPEN_ATTENDEE_POLICY.rescheduleNoticeMinutes,
    createdAt: now,
    updatedAt: now,
  };
}
