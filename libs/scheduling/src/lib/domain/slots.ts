import { parseDateOrDateTime } from '@almanac/shared/domain';
import { Temporal } from 'temporal-polyfill';
import { Availability, hasAvailability, localDayBounds, Span, windowsBetween } from './availability';
import { MIN_SLOT_INTERVAL } from './event-type';

/**
 * Which slots a schedule offers for an event type, and whether a booking fits (docs/contract/scheduling.md).
 * Pure functions over instants in UTC milliseconds.
 */

const MINUTE = 60_000;
const DAY = 24 * 60 * MINUTE;

/** A slots query without `end` covers this many days; it may cover at most MAX_SLOT_RANGE_DAYS. */
export const DEFAULT_SLOT_RANGE_DAYS = 7;
export const MAX_SLOT_RANGE_DAYS = 62;

/**
 * What a slots query costs against its key's rate limit: one unit per day of its range, a started
 * day counting (1 to 62), since its work grows with the days (the largest costs ~0.3 s of CPU). Read
 * from the query as sent, before the schedule's time zone is known: date-only bounds are taken as
 * UTC days, which moves both by the same amount and a mixed pair by a day at most. A bound that is
 * not a date costs 1 (validation refuses it).
 */
export function slotQueryCost(start: unknown, end: unknown, now: Date): number {
  const instant = (value: unknown): number | null | undefined =>
    value === undefined ? undefined : typeof value === 'string' ? (parseDateOrDateTime(value)?.instant.getTime() ?? null) : null;
  const from = instant(start);
  const to = instant(end);
  if (from === null || to === null) return 1;
  const fromMs = from ?? now.getTime();
  const toMs = to ?? fromMs + DEFAULT_SLOT_RANGE_DAYS * DAY;
  return Math.min(MAX_SLOT_RANGE_DAYS, Math.max(1, Math.ceil((toMs - fromMs) / DAY)));
}

/** An event type's booking rules (minutes unless said otherwise). */
export interface BookingRules {
  /** Minutes. */
  readonly duration: number;
  readonly bufferBefore: number;
  readonly bufferAfter: number;
  readonly minimumNotice: number;
  /** Minutes between candidate starts; null: the duration (slots step by at least MIN_SLOT_INTERVAL). */
  readonly slotInterval: number | null;
  /** null: unlimited. */
  readonly bookingWindowDays: number | null;
  /** null: no limit. */
  readonly maxBookingsPerDay: number | null;
}

/** A PENDING or CONFIRMED booking of the schedule, as slots need it. */
export interface BusyBooking {
  readonly start: number;
  readonly end: number;
  readonly bufferBefore: number;
  readonly bufferAfter: number;
  /** Whether it was made with the event type the slots are for (daily limit). */
  readonly sameEventType: boolean;
}

export interface Slot {
  readonly start: number;
  readonly end: number;
  /** `YYYY-MM-DD` and `HH:MM` of the start in the answer's time zone. */
  readonly localDate: string;
  readonly localTime: string;
}

export interface SlotQuery {
  readonly availability: Availability;
  /** The schedule's time zone: windows and the daily limit's dates are read in it. */
  readonly scheduleTimeZone: string;
  /** Where local_date and local_time are given. */
  readonly timeZone: string;
  readonly rules: BookingRules;
  readonly from: number;
  readonly to: number;
  readonly now: number;
  readonly busy: readonly BusyBooking[];
}

export type SlotUnavailableReason = 'outside_availability' | 'minimum_notice' | 'booking_window' | 'daily_limit';
export const SLOT_UNAVAILABLE_REASONS: readonly SlotUnavailableReason[] = [
  'outside_availability',
  'minimum_notice',
  'booking_window',
  'daily_limit',
];

/** The time a booking keeps from others: `[start − buffer_before, end + buffer_after)`. */
export function blockedSpan(b: { start: number; end: number; bufferBefore: number; bufferAfter: number }): Span {
  return { start: b.start - b.bufferBefore * MINUTE, end: b.end + b.bufferAfter * MINUTE };
}

/** Windows of the whole day for a schedule without availability, else its own. */
function effectiveAvailability(a: Availability): Availability {
  return hasAvailability(a) ? a : { weekly: null, overrides: [] };
}

/** Index of the first element of a sorted array that is ≥ value. */
function firstAtOrAfter(sorted: readonly number[], value: number): number {
  let lo = 0;
  let hi = sorted.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (sorted[mid]! < value) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/** The zone's UTC offset in ms over `[from, to]` when no transition falls inside, else null. */
function constantOffset(timeZone: string, from: number, to: number): number | null {
  const zoned = Temporal.Instant.fromEpochMilliseconds(from).toZonedDateTimeISO(timeZone);
  const next = zoned.getTimeZoneTransition('next');
  if (next && next.epochMilliseconds <= to) return null;
  return zoned.offsetNanoseconds / 1e6;
}

/** `YYYY-MM-DDTHH:MM…` of an instant's wall-clock time in a zone (through the offset when known). */
function localWallClock(instant: number, timeZone: string, offset: number | null): string {
  const ms = offset ?? Temporal.Instant.fromEpochMilliseconds(instant).toZonedDateTimeISO(timeZone).offsetNanoseconds / 1e6;
  return new Date(instant + ms).toISOString();
}

/** Every slot offered in `[from, to)`, sorted by start. */
export function availableSlots(q: SlotQuery): Slot[] {
  const { rules } = q;
  const duration = rules.duration * MINUTE;
  // Candidate starts are never closer than slot_interval's own minimum (5 minutes), even when a
  // shorter duration stands in for a null slot_interval: a day offers at most 288 slots, and a
  // 62-day answer stays under 18,000 of them.
  const step = Math.max(rules.slotInterval ?? rules.duration, MIN_SLOT_INTERVAL) * MINUTE;
  const earliest = q.now + rules.minimumNotice * MINUTE;
  const latest = rules.bookingWindowDays === null ? Infinity : q.now + rules.bookingWindowDays * DAY;

  const blocked = q.busy.map(blockedSpan).sort((a, b) => a.start - b.start);
  // Blocked spans sorted by start; a running maximum of ends lets a binary search answer "does
  // anything before this point reach past it".
  const maxEnd: number[] = [];
  blocked.forEach((s, i) => maxEnd.push(Math.max(s.end, i > 0 ? maxEnd[i - 1]! : -Infinity)));
  const blockedStarts = blocked.map((s) => s.start);
  const overlapsBlocked = (span: Span): boolean => {
    // How many blocked spans start before span.end; the last of them is at n − 1.
    const n = firstAtOrAfter(blockedStarts, span.end);
    return n > 0 && maxEnd[n - 1]! > span.start;
  };

  // Daily limit: starts of this type's bookings, sorted, counted per local date by binary search.
  const sameTypeStarts = q.busy
    .filter((b) => b.sameEventType)
    .map((b) => b.start)
    .sort((a, b) => a - b);
  const dayCounts = new Map<string, number>();
  const countOn = (date: Temporal.PlainDate): number => {
    const key = date.toString();
    let n = dayCounts.get(key);
    if (n === undefined) {
      const day = localDayBounds(date, q.scheduleTimeZone);
      n = firstAtOrAfter(sameTypeStarts, day.end) - firstAtOrAfter(sameTypeStarts, day.start);
      dayCounts.set(key, n);
    }
    return n;
  };

  const slots: Slot[] = [];
  const windows = windowsBetween(effectiveAvailability(q.availability), q.from, q.to, q.scheduleTimeZone);
  for (const { date, span } of windows) {
    // Every slot of a window starts on the window's local date (a window ends by the next midnight).
    if (rules.maxBookingsPerDay !== null && countOn(date) >= rules.maxBookingsPerDay) continue;
    // The answer's UTC offset over the window, when no transition falls inside it (nearly always):
    // local times then come from arithmetic instead of a time-zone lookup per slot.
    const offset = constantOffset(q.timeZone, span.start, span.end);
    for (let start = span.start; start + duration <= span.end; start += step) {
      if (start < q.from || start >= q.to || start < earliest || start >= latest) continue;
      const candidate = { start, end: start + duration, bufferBefore: rules.bufferBefore, bufferAfter: rules.bufferAfter };
      if (overlapsBlocked(blockedSpan(candidate))) continue;
      const local = localWallClock(start, q.timeZone, offset);
      slots.push({ start, end: start + duration, localDate: local.slice(0, 10), localTime: local.slice(11, 16) });
    }
  }
  return slots.sort((a, b) => a.start - b.start);
}

export interface FitQuery {
  readonly availability: Availability;
  readonly scheduleTimeZone: string;
  readonly rules: BookingRules;
  readonly start: number;
  readonly end: number;
  readonly now: number;
  /** PENDING/CONFIRMED bookings of this event type and schedule starting on the booking's local date (itself excluded). */
  readonly sameDayCount: number;
}

/**
 * Why a booking with an event type does not fit a schedule that has availability, or null when it
 * fits (overlap is the database's to decide). Alignment to slot_interval is not required.
 */
export function bookingMisfit(q: FitQuery): SlotUnavailableReason | null {
  if (!hasAvailability(q.availability)) return null;
  const inside = windowsBetween(q.availability, q.start, q.end, q.scheduleTimeZone).some(
    ({ span }) => span.start <= q.start && q.end <= span.end,
  );
  if (!inside) return 'outside_availability';
  if (q.start < q.now + q.rules.minimumNotice * MINUTE) return 'minimum_notice';
  if (q.rules.bookingWindowDays !== null && q.start >= q.now + q.rules.bookingWindowDays * DAY) return 'booking_window';
  if (q.rules.maxBookingsPerDay !== null && q.sameDayCount >= q.rules.maxBookingsPerDay) return 'daily_limit';
  return null;
}
