import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsInt, IsOptional, Max, Min } from 'class-validator';
import { QueryInt } from './query';

export const MAX_LIMIT = 100;
/** The largest integer a query parameter can carry (QueryInt converts at most 15 digits). */
export const MAX_QUERY_INTEGER = 999_999_999_999_999;

/** `limit` and `offset` query parameters; the default limit depends on the list (50, or 20 for posts). */
export class PageQuery {
  @ApiPropertyOptional({ type: 'integer', default: 50, description: 'Page size; values above 100 are clamped to 100' })
  @IsOptional()
  @QueryInt()
  @IsInt()
  @Min(1)
  @Max(MAX_QUERY_INTEGER)
  readonly limit?: number;

  @ApiPropertyOptional({ type: 'integer', default: 0, description: 'Records to skip' })
  @IsOptional()
  @QueryInt()
  @IsInt()
  @Min(0)
  @Max(MAX_QUERY_INTEGER)
  readonly offset?: number;
}

export interface Page {
  readonly limit: number;
  readonly offset: number;
}

export function resolvePage(query: { limit?: number; offset?: number }, defaultLimit = 50): Page {
  return { limit: Math.min(query.limit ?? defaultLimit, MAX_LIMIT), offset: query.offset ?? 0 };
}

export class PageMeta {
  @ApiProperty({ type: 'integer', minimum: 0, example: 120, description: 'All matching records' })
  readonly total!: number;
  @ApiProperty({ type: 'integer', minimum: 1, maximum: MAX_LIMIT, example: 50, description: 'The limit applied' })
  readonly limit!: number;
  @ApiProperty({ type: 'integer', minimum: 0, example: 0, description: 'The offset applied' })
  readonly offset!: number;
  @ApiProperty({ example: true, description: 'Whether more records follow the returned ones; exact, whatever `total` says' })
  readonly hasMore!: boolean;
  @ApiPropertyOptional({
    type: 'boolean',
    enum: [true],
    description:
      'Present, and true, only when counting stopped before the last match: a list counts at most 10,000 matching ' +
      'records (or offset + limit + 1 when the page reaches further), and a search at most the posts it considers. ' +
      'Then `total` is a lower bound; absent, `total` is exact',
  })
  readonly total_is_lower_bound?: true;
}

export interface ListResponse<T> {
  data: T[];
  meta: PageMeta;
}

/**
 * How many records a list matches: exact, or a lower bound when counting stopped at the list's cap
 * (`CountCap`). `count` never exceeds the true number.
 */
export interface ListTotal {
  readonly count: number;
  readonly isLowerBound: boolean;
}

/** An exact total. */
export function exactTotal(count: number): ListTotal {
  return { count, isLowerBound: false };
}

/** Where a list stops counting its matches, unless a page reaches further (see `CountCap`). */
export const DEFAULT_LIST_COUNT_CAP = 10_000;

/** How many of the most recent matches a search ranks (see `AppConfig.searchWindow`). */
export const DEFAULT_SEARCH_WINDOW = 200;

/**
 * Where one request's count stops: an organization's bookings, posts, registrations or audit entries
 * grow without bound, and an exact count reads every match. A list counts at most `cap + 1`
 * matching rows (a subquery with `LIMIT rowsToRead`): the extra row tells "exactly cap" from "more".
 * The cap is never below the page's end + 1, so a capped total still exceeds everything up to the
 * page's end and `hasMore` (offset + data.length < total) stays exact: when counting stopped, more
 * records than the cap match, hence more than the page reaches.
 */
export class CountCap {
  /** A count that stops at `cap` (a search's window, see the posts). */
  constructor(readonly cap: number) {}

  /** The cap of a page's count: the configured one, or the page's end + 1 when that is further. */
  static forPage(page: Page, configured: number): CountCap {
    return new CountCap(Math.max(configured, page.offset + page.limit + 1));
  }

  /** The LIMIT of the counting subquery. */
  get rowsToRead(): number {
    return this.cap + 1;
  }

  /** The number the counting subquery found (bigint text or a number), as the list's total. */
  totalOf(counted: unknown): ListTotal {
    const count = counted === undefined || counted === null ? 0 : Number(counted);
    return count > this.cap ? { count: this.cap, isLowerBound: true } : exactTotal(count);
  }
}

export function pageOf<T>(data: T[], total: number | ListTotal, page: Page): ListResponse<T> {
  const { count, isLowerBound } = typeof total === 'number' ? exactTotal(total) : total;
  return {
    data,
    meta: {
      total: count,
      limit: page.limit,
      offset: page.offset,
      hasMore: page.offset + data.length < count,
      ...(isLowerBound ? { total_is_lower_bound: true as const } : {}),
    },
  };
}
