import { FieldError, isCalendarDate, isIanaTimeZone, isTimeOfDay, zonedTimeToUtc } from '@almanac/shared/domain';

/** Years outside this range are refused: they make no sense for an event and break date arithmetic. */
export const MIN_EVENT_YEAR = 1000;
export const MAX_EVENT_YEAR = 9999;

/** When an event happens, as entered: a local date, optional local times, an IANA zone. */
export interface EventTiming {
  readonly startDate: string;
  readonly startTime: string | null;
  readonly endTime: string | null;
  readonly timezone: string;
}

/** The instants an event occupies: `[startsAt, endsAt)`. */
export interface EventWindow {
  readonly startsAt: Date;
  readonly endsAt: Date;
}

/** Every rule a timing breaks, with the field to blame (empty when valid). */
export function timingErrors(timing: EventTiming): FieldError[] {
  const errors: FieldError[] = [];
  if (!isCalendarDate(timing.startDate)) {
    errors.push({ field: 'start_date', message: 'must be a date YYYY-MM-DD that exists' });
  } else {
    const year = Number(timing.startDate.slice(0, 4));
    if (year < MIN_EVENT_YEAR || year > MAX_EVENT_YEAR) {
      errors.push({ field: 'start_date', message: `must be in the years ${MIN_EVENT_YEAR}-${MAX_EVENT_YEAR}` });
    } else if (timing.endTime === null && timing.startDate === `${MAX_EVENT_YEAR}-12-31`) {
      // Without end_time the event lasts until the next day's midnight, which would be in year 10000.
      errors.push({ field: 'end_time', message: `is required on the last day of ${MAX_EVENT_YEAR}` });
    }
  }
  if (timing.startTime !== null && !isTimeOfDay(timing.startTime)) {
    errors.push({ field: 'start_time', message: 'must be a time HH:MM between 00:00 and 23:59' });
  }
  if (timing.endTime !== null) {
    if (!isTimeOfDay(timing.endTime)) {
      errors.push({ field: 'end_time', message: 'must be a time HH:MM between 00:00 and 23:59' });
    } else if (timing.startTime === null) {
      errors.push({ field: 'end_time', message: 'requires start_time' });
    } else if (isTimeOfDay(timing.startTime) && timing.endTime <= timing.startTime) {
      errors.push({ field: 'end_time', message: 'must be after start_time' });
    }
  }
  if (!isIanaTimeZone(timing.timezone)) {
    errors.push({ field: 'timezone', message: 'must be an IANA time zone name such as Europe/Paris' });
  }
  return errors;
}

/** The calendar day after `date` (YYYY-MM-DD). */
export function nextCalendarDate(date: string): string {
  const [y, m, d] = date.split('-').map(Number) as [number, number, number];
  const next = new Date(0);
  next.setUTCFullYear(y, m - 1, d + 1);
  return next.toISOString().slice(0, 10);
}

/**
 * The event runs from start_date + start_time (00:00 when absent) to start_date + end_time (the end
 * of the day, i.e. the next day's 00:00, when absent), as wall-clock times in its own zone. DST-correct:
 * a day on which clocks change lasts 23 or 25 hours.
 */
export function eventWindow(timing: EventTiming): EventWindow {
  const startsAt = zonedTimeToUtc(timing.startDate, timing.startTime ?? '00:00', timing.timezone);
  const endsAt =
    timing.endTime !== null
      ? zonedTimeToUtc(timing.startDate, timing.endTime, timing.timezone)
      : zonedTimeToUtc(nextCalendarDate(timing.startDate), '00:00', timing.timezone);
  return { startsAt, endsAt };
}
