import { ValidationFailedError } from '@almanac/shared/domain';

export const DEFAULT_RANGE_DAYS = 90;
export const MAX_RANGE_DAYS = 366;
const DAY_MS = 24 * 60 * 60 * 1000;

/** The import range: defaults to now … now + 90 days; end after start; at most 366 days. */
export function resolveSyncRange(now: Date, start: Date | null, end: Date | null): { start: Date; end: Date } {
  const from = start ?? now;
  const to = end ?? new Date(from.getTime() + DEFAULT_RANGE_DAYS * DAY_MS);
  if (to.getTime() <= from.getTime()) {
    throw new ValidationFailedError([{ field: 'endDate', message: 'must be after startDate' }]);
  }
  if (to.getTime() - from.getTime() > MAX_RANGE_DAYS * DAY_MS) {
    throw new ValidationFailedError([{ field: 'endDate', message: `the range may span at most ${MAX_RANGE_DAYS} days` }]);
  }
  return { start: from, end: to };
}
