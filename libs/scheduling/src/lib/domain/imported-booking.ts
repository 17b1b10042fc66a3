/** Limits of an imported booking's text; longer text from a feed is cut, never refused. */
export const IMPORTED_TITLE_MAX = 300;
export const IMPORTED_LOCATION_MAX = 300;
export const IMPORTED_ATTENDEE_NAME_MAX = 300;
/** An e-mail longer than this is dropped (null), not cut. */
export const IMPORTED_ATTENDEE_EMAIL_MAX = 320;
/** The limits above, for a feed's parser to cut text to before it hands the text on. */
export const IMPORTED_TEXT_LIMITS = {
  title: IMPORTED_TITLE_MAX,
  location: IMPORTED_LOCATION_MAX,
  attendeeName: IMPORTED_ATTENDEE_NAME_MAX,
  attendeeEmail: IMPORTED_ATTENDEE_EMAIL_MAX,
} as const;
/** The title of an occurrence without one. */
export const IMPORTED_DEFAULT_TITLE = '(no title)';
/** The attendee's name when neither the feed nor the integration gives one. */
export const IMPORTED_DEFAULT_ATTENDEE = 'External calendar';

import type { BookingStatus } from './booking-status';

/** What an external calendar says about one occurrence, before the booking rules apply. */
export interface ImportedOccurrence {
  /** iCalendar UID */
  readonly uid: string;
  /** The original start of a recurring event's occurrence (RECURRENCE-ID), null for one-off events. */
  readonly recurrenceId: Date | string | null;
  readonly title: string | null;
  readonly location: string | null;
  readonly start: Date;
  readonly end: Date;
  /** The person the booking is for (the feed decides who: organizer, first attendee…), if any. */
  readonly contact: { readonly name: string | null; readonly email: string | null } | null;
}

const NUL = String.fromCharCode(0);

function withoutNul(text: string): string {
  return text.split(NUL).join('');
}

/** Text from a feed: NUL dropped (PostgreSQL refuses it), trimmed, cut to `max`; empty → null. */
function clean(text: string | null | undefined, max: number): string | null {
  if (text === null || text === undefined) return null;
  const value = withoutNul(text).trim();
  return value.length === 0 ? null : value.slice(0, max);
}

/** Recurrence ids compare as instants when they are instants, else verbatim. */
function normalizeRecurrenceId(value: Date | string | null | undefined): string | null {
  if (value === null || value === undefined || value === '') return null;
  if (value instanceof Date) return Number.isFinite(value.getTime()) ? value.toISOString() : null;
  const ms = Date.parse(value);
  return Number.isFinite(ms) ? new Date(ms).toISOString() : value;
}

/**
 * One occurrence of an external calendar as scheduling will book it: the only shape
 * `ExternalBookingsService.reconcileImported` accepts, so every rule on an imported booking's text
 * (limits, defaults, the attendee's fallback) is applied here and nowhere else.
 */
export class ImportedBooking {
  private constructor(
    readonly externalUid: string,
    readonly recurrenceId: string | null,
    readonly title: string,
    readonly location: string | null,
    readonly start: Date,
    readonly end: Date,
    readonly attendeeName: string,
    readonly attendeeEmail: string | null,
  ) {}

  /**
   * The booking for an occurrence. The attendee is the contact; without a name, their e-mail;
   * without a contact, `fallbackAttendee` (the integration's name).
   */
  static from(occurrence: ImportedOccurrence, fallbackAttendee: string): ImportedBooking {
    const email = clean(occurrence.contact?.email, Number.MAX_SAFE_INTEGER);
    const name =
      clean(occurrence.contact?.name, IMPORTED_ATTENDEE_NAME_MAX) ??
      clean(occurrence.contact?.email, IMPORTED_ATTENDEE_NAME_MAX) ??
      clean(fallbackAttendee, IMPORTED_ATTENDEE_NAME_MAX) ??
      IMPORTED_DEFAULT_ATTENDEE;
    return new ImportedBooking(
      withoutNul(occurrence.uid),
      normalizeRecurrenceId(occurrence.recurrenceId),
      clean(occurrence.title, IMPORTED_TITLE_MAX) ?? IMPORTED_DEFAULT_TITLE,
      clean(occurrence.location, IMPORTED_LOCATION_MAX),
      occurrence.start,
      occurrence.end,
      name,
      email !== null && email.length <= IMPORTED_ATTENDEE_EMAIL_MAX ? email : null,
    );
  }

  #key: string | undefined;

  /** The occurrence's identity among a schedule's imported bookings: UID and recurrence id (worked out once). */
  get key(): string {
    // recurrenceId is normalized already (from): no need to parse it again.
    return (this.#key ??= keyOf(this.externalUid, this.recurrenceId));
  }
}

/** The identity key of (UID, recurrence id); recurrence ids are compared normalized. */
export function importedBookingKey(uid: string, recurrenceId: string | null): string {
  return keyOf(uid, normalizeRecurrenceId(recurrenceId));
}

function keyOf(uid: string, normalizedRecurrenceId: string | null): string {
  return `${uid}${NUL}${normalizedRecurrenceId ?? ''}`;
}

/** The first booking of each identity, in order, and how many repeats were left out. */
export function uniqueImportedBookings(bookings: readonly ImportedBooking[]): {
  unique: ImportedBooking[];
  repeated: number;
} {
  const seen = new Set<string>();
  const unique: ImportedBooking[] = [];
  for (const booking of bookings) {
    if (seen.has(booking.key)) continue;
    seen.add(booking.key);
    unique.push(booking);
  }
  return { unique, repeated: bookings.length - unique.length };
}

/**
 * A booking an earlier import created, with its iCalendar identity (`externalUid`, `recurrenceId`),
 * which only the import writes; the copy in its metadata is the client's to change, without effect.
 */
export interface ExistingImport {
  readonly id: string;
  readonly status: BookingStatus;
  readonly startTime: Date;
  readonly endTime: Date;
  readonly title: string;
  readonly location: string | null;
  /** Cancelled by an import (its occurrence had vanished), not by a user. */
  readonly cancelledBySync: boolean;
  readonly externalUid: string;
  readonly recurrenceId: string | null;
}

/** An occurrence to book for the first time, under a new id. */
export interface NewImport {
  readonly id: string;
  readonly externalUid: string;
  readonly recurrenceId: string | null;
  readonly title: string;
  readonly location: string | null;
  readonly start: Date;
  readonly end: Date;
  readonly attendeeName: string;
  readonly attendeeEmail: string | null;
}

/** New time and details for a booking an earlier import created. */
export interface ImportChange extends Omit<NewImport, 'externalUid' | 'recurrenceId'> {
  /** Bring a booking an import cancelled earlier back to CONFIRMED. */
  readonly reactivate: boolean;
}
