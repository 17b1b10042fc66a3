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
  readonly organizer: Person | null;
  readonly attendees: readonly Person[];
}

export interface Person {
  readonly name: string | null;
  readonly email: string | null;
}

export const SKIP_REASONS = ['duplicate', 'cancelled', 'free', 'all_day', 'conflict', 'invalid'] as const;
export type SkipReason = (typeof SKIP_REASONS)[number];

/** Why an occurrence is not offered for import at all, or null when it is importable. */
export function feedSkipReason(occurrence: FeedOccurrence): SkipReason | null {
  if (occurrence.status === 'CANCELLED') return 'cancelled';
  if (occurrence.allDay) return 'all_day';
  if (occurrence.transparent) return 'free';
  if (!occurrence.uid || !(occurrence.end.getTime() > occurrence.start.getTime())) return 'invalid';
  return null;
}

/**
 * The person an occurrence is for, as iCalendar says it: the ORGANIZER, else the first ATTENDEE, else
 * nobody. What a booking makes of it (limits, the fallback to the integration's name) is scheduling's
 * rule (`ImportedBooking`).
 */
export function feedContact(occurrence: FeedOccurrence): Person | null {
  return occurrence.organizer ?? occurrence.attendees[0] ?? null;
}

export function emptySkipCounts(): Record<SkipReason, number> {
  return { duplicate: 0, cancelled: 0, free: 0, all_day: 0, conflict: 0, invalid: 0 };
}
