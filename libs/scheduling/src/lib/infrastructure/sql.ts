import {
  InvalidReferenceError,
  PG_EXCLUSION_VIOLATION,
  PG_FOREIGN_KEY_VIOLATION,
  pgErrorOf,
} from '@almanac/shared';
import { BookingOverlapError } from '../domain/scheduling-errors';

// The paging helpers moved to @almanac/shared; re-exported here for this context's repositories.
export { pageWithTotal, rowsOf, toCount, type RunSql } from '@almanac/shared';

/** The exclusion constraints that refuse time already held: bookings among themselves, and every holder of a schedule's time. */
const TIME_HELD = new Set(['bookings_no_overlap', 'schedule_blocked_times_no_overlap']);

/**
 * Turns the constraint failures a booking (or reservation) write can meet into domain errors: the no-overlap
 * exclusion constraints (a `BookingOverlapError` that does not yet name what holds the time: the
 * application service looks it up once the failed transaction is over), and a schedule or event
 * type deleted between our check and the write.
 */
export function translateBookingWriteError(error: unknown): unknown {
  const { code, constraint } = pgErrorOf(error);
  if (code === PG_EXCLUSION_VIOLATION && constraint !== undefined && TIME_HELD.has(constraint))
    return new BookingOverlapError();
  if (code === PG_FOREIGN_KEY_VIOLATION && (constraint === 'bookings_schedule_fkey' || constraint === 'slot_reservations_schedule_fkey'))
    return new InvalidReferenceError('schedule_id');
  if (code === PG_FOREIGN_KEY_VIOLATION && (constraint === 'bookings_event_type_fkey' || constraint === 'slot_reservations_event_type_fkey')) {
    return new InvalidReferenceError('event_type_id');
  }
  return error;
}

/** Collects positional parameters while a query is assembled: `p.add(value)` returns `$n`. */
export class Params {
  readonly values: unknown[] = [];
  add(value: unknown): string {
    this.values.push(value);
    return `$${this.values.length}`;
  }
}

/** Escapes LIKE wildcards so user text matches literally (with `ESCAPE '\'`). */
export function likeLiteral(text: string): string {
  return text.replace(/[\\%_]/g, (c) => `\\${c}`);
}

/**
 * `col = $n, …` for the given changes. Column names come only from `columns` (a fixed map from
 * field to column), never from input; values become parameters.
 */
export function setClause<F extends string>(
  p: Params,
  changes: Partial<Record<F, unknown>>,
  columns: Readonly<Record<F, string>>,
): string {
  const parts: string[] = [];
  for (const field of Object.keys(columns) as F[]) {
    if (changes[field] !== undefined) parts.push(`${columns[field]} = ${p.add(changes[field])}`);
  }
  return parts.join(', ');
}

/** A statement and its parameters. User input only ever travels in `values`. */
export interface SqlStatement {
  readonly text: string;
  readonly values: unknown[];
}

