import {
  InvalidReferenceError,
  PG_EXCLUSION_VIOLATION,
  PG_FOREIGN_KEY_VIOLATION,
  pgErrorOf,
  returnedRows,
} from '@almanac/shared';
import type { EntityManager } from 'typeorm';
import { BookingOverlapError } from '../domain/scheduling-errors';

/** Runs one parameterised statement and returns its rows, whatever the statement. */
export async function rowsOf<R>(em: EntityManager, sql: string, params: unknown[] = []): Promise<R[]> {
  return returnedRows<R>(await em.query(sql, params));
}

/** Runs one parameterised statement and returns its rows (a repository's thin path, see SqlClient). */
export type RunSql = <R>(sql: string, params: unknown[]) => Promise<R[]>;

/** `count(*) OVER ()` comes back as bigint text. */
export function toCount(value: unknown): number {
  return value === undefined || value === null ? 0 : Number(value);
}

/**
 * A page of rows read with `count(*) OVER ()`. When the offset lies past the last row the page is
 * empty and carries no count, so the total is read once more without the page.
 */
export async function pageWithTotal<R extends { total?: unknown }>(
  em: EntityManager | RunSql,
  pageSql: string,
  countSql: string,
  params: unknown[],
  offset: number,
): Promise<{ rows: R[]; total: number }> {
  const run: RunSql = typeof em === 'function' ? em : (sql, values) => rowsOf(em, sql, values);
  const rows = await run<R>(pageSql, params);
  if (rows.length > 0) return { rows, total: toCount(rows[0]!.total) };
  if (offset === 0) return { rows, total: 0 };
  const [count] = await run<{ total: unknown }>(countSql, params.slice(0, -2));
  return { rows, total: toCount(count?.total) };
}

/**
 * Turns the constraint failures a booking write can meet into domain errors: the no-overlap
 * exclusion constraint, and a schedule or event type deleted between our check and the write.
 */
export function translateBookingWriteError(error: unknown): unknown {
  const { code, constraint } = pgErrorOf(error);
  if (code === PG_EXCLUSION_VIOLATION && constraint === 'bookings_no_overlap')
    return new BookingOverlapError();
  if (code === PG_FOREIGN_KEY_VIOLATION && constraint === 'bookings_schedule_fkey')
    return new InvalidReferenceError('schedule_id');
  if (code === PG_FOREIGN_KEY_VIOLATION && constraint === 'bookings_event_type_fkey') {
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
