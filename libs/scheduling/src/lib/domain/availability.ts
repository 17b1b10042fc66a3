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

const TIME = /^(?:([01]\d|2[0-3]):([0-5]\d)|(24):(00))$/;
const DATE = /^\d{4}-\d{2}-\d{2}$/;

/** Minutes after midnight of `HH:MM` (24:00 is 1440), or null when it is not such a time. */
export function minutesOf(time: unknown): number | null {
  if (typeof time !== 'string') return null;
  const m = TIME.exec(time);
  if (!m) return null;
  return m[3] !== undefined ? 1440 : Number(m[1]) * 60 + Number(m[2]);
}

function isPlainDate(value: unknown): value is string {
  if (typeof value !== 'string' || !DATE.test(value)) return false;
  try {
    Temporal.PlainDate.from(value, { overflow: 'reject' });
    return true;
  } catch {
    return false;
  }
}

export function hasAvailability(a: Availability): boolean {
  return a.weekly !== null || a.overrides.length > 0;
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Unknown members are refused, as in every body. */
function unknownKeyProblems(
  value: Record<string, unknown>,
  allowed: readonly string[],
  path: string,
  out: { field: string; message: string }[],
): void {
  for (const key of Object.keys(value)) {
    if (!allowed.includes(key)) out.push({ field: `${path}.${key}`, message: 'is not a known field' });
  }
}

function intervalProblems(
  value: unknown,
  path: string,
  out: { field: string; message: string }[],
  allowed: readonly string[] = ['start', 'end'],
): void {
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

/** Problems of an `availability` value (null or an array of weekly rules), as field errors. */
export function weeklyRulesProblems(
  value: unknown,
  field = 'availability',
): { field: string; message: string }[] {
  const out: { field: string; message: string }[] = [];
  if (value === null) return out;
  if (!Array.isArray(value)) return [{ field, message: 'must be an array of weekly rules or null' }];
  if (value.length > MAX_WEEKLY_RULES)
    out.push({ field, message: `must have at most ${MAX_WEEKLY_RULES} rules` });
  value.forEach((rule, i) => {
    const path = `${field}[${i}]`;
    intervalProblems(rule, path, out, ['days', 'start', 'end']);
    if (!isObject(rule)) return;
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
  });
  return out;
}

/** Problems of a `date_overrides` value (an array), as field errors. */
export function dateOverridesProblems(
  value: unknown,
  field = 'date_overrides',
): { field: string; message: string }[] {
  const out: { field: string; message: string }[] = [];
  if (!Array.isArray(value)) return [{ field, message: 'must be an array of date overrides' }];
  if (value.length > MAX_DATE_OVERRIDES)
    out.push({ field, message: `must have at most ${MAX_DATE_OVERRIDES} overrides` });
  const seen = new Set<string>();
  value.forEach((override, i) => {
    const path = `${field}[${i}]`;
    if (!isObject(override)) {
      out.push({ field: path, message: 'must be an object with date and intervals' });
      return;
    }
    unknownKeyProblems(override, ['date', 'intervals'], path, out);
    const date = override['date'];
    if (!isPlainDate(date)) out.push({ field: `${path}.date`, message: 'must be a date YYYY-MM-DD' });
    else if (seen.has(date)) out.push({ field: `${path}.date`, message: 'must not repeat another override' });
    else seen.add(date);
    const intervals = override['intervals'];
    if (!Array.isArray(intervals) || intervals.length > MAX_OVERRIDE_INTERVALS) {
      out.push({
        field: `${path}.intervals`,
        message: `must be an array of at most ${MAX_OVERRIDE_INTERVALS} intervals`,
      });
      return;
    }
    intervals.forEach((interval, j) => intervalProblems(interval, `${path}.intervals[${j}]`, out));
  });
  return out;
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

/** The minute intervals a local date is open, before conversion to instants. */
export function openMinutesOn(a: Availability, date: Temporal.PlainDate): [number, number][] {
  const key = date.toString();
  const override = a.overrides.find((o) => o.date === key);
  if (override) return mergeMinutes(override.intervals.map((i) => [minutesOf(i.start)!, minutesOf(i.end)!]));
  if (a.weekly === null) return [[0, 1440]];
  const day = weekdayOf(date);
  return mergeMinutes(
    a.weekly.filter((r) => r.days.includes(day)).map((r) => [minutesOf(r.start)!, minutesOf(r.end)!]),
  );
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

/**
 * Every window of every local date that can touch `[from, to)`, with the date it belongs to, in
 * order. A window never spans two local dates' rules: windows of adjacent dates stay apart.
 */
export function windowsBetween(
  a: Availability,
  from: number,
  to: number,
  timeZone: string,
): { date: Temporal.PlainDate; span: Span }[] {
  const out: { date: Temporal.PlainDate; span: Span }[] = [];
  // A day before and after: a window of a neighbouring date can reach into the range.
  let date = localDateOf(from, timeZone).subtract({ days: 1 });
  const last = localDateOf(to, timeZone).add({ days: 1 });
  while (Temporal.PlainDate.compare(date, last) <= 0) {
    for (const span of windowsOn(a, date, timeZone)) {
      if (span.end > from && span.start < to) out.push({ date, span });
    }
    date = date.add({ days: 1 });
  }
  return out;
}
