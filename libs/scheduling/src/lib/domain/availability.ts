import { isCalendarDate } from '@almanac/shared/domain';
import { Temporal } from 'temporal-polyfill';

/**
 * Schedule availability (docs/contract/scheduling.md): weekly rules and date overrides in wall-clock time of
 * the schedule's time zone, turned into UTC windows. Plain TypeScript: no Nest, no SQL.
 */

export const WEEKDAYS = ['mon', 'tue', 'wed', 'thu', 'fri', 'sat', 'sun'] as const;
export type Weekday = (typeof WEEKDAYS)[number];

export const MAX_WEEKLY_RULES = 50;
export const MAX_DATE_OVERRIDES = 366;
/** Intervals of one override (a bound that keeps the work per day small; 48 half-hour pieces make a day). */
export const MAX_OVERRIDE_INTERVALS = 48;

export interface TimeInterval {
  readonly start: string;
  readonly end: string;
}

export interface WeeklyRule extends TimeInterval {
  readonly days: readonly Weekday[];
}

export interface DateOverride {
  readonly date: string;
  readonly intervals: readonly TimeInterval[];
}

export interface Availability {
  /** null: open around the clock (except on overridden dates). */
  readonly weekly: readonly WeeklyRule[] | null;
  readonly overrides: readonly DateOverride[];
}

/** A half-open span of UTC milliseconds `[start, end)`. */
export interface Span {
  readonly start: number;
  readonly end: number;
}

/** `HH:MM` of a window's start (00:00–23:59) and end (00:01–24:00); also the OpenAPI document's patterns. */
const HH_MM = '([01][0-9]|2[0-3]):[0-5][0-9]';
export const START_TIME_PATTERN = `^${HH_MM}$`;
export const END_TIME_PATTERN = `^(${HH_MM}|24:00)$`;
const TIME = new RegExp(END_TIME_PATTERN);

/** Minutes after midnight of `HH:MM` (24:00 is 1440), or null when it is not such a time. */
export function minutesOf(time: unknown): number | null {
  if (typeof time !== 'string' || !TIME.test(time)) return null;
  return Number(time.slice(0, 2)) * 60 + Number(time.slice(3));
}


export function hasAvailability(a: Availability): boolean {
  return a.weekly !== null || a.overrides.length > 0;
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * Problems reported for one `availability` or `date_overrides` value at most: they become one message,
 * and a value with thousands of unknown members would otherwise make it megabytes long.
 */
export const MAX_AVAILABILITY_PROBLEMS = 20;

type Problems = { field: string; message: string }[];

/** Unknown members are refused, as in every body. */
function unknownKeyProblems(value: Record<string, unknown>, allowed: readonly string[], path: string, out: Problems): void {
  for (const key of Object.keys(value)) {
    if (out.length >= MAX_AVAILABILITY_PROBLEMS) return;
    if (!allowed.includes(key)) out.push({ field: `${path}.${key}`, message: 'is not a known field' });
  }
}

function intervalProblems(value: unknown, path: string, out: Problems, allowed: readonly string[] = ['start', 'end']): void {
  if (!isObject(value)) {
    out.push({ field: path, message: 'must be an object with start and end' });
    return;
  }
  unknownKeyProblems(value, allowed, path, out);
  const start = minutesOf(value['start']);
  const end = minutesOf(value['end']);
  if (start === null || start === 1440)
    out.push({ field: `${path}.start`, message: 'must be a time HH:MM (00:00–23:59)' });
  if (end === null) out.push({ field: `${path}.end`, message: 'must be a time HH:MM (00:00–24:00)' });
  if (start !== null && end !== null && start < 1440 && start >= end)
    out.push({ field: `${path}.end`, message: 'must be after start' });
}

/** Problems of an `availability` value (null or an array of weekly rules), as field errors (at most MAX_AVAILABILITY_PROBLEMS). */
export function weeklyRulesProblems(value: unknown, field = 'availability'): Problems {
  const out: Problems = [];
  if (value === null) return out;
  if (!Array.isArray(value)) return [{ field, message: 'must be an array of weekly rules or null' }];
  if (value.length > MAX_WEEKLY_RULES) out.push({ field, message: `must have at most ${MAX_WEEKLY_RULES} rules` });
  for (let i = 0; i < value.length && out.length < MAX_AVAILABILITY_PROBLEMS; i++) {
    const rule: unknown = value[i];
    const path = `${field}[${i}]`;
    intervalProblems(rule, path, out, ['days', 'start', 'end']);
    if (!isObject(rule)) continue;
    const days = rule['days'];
    if (
      !Array.isArray(days) ||
      days.length < 1 ||
      days.length > 7 ||
      !days.every((d) => (WEEKDAYS as readonly unknown[]).includes(d)) ||
      new Set(days).size !== days.length
    ) {
      out.push({
        field: `${path}.days`,
        message: 'must be 1–7 distinct days among mon, tue, wed, thu, fri, sat, sun',
      });
    }
  }
  return out.slice(0, MAX_AVAILABILITY_PROBLEMS);
}

/** Problems of a `date_overrides` value (an array), as field errors (at most MAX_AVAILABILITY_PROBLEMS). */
export function dateOverridesProblems(value: unknown, field = 'date_overrides'): Problems {
  const out: Problems = [];
  if (!Array.isArray(value)) return [{ field, message: 'must be an array of date overrides' }];
  if (value.length > MAX_DATE_OVERRIDES) out.push({ field, message: `must have at most ${MAX_DATE_OVERRIDES} overrides` });
  const seen = new Set<string>();
  for (let i = 0; i < value.length && out.length < MAX_AVAILABILITY_PROBLEMS; i++) {
    const override: unknown = value[i];
    const path = `${field}[${i}]`;
    if (!isObject(override)) {
      out.push({ field: path, message: 'must be an object with date and intervals' });
      continue;
    }
    unknownKeyProblems(override, ['date', 'intervals'], path, out);
    const date = override['date'];
    if (!isCalendarDate(date)) out.push({ field: `${path}.date`, message: 'must be a date YYYY-MM-DD that exists' });
    else if (seen.has(date)) out.push({ field: `${path}.date`, message: 'must not repeat another override' });
    else seen.add(date);
    const intervals = override['intervals'];
    if (!Array.isArray(intervals) || intervals.length > MAX_OVERRIDE_INTERVALS) {
      out.push({
        field: `${path}.intervals`,
        message: `must be an array of at most ${MAX_OVERRIDE_INTERVALS} intervals`,
      });
      continue;
    }
    for (let j = 0; j < intervals.length && out.length < MAX_AVAILABILITY_PROBLEMS; j++) intervalProblems(intervals[j], `${path}.intervals[${j}]`, out);
  }
  return out.slice(0, MAX_AVAILABILITY_PROBLEMS);
}

/** Union of minute intervals, sorted and merged (touching ones join: they are one window). */
function mergeMinutes(intervals: [number, number][]): [number, number][] {
  const sorted = [...intervals].sort((a, b) => a[0] - b[0]);
  const merged: [number, number][] = [];
  for (const [start, end] of sorted) {
    const last = merged[merged.length - 1];
    if (last && start <= last[1]) last[1] = Math.max(last[1], end);
    else merged.push([start, end]);
  }
  return merged;
}

function weekdayOf(date: Temporal.PlainDate): Weekday {
  return WEEKDAYS[date.dayOfWeek - 1]!;
}

/**
 * The instant of a wall-clock time on a local date. 'compatible': a time in a DST gap moves forward by
 * the gap's length, a time that exists twice takes the earlier instant. 1440 minutes is the next
 * day's midnight.
 */
export function instantOf(date: Temporal.PlainDate, minutes: number, timeZone: string): number {
  const day = minutes >= 1440 ? date.add({ days: 1 }) : date;
  const m = minutes % 1440;
  return day.toZonedDateTime({ timeZone, plainTime: new Temporal.PlainTime(Math.floor(m / 60), m % 60) })
    .epochMilliseconds;
}

/** The minute intervals of an override's (or any) list of intervals, merged. */
export function openMinutesOf(intervals: readonly TimeInterval[]): [number, number][] {
  return mergeMinutes(intervals.map((i) => [minutesOf(i.start)!, minutesOf(i.end)!]));
}

/** The minute intervals the weekly rules open on a weekday (the whole day without rules). */
export function openMinutesOnWeekday(a: Availability, day: Weekday): [number, number][] {
  if (a.weekly === null) return [[0, 1440]];
  return openMinutesOf(a.weekly.filter((r) => r.days.includes(day)));
}

/** The minute intervals a local date is open, before conversion to instants. */
export function openMinutesOn(a: Availability, date: Temporal.PlainDate): [number, number][] {
  const key = date.toString();
  const override = a.overrides.find((o) => o.date === key);
  if (override) return openMinutesOf(override.intervals);
  return openMinutesOnWeekday(a, weekdayOf(date));
}

/** A local date's windows as UTC spans (empty ones, e.g. wholly inside a DST gap, dropped). */
export function windowsOn(a: Availability, date: Temporal.PlainDate, timeZone: string): Span[] {
  const spans: Span[] = [];
  for (const [start, end] of openMinutesOn(a, date)) {
    const span = { start: instantOf(date, start, timeZone), end: instantOf(date, end, timeZone) };
    if (span.end > span.start) spans.push(span);
  }
  return spans;
}

/** A local date as the UTC span from its first instant to the next date's first instant. */
export function localDayBounds(date: Temporal.PlainDate, timeZone: string): Span {
  return {
    start: date.toZonedDateTime({ timeZone }).epochMilliseconds,
    end: date.add({ days: 1 }).toZonedDateTime({ timeZone }).epochMilliseconds,
  };
}

/** The local date of an instant in a time zone. */
export function localDateOf(instant: number, timeZone: string): Temporal.PlainDate {
  return Temporal.Instant.fromEpochMilliseconds(instant).toZonedDateTimeISO(timeZone).toPlainDate();
}

const DAY_MS = 86_400_000;

/** The local date `days` days after 1970-01-01 (`YYYY-MM-DD`), for years 0000–9999. */
export function isoDateOfEpochDay(days: number): string {
  return new Date(days * DAY_MS).toISOString().slice(0, 10);
}

/** Days from 1970-01-01 to a `YYYY-MM-DD` date. */
export function epochDayOf(date: string): number {
  return Math.floor(Date.parse(`${date}T00:00:00Z`) / DAY_MS);
}

/**
 * A time zone's UTC offsets over a span of instants, read once from Temporal: the offset at the
 * span's start and every transition inside it. Between transitions the offset is constant, so an
 * instant's wall-clock time, and a wall-clock time's instant, are plain arithmetic — the same
 * answers as Temporal's (its 'compatible' reading: a time in a gap moves forward by the gap's
 * length, a time that exists twice is the earlier instant) for every instant in the span.
 *
 * Wall-clock times are "local milliseconds": the epoch milliseconds of the same reading in UTC
 * (a local date's midnight is its epoch day × 86,400,000).
 */
export class ZoneOffsets {
  /** `offsets[i]` (ms) applies from `starts[i]` (starts[0] = −∞) up to `starts[i + 1]`. */
  private readonly starts: number[] = [-Infinity];
  private readonly offsets: number[];

  constructor(timeZone: string, from: number, to: number) {
    let zoned = Temporal.Instant.fromEpochMilliseconds(from).toZonedDateTimeISO(timeZone);
    this.offsets = [zoned.offsetNanoseconds / 1e6];
    for (;;) {
      const next = zoned.getTimeZoneTransition('next');
      if (!next || next.epochMilliseconds > to) break;
      this.starts.push(next.epochMilliseconds);
      this.offsets.push(next.offsetNanoseconds / 1e6);
      zoned = next;
    }
  }

  /** The number of offsets in the span (transitions + 1). */
  get segments(): number {
    return this.offsets.length;
  }

  /** The segment holding an instant. */
  segmentOf(instant: number): number {
    let i = this.starts.length - 1;
    while (instant < this.starts[i]!) i--;
    return i;
  }

  /** The start of segment `i` (−∞ for the first) and the instant the next one starts (∞ after the last). */
  segmentStart(i: number): number {
    return this.starts[i]!;
  }

  segmentEnd(i: number): number {
    return i + 1 < this.starts.length ? this.starts[i + 1]! : Infinity;
  }

  offsetOfSegment(i: number): number {
    return this.offsets[i]!;
  }

  offsetAt(instant: number): number {
    return this.offsets[this.segmentOf(instant)]!;
  }

  /**
   * The instant of a wall-clock reading: the earlier one when it exists twice; in a gap, the
   * reading moved forward by the gap's length (`atGap: 'forward'`, Temporal's 'compatible') or the
   * first instant after the gap (`atGap: 'transition'`, the start of a day whose midnight is skipped).
   */
  instantOfLocal(local: number, atGap: 'forward' | 'transition' = 'forward'): number {
    const n = this.offsets.length;
    for (let i = 0; i < n; i++) {
      const instant = local - this.offsets[i]!;
      // Segments are in order, so the first that holds its reading is the earlier instant.
      if (instant >= this.starts[i]! && (i + 1 === n || instant < this.starts[i + 1]!)) return instant;
    }
    // No offset holds it: a gap. The transition where the reading is past it by the old offset
    // and before it by the new one.
    for (let i = 1; i < n; i++) {
      const transition = this.starts[i]!;
      if (local - this.offsets[i - 1]! >= transition && local - this.offsets[i]! < transition) {
        return atGap === 'forward' ? local - this.offsets[i - 1]! : transition;
      }
    }
    return local - this.offsets[n - 1]!;
  }
}

/** Margin around a span whose zone offsets are read: windows of a neighbouring date stay inside. */
const ZONE_SPAN_MARGIN = 4 * DAY_MS;

/**
 * A schedule's calendar over a span of instants: its zone's offsets read once, then local dates
 * and the availability's windows are arithmetic (the same answers as Temporal's,
 * as `ZoneOffsets` says). For checking many times at once, such as a series' occurrences.
 */
export class ScheduleCalendar {
  private readonly zone: ZoneOffsets;
  private readonly weekly: [number, number][][];
  private readonly overrides: Map<number, [number, number][]>;

  constructor(availability: Availability, timeZone: string, from: number, to: number) {
    this.zone = new ZoneOffsets(timeZone, from - ZONE_SPAN_MARGIN, to + ZONE_SPAN_MARGIN);
    this.weekly = WEEKDAYS.map((day) => openMinutesOnWeekday(availability, day));
    this.overrides = new Map(availability.overrides.map((o) => [epochDayOf(o.date), openMinutesOf(o.intervals)]));
  }

  /** The local date of an instant, as days from 1970-01-01. */
  epochDayOf(instant: number): number {
    return Math.floor((instant + this.zone.offsetAt(instant)) / DAY_MS);
  }

  /** Whether `[start, end)` lies inside one window of the availability (a window of one local date). */
  insideOneWindow(start: number, end: number): boolean {
    const day = this.epochDayOf(start);
    // A day before and after: a window of a neighbouring date can reach the time.
    for (let d = day - 1; d <= day + 1; d++) {
      // 1970-01-01 was a Thursday: index 3 of WEEKDAYS.
      const open = this.overrides.get(d) ?? this.weekly[(((d + 3) % 7) + 7) % 7]!;
      for (const [openStart, openEnd] of open) {
        const windowStart = this.zone.instantOfLocal(d * DAY_MS + openStart * 60_000);
        const windowEnd = this.zone.instantOfLocal(d * DAY_MS + openEnd * 60_000);
        if (windowStart <= start && end <= windowEnd) return true;
      }
    }
    return false;
  }
}
