import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { Pool } from 'pg';
import { DataSource, EntityManager, QueryFailedError } from 'typeorm';
import type { PostgresDriver } from 'typeorm/driver/postgres/PostgresDriver';
import { CountCap, ListTotal, Page } from '../api/pagination';
import { retryTransientConflicts } from './conflict-retry';

/**
 * The rows of a statement run through TypeORM's `query()`, which answers a SELECT or INSERT … RETURNING
 * with the rows, and an UPDATE or DELETE … RETURNING with `[rows, affectedCount]`.
 */
export function returnedRows<T>(result: unknown): T[] {
  if (Array.isArray(result) && result.length === 2 && Array.isArray(result[0]) && typeof result[1] === 'number') {
    return result[0] as T[];
  }
  return result as T[];
}

/** Runs one parameterised statement and returns its rows, whatever the statement. */
export async function rowsOf<R>(em: EntityManager, sql: string, params: unknown[] = []): Promise<R[]> {
  return returnedRows<R>(await em.query(sql, params));
}

/** Runs one parameterised statement and returns its rows (a repository's thin path, see SqlClient). */
export type RunSql = <R>(sql: string, params: unknown[]) => Promise<R[]>;

/** A `LIKE '%…%' ESCAPE '\\'` pattern that finds `text` taken literally. */
export function containsPattern(text: string): string {
  return `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}

/** `count(*) OVER ()` comes back as bigint text. */
export function toCount(value: unknown): number {
  return value === undefined || value === null ? 0 : Number(value);
}

/**
 * A count that stops after `rowsToRead` matching rows (`CountCap.rowsToRead`, passed as `limitParam`):
 * `matching` is a `SELECT 1 FROM … WHERE …` of the list's conditions. The planner can answer it from
 * any index that yields the matches, and it reads no more than the cap however many match.
 */
export function cappedCountSql(matching: string, limitParam: string): string {
  return `SELECT count(*) AS total FROM (${matching} LIMIT ${limitParam}) AS matching`;
}

/** The parts of a list statement: `from` is `FROM … WHERE …` with the list's filters, numbered from $1. */
export interface ListSql {
  readonly columns: string;
  readonly from: string;
  readonly orderBy: string;
}

/**
 * A page of a list and its total, counted up to the cap (`CountCap`), in one statement: the count is
 * an uncorrelated subquery of the page (run once, before the page), reading at most cap + 1 matches,
 * and the page stops after `limit` rows. When the offset lies past the last row the page is empty
 * and carries no count, so the count then runs alone. `params` are the values of `from`; the cap,
 * limit and offset follow them.
 */
export async function pageWithTotal<R>(
  em: EntityManager | RunSql,
  sql: ListSql,
  params: readonly unknown[],
  page: Page,
  configuredCap: number,
): Promise<{ rows: R[]; total: ListTotal }> {
  const run: RunSql = typeof em === 'function' ? em : (text, values) => rowsOf(em, text, values);
  const cap = CountCap.forPage(page, configuredCap);
  const n = params.length;
  const count = cappedCountSql(`SELECT 1 ${sql.from}`, `$${n + 1}`);
  const rows = await run<R & { total: unknown }>(
    `SELECT ${sql.columns}, (${count}) AS total ${sql.from} ORDER BY ${sql.orderBy} LIMIT $${n + 2} OFFSET $${n + 3}`,
    [...params, cap.rowsToRead, page.limit, page.offset],
  );
  if (rows.length > 0) return { rows, total: cap.totalOf(rows[0]!.total) };
  if (page.offset === 0) return { rows, total: cap.totalOf(0) };
  const [counted] = await run<{ total: unknown }>(count, [...params, cap.rowsToRead]);
  return { rows, total: cap.totalOf(counted?.total) };
}

export interface SqlResult<R> {
  rows: R[];
  /** Rows inserted, updated, deleted or returned. */
  rowCount: number;
}

/**
 * A thin path for hot single statements outside transactions: parameterised SQL straight on the pg
 * pool TypeORM owns (same connections, same type parsers), without a QueryRunner per statement.
 * Errors come back as TypeORM's `QueryFailedError` with the pg error as `driverError`, as from
 * `dataSource.query`, so `pgErrorOf` and the global filter read them the same way.
 * Transactions keep going through their EntityManager. A statement the database aborted for a
 * deadlock or a serialization failure runs again (see conflict-retry.ts).
 */
@Injectable()
export class SqlClient {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  private get pool(): Pool {
    return (this.dataSource.driver as PostgresDriver).master as Pool;
  }

  /**
   * `timeoutMs` bounds the wait for the answer on the client side (pg's `query_timeout`): past it the
   * statement fails and its connection is closed rather than returned to the pool.
   */
  async query<R>(sql: string, params: unknown[] = [], options: { timeoutMs?: number } = {}): Promise<SqlResult<R>> {
    let result;
    try {
      result = await retryTransientConflicts(() =>
        options.timeoutMs
          ? this.pool.query({ text: sql, values: params, query_timeout: options.timeoutMs } as never)
          : this.pool.query(sql, params),
      );
    } catch (error) {
      throw new QueryFailedError(sql, params, error as Error);
    }
    return { rows: result.rows as R[], rowCount: result.rowCount ?? 0 };
  }

  /**
   * True when `em` is this data source's own manager, outside any transaction: a statement run
   * through it may take the thin path instead.
   */
  handles(em: EntityManager): boolean {
    return em.queryRunner === undefined && em.connection === this.dataSource;
  }
}
