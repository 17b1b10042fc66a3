import { isSupportedInstant, LATEST_INSTANT, ValidationFailedError } from '@almanac/shared/domain';
import { ZoneOffsets } from './availability';

/**
 * Recurring bookings: how a series repeats, and the occurrences it makes. Plain TypeScript over
 * instants; wall-clock arithmetic goes through the zone's offsets, as the slots' does.
 */

export const RECURRENCE_FREQUENCIES = ['daily', 'weekly', 'monthly'] as const;
export type RecurrenceFrequency = (typeof RECURRENCE_FREQUENCIES)[number];

export const MIN_RECURRENCE_INTERVAL = 1;
export const DEFAULT_RECURRENCE_INTERVAL = 1;
export const MAX_RECURRENCE_INTERVAL = 12;
export const MIN_RECURRENCE_COUNT = 2;
/** A series is checked and written as one unit: this bounds its work (and a year of weekly meetings fits). */
export const MAX_RECURRENCE_COUNT = 52;
/** A monthly series repeats its first day of month, which every month has only up to the 28th. */
export const LAST_MONTHLY_DAY = 28;

/** How a series repeats, its defaults filled in. */
export interface Recurrence {
  readonly frequency: RecurrenceFrequency;
  /** Every `interval` days, weeks or months. */
  readonly interval: number;
  /** How many occurrences, the first included. */
  readonly count: number;
}

/** What to do with occurrences that do not fit: refuse the whole series, or create the others. */
export type RecurrenceConflictMode = 'reject' | 'skip';

/** One occurrence of a series: its place (0-based) and its time. */
export interface Occurrence {
  readonly index: number;
  readonly start: Date;
  readonly end: Date;
}

const DAY = 86_400_000;
/** The longest a step of each frequency can be, in days: what the zone's offsets are read over. */
const LONGEST_STEP_DAYS: Record<RecurrenceFrequency, number> = { daily: 1, weekly: 7, monthly: 31 };

/**
 * Every occurrence of a series whose first runs `[start, end)`: each starts at the first's wall-clock
 * time in `timeZone` on its own date (a local time a DST change skips moves forward by the gap; one
 * that exists twice takes the earlier instant, as Temporal's 'compatible' reading) and lasts as long
 * as the first, in elapsed time. The zone's offsets are read once for the whole series.
 * Throws `ValidationFailedError` (400) for a monthly series that starts after the 28th (local), or one
 * whose last occurrence lies beyond the instants the service accepts.
 */
export function occurrencesOf(start: Date, end: Date, timeZone: string, recurrence: Recurrence): Occurrence[] {
  const first = start.getTime();
  const length = end.getTime() - first;
  const span = recurrence.count * recurrence.interval * LONGEST_STEP_DAYS[recurrence.frequency] * DAY;
  const zone = new ZoneOffsets(timeZone, first - DAY, Math.min(first + span + length + DAY, LATEST_INSTANT.getTime()));
  // The first start as "local milliseconds": the same wall-clock reading taken as UTC.
  const local = new Date(first + zone.offsetAt(first));
  if (recurrence.frequency === 'monthly' && local.getUTCDate() > LAST_MONTHLY_DAY) {
    throw new ValidationFailedError([
      {
        field: 'start_time',
        message: `a monthly series must start on day 1–${LAST_MONTHLY_DAY} of a month (in the booking's time zone, ${timeZone}); it starts on day ${local.getUTCDate()}`,
      },
    ]);
  }
  const localAt = (steps: number): number => {
    if (recurrence.frequency === 'monthly') {
      // Day 1–28 exists in every month: no month clamps it.
      const at = new Date(local.getTime());
      at.setUTCMonth(at.getUTCMonth() + steps);
      return at.getTime();
    }
    return local.getTime() + steps * LONGEST_STEP_DAYS[recurrence.frequency] * DAY;
  };
  const occurrences: Occurrence[] = [{ index: 0, start, end }];
  for (let index = 1; index < recurrence.count; index++) {
    const at = zone.instantOfLocal(localAt(index * recurrence.interval));
    const occurrence = { index, start: new Date(at), end: new Date(at + length) };
    if (!isSupportedInstant(occurrence.end)) {
      throw new ValidationFailedError([
        { field: 'recurrence.count', message: 'the series would end beyond the latest date the service accepts' },
      ]);
    }
    occurrences.push(occurrence);
  }
  return occurrences;
}

/** A recurring series: how it repeats; its occurrences are bookings that name it. */
export interface BookingSeries {
  readonly id: string;
  readonly organizationId: string;
  readonly scheduleId: string;
  readonly recurrence: Recurrence;
  readonly createdAt: Date;
}
