/** One occurrence of an event in an external calendar feed, after recurrence expansion. */
export interface FeedOccurrence {
  readonly uid: string;
  /** The original start of this occurrence of a recurring event (RECURRENCE-ID), null for one-off events. */
  readonly recurrenceId: Date | null;
  readonly summary: string | null;
  readonly location: string | null;
  readonly start: Date;
  readonly end: Date;
  readonly allDay: boolean;
  /** STATUS: CONFIRMED, TENTATIVE or CANCELLED (uppercased); null when absent. */
  readonly status: string | null;
  /** TRANSP:TRANSPARENT — the time is shown as free. */
  readonly transparent: boolean;
  /** The person the occurrence is for, as iCalendar says it: the ORGANIZER, else the first ATTENDEE, else nobody. */
  readonly contact: Person | null;
}

export interface Person {
  readonly name: string | null;
  readonly email: string | null;
}

/**
 * The longest text of each kind a booking keeps (scheduling's `ImportedBooking` owns these limits; the
 * parse cuts to them so that it never hands back more than an import can use). An e-mail longer than
 * `email` is dropped by the booking, not cut: the parse keeps one character more, so it still shows.
 */
export interface FeedTextLimits {
  readonly title: number;
  readonly location: number;
  readonly attendeeName: number;
  readonly attendeeEmail: number;
}

/**
 * A UID longer than this is no identity an import keeps (it is indexed, and no calendar writes one):
 * its event is skipped as `invalid`.
 */
export const MAX_FEED_UID_LENGTH = 1_000;

export const SKIP_REASONS = ['duplicate', 'cancelled', 'free', 'all_day', 'conflict', 'invalid'] as const;
export type SkipReason = (typeof SKIP_REASONS)[number];

/** Why an occurrence is not offered for import at all, or null when it is importable. */
export function feedSkipReason(occurrence: FeedOccurrence): SkipReason | null {
  if (occurrence.status === 'CANCELLED') return 'cancelled';
  if (occurrence.allDay) return 'all_day';
  if (occurrence.transparent) return 'free';
  if (!occurrence.uid || occurrence.uid.length > MAX_FEED_UID_LENGTH || !(occurrence.end.getTime() > occurrence.start.getTime())) return 'invalid';
  return null;
}

export function emptySkipCounts(): Record<SkipReason, number> {
  return { duplicate: 0, cancelled: 0, free: 0, all_day: 0, conflict: 0, invalid: 0 };
}
