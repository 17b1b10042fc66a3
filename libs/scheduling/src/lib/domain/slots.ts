import { parseDateOrDateTime } from '@almanac/shared/domain';
import {
  Availability,
  epochDayOf,
  hasAvailability,
  isoDateOfEpochDay,
  openMinutesOf,
  openMinutesOnWeekday,
  WEEKDAYS,
  ScheduleCalendar,
  ZoneOffsets,
} from './availability';
import { LIMIT_REASONS, type LimitReason } from './booking-limits';
import { BookingRules, MIN_SLOT_INTERVAL } from './booking-rules';

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

/** A PENDING or CONFIRMED booking of the schedule, as slots need it. */
export interface BusyBooking {
  readonly start: number;
  readonly end: number;
  readonly bufferBefore: number;
  readonly bufferAfter: number;
}

/**
 * The schedule's PENDING/CONFIRMED bookings as the slots read them, in epoch milliseconds: each one's
 * blocked time `[start − buffer_before, end + buffer_after)` (two parallel lists, in any order).
 */
export interface BusyTimes {
  readonly blockedStarts: readonly number[];
  readonly blockedEnds: readonly number[];
  /** Unexpired reservations' blocked times (buffers included). */
  readonly reserved?: BlockedSpans;
  /** Published events' times on the schedule (an event blocks exactly its own time). */
  readonly events?: BlockedSpans;
}

/** Blocked times as two parallel lists of epoch milliseconds, in any order. */
export interface BlockedSpans {
  readonly starts: readonly number[];
  readonly ends: readonly number[];
}

const NO_SPANS: BlockedSpans = { starts: [], ends: [] };

/** The busy times of bookings (the repository computes the same in SQL). */
export function busyTimesOf(bookings: readonly BusyBooking[]): BusyTimes {
  return {
    blockedStarts: bookings.map((b) => b.start - b.bufferBefore * MINUTE),
    blockedEnds: bookings.map((b) => b.end + b.bufferAfter * MINUTE),
  };
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
  readonly busy: BusyTimes;
  /**
   * The first limit a slot starting on a local date (epoch day of the schedule's calendar) would
   * break, or null (the event type's and the schedule's; see booking-limits). Absent: no limit.
   */
  readonly limitOn?: (localDay: number) => LimitReason | null;
}

/**
 * Why a time is not offered, in the order they are judged (the first that applies is the answer):
 * `not_a_slot` is a start inside a window but off its grid, or whose slot crosses the window's end
 * (a reservation must be a slot; a booking need not be); `booked`, `reserved` and `event` name what
 * holds the time; then the limits (bookings and reservations both count toward them).
 */
export type SlotUnavailableReason =
  | 'minimum_notice'
  | 'booking_window'
  | 'outside_availability'
  | 'not_a_slot'
  | 'booked'
  | 'reserved'
  | 'event'
  | LimitReason;
export const SLOT_UNAVAILABLE_REASONS: readonly SlotUnavailableReason[] = [
  'minimum_notice',
  'booking_window',
  'outside_availability',
  'not_a_slot',
  'booked',
  'reserved',
  'event',
  ...LIMIT_REASONS,
];

/** Windows of the whole day for a schedule without availability, else its own. */
function effectiveAvailability(a: Availability): Availability {
  return hasAvailability(a) ? a : { weekly: null, overrides: [] };
}

/** `HH:MM` of every minute of a day, built once. */
let hhmmTable: string[] | undefined;
export function hhmm(minuteOfDay: number): string {
  hhmmTable ??= Array.from(
    { length: 1440 },
    (_, m) => `${String(Math.floor(m / 60)).padStart(2, '0')}:${String(m % 60).padStart(2, '0')}`,
  );
  return hhmmTable[minuteOfDay]!;
}

/**
 * Wall-clock readings of increasing instants in one zone: the date string is made once per day,
 * the time comes from a table, the offset from the zone's segments (walked forward, rewound when
 * an instant goes back).
 */
export class WallClock {
  private segment = 0;
  private day = NaN;
  private dayText = '';

  constructor(private readonly zone: ZoneOffsets) {}

  /** `YYYY-MM-DD` and `HH:MM` (seconds dropped) of an instant. */
  read(instant: number): { date: string; time: string } {
    const zone = this.zone;
    if (instant < zone.segmentStart(this.segment)) this.segment = zone.segmentOf(instant);
    while (instant >= zone.segmentEnd(this.segment)) this.segment++;
    const local = instant + zone.offsetOfSegment(this.segment);
    const day = Math.floor(local / DAY);
    if (day !== this.day) {
      this.day = day;
      this.dayText = isoDateOfEpochDay(day);
    }
    return { date: this.dayText, time: hhmm(Math.floor((local - day * DAY) / MINUTE)) };
  }
}

/**
 * Time that candidates must not overlap (bookings' blocked times), sorted by start with a running
 * maximum of ends: the first span whose running end passes a point is where overlaps begin, and for
 * candidates in increasing order that point only moves forward.
 */
class BlockedTimes {
  private readonly order: Int32Array;
  private readonly starts: Float64Array;
  private readonly maxEnds: Float64Array;
  private cursor = 0;
  private lastFrom = -Infinity;

  /** Blocked times as parallel lists of starts and ends; indexes refer to those lists. */
  constructor(starts: readonly number[], ends: readonly number[]) {
    const n = starts.length;
    this.order = orderOf(starts);
    this.starts = new Float64Array(n);
    this.maxEnds = new Float64Array(n);
    let maxEnd = -Infinity;
    for (let k = 0; k < n; k++) {
      const index = this.order[k]!;
      this.starts[k] = starts[index]!;
      maxEnd = Math.max(maxEnd, ends[index]!);
      this.maxEnds[k] = maxEnd;
    }
  }

  /**
   * The earliest-starting span overlapping `[from, to)`, as its index in the constructor's list,
   * or −1. Every span before the first whose running end passes `from` ends by `from`; that span
   * itself ends past `from`, so it overlaps when it starts before `to`, and if it does not, no
   * later span (starting later still) does.
   */
  firstOverlap(from: number, to: number): number {
    const n = this.starts.length;
    // Candidates come in increasing order but for a rare window out of order: start again there.
    if (from < this.lastFrom) this.cursor = firstAtOrAfter(this.maxEnds, from);
    this.lastFrom = from;
    let k = this.cursor;
    while (k < n && this.maxEnds[k]! <= from) k++;
    this.cursor = k;
    return k < n && this.starts[k]! < to ? this.order[k]! : -1;
  }
}

/**
 * The indexes of `values` in increasing order of value (ties: by index). Often already in order, and
 * then checking is all. Whole numbers in a span that allows it (epoch milliseconds of a few months:
 * always) are sorted as one key each, value and index together, by the typed array's native sort,
 * which outruns calling a comparator some 40,000 times for 3,000 bookings.
 */
function orderOf(values: readonly number[]): Int32Array {
  const n = values.length;
  const order = new Int32Array(n);
  let sorted = true;
  let whole = true;
  let min = Infinity;
  let max = -Infinity;
  for (let i = 0; i < n; i++) {
    const v = values[i]!;
    order[i] = i;
    if (i > 0 && v < values[i - 1]!) sorted = false;
    if (!Number.isInteger(v)) whole = false;
    if (v < min) min = v;
    if (v > max) max = v;
  }
  if (sorted) return order;
  if (whole && (max - min + 1) * n <= Number.MAX_SAFE_INTEGER) {
    const keys = new Float64Array(n);
    for (let i = 0; i < n; i++) keys[i] = (values[i]! - min) * n + i;
    keys.sort();
    for (let k = 0; k < n; k++) order[k] = keys[k]! % n;
    return order;
  }
  return order.sort((a, b) => values[a]! - values[b]! || a - b);
}

/** Index of the first element of a sorted array that is ≥ value. */
function firstAtOrAfter(sorted: Float64Array, value: number): number {
  let lo = 0;
  let hi = sorted.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (sorted[mid]! < value) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/** Why a candidate start inside a window and the query's range is not offered, first reason first. */
export type CandidateRejection = 'minimum_notice' | 'booking_window' | 'booked' | 'reserved' | 'event' | LimitReason;

/**
 * A candidate that was not offered: its reason, and for `booked`, `reserved` and `event` the
 * earliest-starting blocked time of that kind it meets (its index in the lists of `busy`:
 * `blockedStarts`, `reserved` or `events`).
 */
export interface RejectedCandidate {
  readonly start: number;
  readonly end: number;
  readonly reason: CandidateRejection;
  readonly busyIndex?: number;
}

/** Time zones read 4 days beyond the range: every window of a date that can touch it lies inside. */
const ZONE_MARGIN = 4 * DAY;

/**
 * Every slot offered in `[from, to)`, sorted by start (a start offered twice, as on a local date
 * a time zone skipped, counts once). With `onRejected`, every other candidate start inside a
 * window and the range is reported with the first reason that keeps it out; without it, candidates
 * that notice, the window of days or a full day rule out are skipped, never looked at.
 *
 * The work is arithmetic on epoch milliseconds: the schedule's zone offsets over the range are read
 * once, each local date's windows become instants through them (exactly as Temporal would), and
 * candidates step through a window by the interval (a window is one stretch of instants).
 */
export function availableSlots(q: SlotQuery, onRejected?: (rejected: RejectedCandidate) => void): Slot[] {
  const { rules } = q;
  const duration = rules.duration * MINUTE;
  // Candidate starts are never closer than slot_interval's own minimum (5 minutes), even when a
  // shorter duration stands in for a null slot_interval: a day offers at most 288 slots, and a
  // 62-day answer stays under 18,000 of them.
  const step = Math.max(rules.slotInterval ?? rules.duration, MIN_SLOT_INTERVAL) * MINUTE;
  const earliest = q.now + rules.minimumNotice * MINUTE;
  const latest = rules.bookingWindowDays === null ? Infinity : q.now + rules.bookingWindowDays * DAY;
  const before = rules.bufferBefore * MINUTE;
  const after = rules.bufferAfter * MINUTE;

  const zone = new ZoneOffsets(q.scheduleTimeZone, q.from - ZONE_MARGIN, q.to + ZONE_MARGIN);
  const clock = new WallClock(
    q.timeZone === q.scheduleTimeZone ? zone : new ZoneOffsets(q.timeZone, q.from, q.to),
  );
  const blocked = new BlockedTimes(q.busy.blockedStarts, q.busy.blockedEnds);
  const reserved = q.busy.reserved ?? NO_SPANS;
  const held = new BlockedTimes(reserved.starts, reserved.ends);
  const events = q.busy.events ?? NO_SPANS;
  const occupied = new BlockedTimes(events.starts, events.ends);
  // Limits count by the start's local date, and every candidate is as long: one answer per date.
  const limitOn = q.limitOn ?? (() => null);

  const availability = effectiveAvailability(q.availability);
  const weekly = WEEKDAYS.map((day) => openMinutesOnWeekday(availability, day));
  const overrides = new Map(availability.overrides.map((o) => [epochDayOf(o.date), o]));

  // Offered starts go straight to the answer; the range each window is searched in.
  const lo = onRejected ? q.from : Math.max(q.from, earliest);
  const hi = onRejected ? q.to : Math.min(q.to, latest);
  const slots: Slot[] = [];
  // A day before and after: a window of a neighbouring date can reach into the range.
  const firstDay = Math.floor((q.from + zone.offsetAt(q.from)) / DAY) - 1;
  const lastDay = Math.floor((q.to + zone.offsetAt(q.to)) / DAY) + 1;
  for (let day = firstDay; day <= lastDay; day++) {
    const override = overrides.get(day);
    // 1970-01-01 was a Thursday: index 3 of WEEKDAYS.
    const open = override ? openMinutesOf(override.intervals) : weekly[(((day + 3) % 7) + 7) % 7]!;
    let limit: LimitReason | null | undefined;
    for (const [openStart, openEnd] of open) {
      const windowStart = zone.instantOfLocal(day * DAY + openStart * MINUTE);
      const windowEnd = zone.instantOfLocal(day * DAY + openEnd * MINUTE);
      // Empty (wholly inside a gap), or outside the range.
      if (windowEnd <= windowStart || windowEnd <= q.from || windowStart >= q.to) continue;
      if (limit === undefined) limit = limitOn(day);
      if (limit !== null && !onRejected) continue;
      const first = lo > windowStart ? Math.ceil((lo - windowStart) / step) : 0;
      for (let start = windowStart + first * step; start + duration <= windowEnd && start < hi; start += step) {
        const end = start + duration;
        let reason: CandidateRejection | null = null;
        let busyIndex = -1;
        if (start < earliest) reason = 'minimum_notice';
        else if (start >= latest) reason = 'booking_window';
        else if ((busyIndex = blocked.firstOverlap(start - before, end + after)) !== -1) reason = 'booked';
        else if ((busyIndex = held.firstOverlap(start - before, end + after)) !== -1) reason = 'reserved';
        else if ((busyIndex = occupied.firstOverlap(start - before, end + after)) !== -1) reason = 'event';
        else if (limit !== null) reason = limit;
        if (reason === null) {
          const local = clock.read(start);
          slots.push({ start, end, localDate: local.date, localTime: local.time });
        } else if (onRejected) {
          onRejected(busyIndex === -1 ? { start, end, reason } : { start, end, reason, busyIndex });
        }
      }
    }
  }
  return distinctByStart(slots);
}

/** Sorted by start, each start once (windows of two dates meet only where a zone skipped a date). */
function distinctByStart(slots: Slot[]): Slot[] {
  let sorted = true;
  for (let i = 1; i < slots.length && sorted; i++) sorted = slots[i - 1]!.start < slots[i]!.start;
  if (sorted) return slots;
  return slots.sort((a, b) => a.start - b.start).filter((s, i, all) => i === 0 || all[i - 1]!.start !== s.start);
}

export interface FitQuery {
  readonly availability: Availability;
  readonly scheduleTimeZone: string;
  readonly rules: BookingRules;
  readonly start: number;
  readonly end: number;
  readonly now: number;
  /** The schedule's calendar over a span holding the time, when the caller checks many times. */
  readonly calendar?: ScheduleCalendar;
}

/**
 * Why a booking with an event type does not fit a schedule that has availability, or null when it
 * fits, by the rules of its own time: notice, the window of days, availability (in that order).
 * Overlap is the database's to decide, and limits are counted by the write (BookingLimits).
 * Alignment to slot_interval is not required.
 */
export function bookingMisfit(q: FitQuery): 'minimum_notice' | 'booking_window' | 'outside_availability' | null {
  if (!hasAvailability(q.availability)) return null;
  // When several rules refuse a time, the one named is the first of notice, window of days, availability.
  if (q.start < q.now + q.rules.minimumNotice * MINUTE) return 'minimum_notice';
  if (q.rules.bookingWindowDays !== null && q.start >= q.now + q.rules.bookingWindowDays * DAY) return 'booking_window';
  const calendar = q.calendar ?? new ScheduleCalendar(q.availability, q.scheduleTimeZone, q.start, q.end);
  if (!calendar.insideOneWindow(q.start, q.end)) return 'outside_availability';
  return null;
}

/**
 * Whether `start` is a slot the query would offer, and if not, the first reason it is not: the
 * candidate's own rejection when it is one, else `minimum_notice` and `booking_window` as for any
 * start, then `outside_availability` (inside no window) or `not_a_slot` (inside one but off its grid,
 * or the slot would cross its end). `busyIndex` as in RejectedCandidate.
 */
export function slotVerdict(
  q: Omit<SlotQuery, 'from' | 'to' | 'timeZone'>,
  start: number,
): { reason: SlotUnavailableReason; busyIndex?: number } | null {
  let rejected: RejectedCandidate | undefined;
  const offered = availableSlots({ ...q, timeZone: q.scheduleTimeZone, from: start, to: start + 1 }, (r) => {
    if (r.start === start) rejected ??= r;
  });
  if (offered.some((s) => s.start === start)) return null;
  if (rejected) return rejected.busyIndex === undefined ? { reason: rejected.reason } : { reason: rejected.reason, busyIndex: rejected.busyIndex };
  if (start < q.now + q.rules.minimumNotice * MINUTE) return { reason: 'minimum_notice' };
  if (q.rules.bookingWindowDays !== null && start >= q.now + q.rules.bookingWindowDays * DAY) return { reason: 'booking_window' };
  const inWindow = new ScheduleCalendar(effectiveAvailability(q.availability), q.scheduleTimeZone, start, start + 1).insideOneWindow(
    start,
    start + 1,
  );
  return { reason: inWindow ? 'not_a_slot' : 'outside_availability' };
}
