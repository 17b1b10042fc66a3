import { field, recordFields } from '@almanac/shared/domain';
import type { DateOverride, WeeklyRule } from './availability';
import type { ScheduleLimits } from './booking-limits';

/** A schedule, with its limits over all the bookings it holds. */
export interface Schedule extends ScheduleLimits {
  readonly id: string;
  readonly organizationId: string;
  readonly name: string;
  readonly timezone: string;
  /** Weekly rules; null: open around the clock (except on overridden dates). */
  readonly availability: readonly WeeklyRule[] | null;
  readonly dateOverrides: readonly DateOverride[];
  readonly createdAt: Date;
  readonly updatedAt: Date;
}

/** Every field of a schedule, in the order its representation lists them. */
export const SCHEDULE_FIELDS = recordFields<Schedule>()({
  id: field.value,
  organizationId: field.hidden(field.value),
  name: field.value,
  timezone: field.value,
  availability: field.jsonShown((rules: readonly WeeklyRule[] | null) =>
    rules === null ? null : rules.map((r) => ({ days: [...r.days], start: r.start, end: r.end })),
  ),
  dateOverrides: field.jsonShown((overrides: readonly DateOverride[]) =>
    overrides.map((o) => ({ date: o.date, intervals: o.intervals.map((i) => ({ start: i.start, end: i.end })) })),
  ),
  maxBookingsPerDay: field.value,
  maxBookingsPerWeek: field.value,
  maxBookedMinutesPerDay: field.value,
  maxBookedMinutesPerWeek: field.value,
  createdAt: field.instant,
  updatedAt: field.instant,
});

/** Set by the server: the identity and the timestamps. */
type ServerSetScheduleField = 'id' | 'organizationId' | 'createdAt' | 'updatedAt';

/** What a client may set on a schedule (create: the name required; PATCH: any of them). */
export type ScheduleInput = Pick<Schedule, 'name'> & Partial<Omit<Schedule, ServerSetScheduleField | 'name'>>;

/** What a PATCH writes. */
export type ScheduleChanges = Partial<Omit<Schedule, ServerSetScheduleField>> & { updatedAt: Date };

export const DEFAULT_SCHEDULE_TIMEZONE = 'UTC';

/** A new schedule: in UTC unless told otherwise, open around the clock, no overrides, no limits. */
export function newSchedule(identity: { id: string; organizationId: string }, input: ScheduleInput, now: Date): Schedule {
  return {
    ...identity,
    name: input.name,
    timezone: input.timezone ?? DEFAULT_SCHEDULE_TIMEZONE,
    availability: input.availability ?? null,
    dateOverrides: input.dateOverrides ?? [],
    maxBookingsPerDay: input.maxBookingsPerDay ?? null,
    maxBookingsPerWeek: input.maxBookingsPerWeek ?? null,
    maxBookedMinutesPerDay: input.maxBookedMinutesPerDay ?? null,
    maxBookedMinutesPerWeek: input.maxBookedMinutesPerWeek ?? null,
    createdAt: now,
    updatedAt: now,
  };
}
