import { assertChanges, field, isSupportedInstant, recordFields, ValidationFailedError } from '@almanac/shared/domain';
import type { Availability } from './availability';
import type { ScheduleLimits } from './booking-limits';
import type { BookingMetadata } from './booking-metadata';
import type { BookingRules } from './booking-rules';
import { assertReschedulable, assertStatusChange, BookingStatus, planCancellation } from './booking-status';
import type { LocationType } from './location-type';

/** Who cancelled a booking: its attendee (through the manage token), a key of the API, or an import. */
export const CANCELLED_BY = ['attendee', 'api', 'import'] as const;
export type CancelledBy = (typeof CANCELLED_BY)[number];

export interface Booking {
  readonly id: string;
  readonly organizationId: string;
  readonly scheduleId: string;
  readonly eventTypeId: string | null;
  /** The recurring series it is an occurrence of; null for a single booking. */
  readonly seriesId: string | null;
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
  /** Why the attendee cancelled (given with their cancellation); null otherwise. */
  readonly cancellationReason: string | null;
  /** Who cancelled it; null while it is not cancelled. */
  readonly cancelledBy: CancelledBy | null;
  /** SHA-256 of its manage token (never shown); null for bookings that have none (imported ones). */
  readonly manageTokenHash: string | null;
}

/** Every field of a booking, in the order its representation (GET, events) lists them. */
export const BOOKING_FIELDS = recordFields<Booking>()({
  id: field.value,
  organizationId: field.hidden(field.value),
  scheduleId: field.value,
  eventTypeId: field.value,
  seriesId: field.value,
  startTime: field.instant,
  endTime: field.instant,
  timezone: field.value,
  status: field.value,
  title: field.value,
  location: field.value,
  locationType: field.value,
  attendeeName: field.value,
  attendeeEmail: field.value,
  attendeePhone: field.value,
  attendeeTimezone: field.value,
  attendeeNotes: field.value,
  metadata: field.json,
  bufferBefore: field.value,
  bufferAfter: field.value,
  createdAt: field.instant,
  updatedAt: field.instant,
  cancelledAt: field.instant,
  cancellationReason: field.value,
  cancelledBy: field.value,
  manageTokenHash: field.hidden(field.value),
});

/** Title of a booking created without one: its event type's title, else this. */
export const DEFAULT_BOOKING_TITLE = 'Booking';

export function defaultBookingTitle(eventTypeTitle: string | null | undefined): string {
  return eventTypeTitle ?? DEFAULT_BOOKING_TITLE;
}

/** Start and end a booking can have: supported instants, the end strictly after the start. */
export function isBookableSpan(start: Date, end: Date): boolean {
  return isSupportedInstant(start) && isSupportedInstant(end) && end.getTime() > start.getTime();
}

/** The attendee's fields: a request carries them as one `attendee` object. */
type AttendeeField = 'attendeeName' | 'attendeeEmail' | 'attendeePhone' | 'attendeeTimezone' | 'attendeeNotes';

/** Fields set by the server, or that change only by their own rules (a status move, a reschedule, the attendee). */
type GovernedBookingField =
  | 'id'
  | 'organizationId'
  | 'scheduleId'
  | 'eventTypeId'
  | 'seriesId'
  | 'status'
  | 'startTime'
  | 'endTime'
  | 'bufferBefore'
  | 'bufferAfter'
  | 'createdAt'
  | 'updatedAt'
  | 'cancelledAt'
  | 'cancellationReason'
  | 'cancelledBy'
  | 'manageTokenHash'
  | AttendeeField;

/** A booking's details: what a client sets as it is, on create and PATCH (title, location, time zone, metadata, …). */
export type BookingDetails = { -readonly [K in Exclude<keyof Booking, GovernedBookingField>]?: Booking[K] };

/** The fields a change may set (a PATCH, a cancellation, an import), besides `updatedAt`. */
export type ChangeableBookingField =
  | keyof BookingDetails
  | 'status'
  | 'startTime'
  | 'endTime'
  | 'cancelledAt'
  | 'cancellationReason'
  | 'cancelledBy'
  | 'manageTokenHash'
  | AttendeeField;

export type BookingChanges = { -readonly [K in ChangeableBookingField]?: Booking[K] } & { updatedAt: Date };

export interface AttendeeInput {
  name: string;
  email: string;
  phone?: string | null;
  timezone?: string | null;
  notes?: string | null;
}

/**
 * What a new booking is made of: the request (its details absent or null take their defaults), and
 * what its schedule and event type lend it.
 */
export type NewBookingInput = { [K in keyof BookingDetails]?: BookingDetails[K] | null } & {
  id: string;
  organizationId: string;
  scheduleId: string;
  /** The series it belongs to, when it is an occurrence of one. */
  seriesId?: string | null;
  startTime: Date;
  endTime: Date;
  attendee: AttendeeInput;
  schedule: { timezone: string };
  eventType: { id: string; title: string; locationType: LocationType | null; bufferBefore: number; bufferAfter: number } | null;
  /** What is stored of its manage token (`issueManageToken`). */
  manageTokenHash: string | null;
};

/**
 * A new booking: PENDING whatever the event type's `requires_approval`; title from
 * the event type, else "Booking"; timezone from the schedule; location type from the event type;
 * the event type's buffers as they are now.
 */
export function newBooking(input: NewBookingInput, now: Date): Booking {
  const eventType = input.eventType;
  return {
    id: input.id,
    organizationId: input.organizationId,
    scheduleId: input.scheduleId,
    eventTypeId: eventType?.id ?? null,
    seriesId: input.seriesId ?? null,
    startTime: input.startTime,
    endTime: input.endTime,
    timezone: input.timezone ?? input.schedule.timezone,
    status: 'PENDING',
    title: input.title ?? defaultBookingTitle(eventType?.title),
    location: input.location ?? null,
    locationType: input.locationType ?? eventType?.locationType ?? null,
    attendeeName: input.attendee.name,
    attendeeEmail: input.attendee.email,
    attendeePhone: input.attendee.phone ?? null,
    attendeeTimezone: input.attendee.timezone ?? null,
    attendeeNotes: input.attendee.notes ?? null,
    metadata: input.metadata ?? {},
    bufferBefore: eventType?.bufferBefore ?? 0,
    bufferAfter: eventType?.bufferAfter ?? 0,
    createdAt: now,
    updatedAt: now,
    cancelledAt: null,
    cancellationReason: null,
    cancelledBy: null,
    manageTokenHash: input.manageTokenHash,
  };
}

/** Filters of the booking list, all on the booking's start time or exact columns. */
export interface BookingListFilter {
  scheduleId?: string;
  eventTypeId?: string;
  seriesId?: string;
  status?: BookingStatus;
  /** start_time >= each of these (start_date, upcoming). */
  startsAtOrAfter?: Date[];
  /** start_time < this (end_date given as a date: the end of that UTC day). */
  startsBefore?: Date;
  /** start_time <= this (end_date given as a date-time). */
  startsAtOrBefore?: Date;
  /** Case-insensitive substring of the attendee's e-mail. */
  attendeeEmailContains?: string;
}

/** What a booking takes from its schedule: the time zone and the availability it must fit. */
export interface ScheduleRef {
  readonly timezone: string;
  readonly availability: Availability;
  /** Its limits over every booking it holds. */
  readonly limits: ScheduleLimits;
}

/** What a booking takes from its event type: the title, the location type and the booking rules. */
export interface EventTypeRef {
  readonly title: string;
  readonly locationType: LocationType;
  readonly rules: BookingRules;
}

/** How a booking's changes are announced (see scheduling-announcements.ts). */
export type BookingEventType =
  | 'booking.created'
  | 'booking.updated'
  | 'booking.confirmed'
  | 'booking.cancelled'
  | 'booking.completed'
  | 'booking.no_show';

/** A PATCH of a booking, as the domain reads it: absent fields stay as they are. */
export type BookingUpdate = BookingDetails & {
  status?: BookingStatus;
  attendee?: Partial<AttendeeInput>;
  startTime?: Date;
  endTime?: Date;
};

/** What a PATCH does to a booking, decided from the booking as it was read. */
export interface PlannedBookingUpdate {
  readonly changes: BookingChanges;
  /**
   * The status the write must still find (compare-and-swap) when the change depends on it: a status
   * move, or a reschedule (only PENDING or CONFIRMED bookings move). Undefined: any status will do.
   */
  readonly expectedStatus?: BookingStatus;
  /** The new time, when the PATCH reschedules (it must then fit the availability). */
  readonly reschedule?: { readonly startTime: Date; readonly endTime: Date };
  /** The event that announces the change, and the status before it for a status move. */
  readonly event: BookingEventType;
  readonly previousStatus?: BookingStatus;
}

const STATUS_EVENTS: Partial<Record<BookingStatus, BookingEventType>> = {
  CONFIRMED: 'booking.confirmed',
  CANCELLED: 'booking.cancelled',
  COMPLETED: 'booking.completed',
  NO_SHOW: 'booking.no_show',
};

/**
 * The rules of Update Booking: status moves follow BOOKING_TRANSITIONS (a cancellation sets
 * cancelled_at); start_time and end_time move together and only on a PENDING or CONFIRMED booking;
 * any other field may change in any status; a PATCH that changes nothing is 400.
 */
export function planBookingUpdate(current: Booking, update: BookingUpdate, now: Date): PlannedBookingUpdate {
  const { status: _status, attendee = {}, startTime: _start, endTime: _end, ...details } = update;
  const fields = {
    ...details,
    attendeeName: attendee.name,
    attendeeEmail: attendee.email,
    attendeePhone: attendee.phone,
    attendeeTimezone: attendee.timezone,
    attendeeNotes: attendee.notes,
  };
  assertChanges({ ...fields, status: update.status, startTime: update.startTime, endTime: update.endTime });
  const changes: BookingChanges = { updatedAt: now };
  for (const [key, value] of Object.entries(fields)) {
    if (value !== undefined) (changes as Record<string, unknown>)[key] = value;
  }
  let expectedStatus: BookingStatus | undefined;
  if (update.status !== undefined) {
    assertStatusChange(current.status, update.status);
    changes.status = update.status;
    if (update.status === 'CANCELLED') {
      changes.cancelledAt = now;
      changes.cancelledBy = 'api';
    }
    expectedStatus = current.status;
  }
  let reschedule: PlannedBookingUpdate['reschedule'];
  if (update.startTime !== undefined || update.endTime !== undefined) {
    if (update.startTime === undefined || update.endTime === undefined) {
      const field = update.startTime === undefined ? 'start_time' : 'end_time';
      throw new ValidationFailedError([{ field, message: 'start_time and end_time must be given together' }]);
    }
    assertReschedulable(current.status);
    changes.startTime = update.startTime;
    changes.endTime = update.endTime;
    reschedule = { startTime: update.startTime, endTime: update.endTime };
    expectedStatus = current.status;
  }
  const statusEvent = update.status === undefined ? undefined : STATUS_EVENTS[update.status];
  return {
    changes,
    expectedStatus,
    reschedule,
    // One event per change: a status move announces the move, anything else booking.updated.
    event: statusEvent ?? 'booking.updated',
    previousStatus: update.status === undefined ? undefined : current.status,
  };
}

/**
 * Cancel Booking (DELETE): PENDING or CONFIRMED become CANCELLED with cancelled_at (a
 * compare-and-swap on the status read); a CANCELLED booking is left as it is (null); COMPLETED and
 * NO_SHOW are history: 409.
 */
export function planBookingCancellation(
  current: Booking,
  now: Date,
  by: { cancelledBy: CancelledBy; reason?: string | null } = { cancelledBy: 'api' },
): { changes: BookingChanges; expectedStatus: BookingStatus } | null {
  if (planCancellation(current.status) === 'already_cancelled') return null;
  return {
    changes: { status: 'CANCELLED', cancelledAt: now, cancelledBy: by.cancelledBy, cancellationReason: by.reason ?? null, updatedAt: now },
    expectedStatus: current.status,
  };
}
