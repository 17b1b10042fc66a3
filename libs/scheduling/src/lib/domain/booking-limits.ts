import { ZoneOffsets } from './availability';

/**
 * Limits over periods (docs/contract/scheduling.md): how many bookings, and how many booked
 * minutes, a day, a week or a month may hold — an event type's over its own bookings on a
 * schedule, a schedule's over all of its bookings. Periods are local to the schedule's time zone:
 * a day from midnight to midnight, a week from Monday 00:00 to the next Monday 00:00, a calendar
 * month; a booking counts in the periods where it starts, for its duration without buffers.
 *
 * Plain TypeScript. Local dates are epoch days (days since 1970-01-01 of the local calendar), so
 * weeks and months are calendar arithmetic; only a period's first and last instants depend on the
 * zone, and they are read through `ZoneOffsets` (Temporal's instants, DST changes included).
 */

const MINUTE = 60_000;
const DAY = 86_400_000;

export const MAX_BOOKINGS_PER_PERIOD = 10_000;
export const MAX_BOOKED_MINUTES_PER_PERIOD = 100_000;

/** An event type's limits over its PENDING/CONFIRMED bookings on one schedule; null: none. */
export interface EventTypeLimits {
  readonly maxBookingsPerDay: number | null;
  readonly maxBookingsPerWeek: number | null;
  readonly maxBookingsPerMonth: number | null;
  readonly maxBookedMinutesPerDay: number | null;
  readonly maxBookedMinutesPerWeek: number | null;
}

/** A schedule's limits over every PENDING/CONFIRMED booking it holds, whatever its event type; null: none. */
export interface ScheduleLimits {
  readonly maxBookingsPerDay: number | null;
  readonly maxBookingsPerWeek: number | null;
  readonly maxBookedMinutesPerDay: number | null;
  readonly maxBookedMinutesPerWeek: number | null;
}

/** An event type, and a schedule, without any limit (the defaults). */
export const NO_EVENT_TYPE_LIMITS: EventTypeLimits = {
  maxBookingsPerDay: null,
  maxBookingsPerWeek: null,
  maxBookingsPerMonth: null,
  maxBookedMinutesPerDay: null,
  maxBookedMinutesPerWeek: null,
};
export const NO_SCHEDULE_LIMITS: ScheduleLimits = {
  maxBookingsPerDay: null,
  maxBookingsPerWeek: null,
  maxBookedMinutesPerDay: null,
  maxBookedMinutesPerWeek: null,
};

/** The limits a booking (or a slot) meets: its event type's where they apply, and its schedule's. */
export interface LimitSet {
  /** null: no event type, or one whose limits do not apply here (a schedule without availability). */
  readonly eventType: EventTypeLimits | null;
  readonly schedule: ScheduleLimits;
}

/** Why a time would break a limit, in the order they are named when several apply. */
export type LimitReason = 'daily_limit' | 'weekly_limit' | 'monthly_limit' | 'duration_limit' | 'schedule_limit';
export const LIMIT_REASONS: readonly LimitReason[] = [
  'daily_limit',
  'weekly_limit',
  'monthly_limit',
  'duration_limit',
  'schedule_limit',
];

export type PeriodKind = 'day' | 'week' | 'month';

/** A local period: `[firstDay, endDay)` in epoch days of the schedule's calendar. */
export interface LocalPeriod {
  readonly kind: PeriodKind;
  readonly firstDay: number;
  readonly endDay: number;
}

/** What the counted bookings of one period hold: all of the schedule's, and the event type's. */
export interface PeriodTotals {
  readonly bookings: number;
  readonly minutes: number;
  readonly typeBookings: number;
  readonly typeMinutes: number;
}

export const EMPTY_TOTALS: PeriodTotals = { bookings: 0, minutes: 0, typeBookings: 0, typeMinutes: 0 };

/** Whose bookings a lock or a count is about: the event type's on the schedule, or all of the schedule's. */
export type LimitScope = 'event_type' | 'schedule';

/** The day, the week (from its Monday) or the month holding a local date. */
export function periodOf(kind: PeriodKind, day: number): LocalPeriod {
  if (kind === 'day') return { kind, firstDay: day, endDay: day + 1 };
  if (kind === 'week') {
    // 1970-01-01 was a Thursday: (day + 3) mod 7 is 0 on Mondays.
    const monday = day - ((((day + 3) % 7) + 7) % 7);
    return { kind, firstDay: monday, endDay: monday + 7 };
  }
  const date = new Date(day * DAY);
  const year = date.getUTCFullYear();
  const month = date.getUTCMonth();
  return { kind, firstDay: Date.UTC(year, month, 1) / DAY, endDay: Date.UTC(year, month + 1, 1) / DAY };
}

const ALL_KINDS: readonly PeriodKind[] = ['day', 'week', 'month'];

/** The kinds of period each scope's limits count over (none when it has no limit). */
export function limitedKinds(limits: LimitSet): Record<LimitScope, PeriodKind[]> {
  const t = limits.eventType;
  const s = limits.schedule;
  const type: PeriodKind[] = [];
  if (t) {
    if (t.maxBookingsPerDay !== null || t.maxBookedMinutesPerDay !== null) type.push('day');
    if (t.maxBookingsPerWeek !== null || t.maxBookedMinutesPerWeek !== null) type.push('week');
    if (t.maxBookingsPerMonth !== null) type.push('month');
  }
  const schedule: PeriodKind[] = [];
  if (s.maxBookingsPerDay !== null || s.maxBookedMinutesPerDay !== null) schedule.push('day');
  if (s.maxBookingsPerWeek !== null || s.maxBookedMinutesPerWeek !== null) schedule.push('week');
  return { event_type: type, schedule };
}

export function hasLimits(limits: LimitSet): boolean {
  const kinds = limitedKinds(limits);
  return kinds.event_type.length > 0 || kinds.schedule.length > 0;
}

const keyOf = (kind: PeriodKind, firstDay: number): string => `${kind}:${firstDay}`;

/**
 * Every period whose totals the limits need for starts on these local dates, once each (the
 * totals of a period carry both scopes' counts, so a day needed by either is read once).
 */
export function periodsToCount(limits: LimitSet, days: Iterable<number>): LocalPeriod[] {
  const kinds = limitedKinds(limits);
  const needed = ALL_KINDS.filter((k) => kinds.event_type.includes(k) || kinds.schedule.includes(k));
  const periods = new Map<string, LocalPeriod>();
  for (const day of days) {
    for (const kind of needed) {
      const period = periodOf(kind, day);
      periods.set(keyOf(kind, period.firstDay), period);
    }
  }
  return [...periods.values()];
}

/**
 * The periods a booking starting on `day` counts against, by scope, as the keys of the locks that
 * make their last places go to one booking at a time (scope, kind, first day). Sorted: whoever
 * takes several takes them in the same order.
 */
export function limitLockKeys(limits: LimitSet, days: Iterable<number>): string[] {
  const kinds = limitedKinds(limits);
  const keys = new Set<string>();
  for (const day of days) {
    for (const scope of ['event_type', 'schedule'] as const) {
      for (const kind of kinds[scope]) keys.add(`${scope}:${keyOf(kind, periodOf(kind, day).firstDay)}`);
    }
  }
  return [...keys].sort();
}

/** A period's first and last instants: its first local midnight and the next period's (a skipped midnight: the first instant after it). */
export function periodSpan(zone: ZoneOffsets, period: LocalPeriod): { start: number; end: number } {
  return {
    start: zone.instantOfLocal(period.firstDay * DAY, 'transition'),
    end: zone.instantOfLocal(period.endDay * DAY, 'transition'),
  };
}

/** The local date (epoch day) of an instant. */
export function localDayOf(zone: ZoneOffsets, instant: number): number {
  return Math.floor((instant + zone.offsetAt(instant)) / DAY);
}

/** Zone offsets covering every period (months included) of starts in `[from, to]`. */
export function zoneForPeriods(timeZone: string, from: number, to: number): ZoneOffsets {
  return new ZoneOffsets(timeZone, from - 40 * DAY, to + 40 * DAY);
}

/**
 * The totals of the counted periods, and the rule that decides from them: a time breaks a count
 * limit when its period already holds that many bookings, and a minutes limit when the minutes
 * already booked plus its own go past it. `add` counts a booking in (a series checked occurrence
 * by occurrence counts the ones it keeps).
 */
export class LimitLedger {
  private readonly totals = new Map<string, PeriodTotals>();

  constructor(
    private readonly limits: LimitSet,
    counted: readonly { period: LocalPeriod; totals: PeriodTotals }[],
  ) {
    for (const { period, totals } of counted) this.totals.set(keyOf(period.kind, period.firstDay), totals);
  }

  private totalsOf(kind: PeriodKind, day: number): PeriodTotals {
    return this.totals.get(keyOf(kind, periodOf(kind, day).firstDay)) ?? EMPTY_TOTALS;
  }

  /** The first limit a booking of `minutes` starting on local date `day` would break, or null. */
  reasonFor(day: number, minutes: number): LimitReason | null {
    const t = this.limits.eventType;
    if (t) {
      if (t.maxBookingsPerDay !== null && this.totalsOf('day', day).typeBookings >= t.maxBookingsPerDay) return 'daily_limit';
      if (t.maxBookingsPerWeek !== null && this.totalsOf('week', day).typeBookings >= t.maxBookingsPerWeek) return 'weekly_limit';
      if (t.maxBookingsPerMonth !== null && this.totalsOf('month', day).typeBookings >= t.maxBookingsPerMonth) return 'monthly_limit';
      if (t.maxBookedMinutesPerDay !== null && this.totalsOf('day', day).typeMinutes + minutes > t.maxBookedMinutesPerDay) return 'duration_limit';
      if (t.maxBookedMinutesPerWeek !== null && this.totalsOf('week', day).typeMinutes + minutes > t.maxBookedMinutesPerWeek) return 'duration_limit';
    }
    const s = this.limits.schedule;
    if (
      (s.maxBookingsPerDay !== null && this.totalsOf('day', day).bookings >= s.maxBookingsPerDay) ||
      (s.maxBookingsPerWeek !== null && this.totalsOf('week', day).bookings >= s.maxBookingsPerWeek) ||
      (s.maxBookedMinutesPerDay !== null && this.totalsOf('day', day).minutes + minutes > s.maxBookedMinutesPerDay) ||
      (s.maxBookedMinutesPerWeek !== null && this.totalsOf('week', day).minutes + minutes > s.maxBookedMinutesPerWeek)
    ) {
      return 'schedule_limit';
    }
    return null;
  }

  /** Counts a booking of the event type (`sameType`) or another, starting on `day`, in every counted period holding it. */
  add(day: number, minutes: number, sameType = true): void {
    for (const kind of ALL_KINDS) {
      const key = keyOf(kind, periodOf(kind, day).firstDay);
      const totals = this.totals.get(key);
      if (!totals) continue;
      this.totals.set(key, {
        bookings: totals.bookings + 1,
        minutes: totals.minutes + minutes,
        typeBookings: totals.typeBookings + (sameType ? 1 : 0),
        typeMinutes: totals.typeMinutes + (sameType ? minutes : 0),
      });
    }
  }
}

/** A booking's minutes as limits count them: its duration, without buffers. */
export function bookedMinutes(start: number, end: number): number {
  return (end - start) / MINUTE;
}
